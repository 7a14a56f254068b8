// Native inflate speed: core/inflate against zlib on the same gzip files, from memory (the file is
// read once), output in 1 MB chunks and discarded, both checking the CRC-32. Runs alternate
// (own, zlib, own, zlib, ...) and each side's median is printed as MB/s of output.
// Usage: tw_inflate_bench [--runs N] FILE.gz...   (bench/inflate_bench.mjs runs it for its table)
#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "core/inflate/gzip_inflater.h"

namespace {

using Clock = std::chrono::steady_clock;

// Output bytes of core/inflate over the file, fed 1 MB at a time.
uint64_t own_inflate(const std::vector<uint8_t>& gz) {
  tw::inflate::GzipInflater inf;
  uint64_t out = 0;
  for (size_t at = 0; at < gz.size();) {
    at += inf.push(gz.data() + at, gz.size() - at);
    for (auto s = inf.inflate(); !s.empty(); s = inf.inflate()) out += s.size();
  }
  inf.end_input();
  for (auto s = inf.inflate(); !s.empty(); s = inf.inflate()) out += s.size();
  if (!inf.damage().empty()) std::fprintf(stderr, "inflate_bench: core/inflate reports damage\n");
  return out;
}

// Output bytes of zlib over the file (every member).
uint64_t zlib_inflate(const std::vector<uint8_t>& gz) {
  z_stream z{};
  inflateInit2(&z, 15 + 16);
  std::vector<uint8_t> out(1 << 20);
  uint64_t total = 0;
  z.next_in = const_cast<Bytef*>(gz.data());
  z.avail_in = static_cast<uInt>(gz.size());
  while (z.avail_in > 0) {
    z.next_out = out.data();
    z.avail_out = static_cast<uInt>(out.size());
    const int rc = inflate(&z, Z_NO_FLUSH);
    total += out.size() - z.avail_out;
    if (rc == Z_STREAM_END) inflateReset(&z);
    else if (rc != Z_OK) break;
  }
  inflateEnd(&z);
  return total;
}

template <class F>
double seconds(F&& f, uint64_t& bytes) {
  const auto t0 = Clock::now();
  bytes = f();
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 5;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--runs") && i + 1 < argc) runs = std::max(1, std::atoi(argv[++i]));
    else files.push_back(argv[i]);
  }
  if (files.empty()) {
    std::fprintf(stderr, "usage: tw_inflate_bench [--runs N] FILE.gz...\n");
    return 2;
  }
  std::printf("| file | MB out | core/inflate MB/s | zlib MB/s | zlib s / own s |\n|---|---|---|---|---|\n");
  for (const std::string& path : files) {
    std::ifstream f(path, std::ios::binary);
    const std::vector<uint8_t> gz((std::istreambuf_iterator<char>(f)), {});
    std::vector<double> own, zl;
    uint64_t own_bytes = 0, zlib_bytes = 0;
    for (int r = 0; r < runs; ++r) {
      own.push_back(seconds([&] { return own_inflate(gz); }, own_bytes));
      zl.push_back(seconds([&] { return zlib_inflate(gz); }, zlib_bytes));
    }
    if (own_bytes != zlib_bytes) std::fprintf(stderr, "inflate_bench: %s: sizes differ\n", path.c_str());
    const double mb = own_bytes / 1e6;
    std::printf("| %s | %.0f | %.0f | %.0f | %.2f |\n", path.c_str(), mb, mb / median(own), mb / median(zl),
                median(zl) / median(own));
    std::fflush(stdout);
  }
  return 0;
}
