// The CLI's reader thread (cli/pipelined_reader.h) hands over exactly what stream_file reads: the
// same bytes in the same order, the same gzip damage, and an early stop that ends both threads.
#include <doctest/doctest.h>
#include <zlib.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <random>
#include <string>

#include "cli/file_reader.h"
#include "cli/pipelined_reader.h"

namespace {

std::string gzip_member(const std::string& text) {
  z_stream z{};
  REQUIRE(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK);
  std::string out(deflateBound(&z, text.size()) + 64, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  REQUIRE(deflate(&z, Z_FINISH) == Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

std::string temp_file(const std::string& name, const std::string& bytes) {
  std::string path = (std::filesystem::temp_directory_path() / name).string();
  std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(path.c_str(), "wb"), std::fclose);
  REQUIRE(f);
  REQUIRE(std::fwrite(bytes.data(), 1, bytes.size(), f.get()) == bytes.size());
  return path;
}

// Text that compresses poorly enough to span several of the reader's 4 MB chunks when inflated.
std::string noisy_text(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::string s(n, ' ');
  for (char& c : s) c = static_cast<char>('a' + rng() % 26);
  return s;
}

}  // namespace

TEST_CASE("pipelined reader: the same bytes and damage as stream_file") {
  const std::string a = noisy_text(9 << 20, 1), b = noisy_text(3 << 20, 2);
  const std::string two_members = gzip_member(a) + gzip_member(b);
  std::string bad_trailer = two_members;
  const size_t first_len = gzip_member(a).size();
  bad_trailer[first_len - 5] ^= 0x55;  // the first member's CRC-32
  const std::string truncated = two_members.substr(0, two_members.size() - 1000);
  struct Case {
    const char* name;
    std::string bytes;
  } cases[] = {{"plain", a}, {"two members", two_members}, {"bad trailer", bad_trailer}, {"truncated", truncated}};
  for (const Case& c : cases) {
    CAPTURE(c.name);
    const std::string path = temp_file("tracewise_pipelined_test.bin", c.bytes);
    std::string direct, piped;
    const tw::ReadResult r1 = tw::stream_file(path, [&](const char* p, size_t n) { direct.append(p, n); });
    const tw::ReadResult r2 = tw::stream_file_pipelined(path, [&](const char* p, size_t n) { piped.append(p, n); });
    CHECK(direct.size() > (1 << 20));
    CHECK(piped == direct);
    CHECK(r2.ok == r1.ok);
    CHECK(r2.gzip == r1.gzip);
    CHECK(r2.gzip_truncated == r1.gzip_truncated);
    CHECK(r2.gzip_warnings == r1.gzip_warnings);
    CHECK(r2.file_bytes == r1.file_bytes);
    std::remove(path.c_str());
  }
}

TEST_CASE("pipelined reader: a stop after the first chunk ends the read, with what came so far") {
  const std::string path = temp_file("tracewise_pipelined_stop.gz", gzip_member(noisy_text(20 << 20, 3)));
  size_t chunks = 0, bytes = 0;
  tw::ReadLimits limits;
  limits.stop = [&] { return chunks >= 1; };
  const tw::ReadResult r = tw::stream_file_pipelined(
      path,
      [&](const char*, size_t n) {
        ++chunks;
        bytes += n;
      },
      limits);
  CHECK(r.ok);
  CHECK(chunks == 1);
  CHECK(bytes > 0);
  CHECK(bytes < (20u << 20));
  std::remove(path.c_str());
}
