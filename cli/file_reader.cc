#include "cli/file_reader.h"

#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

namespace tw {

namespace {

constexpr size_t kChunk = size_t(4) << 20;

// The page's words for the same damage (web/load/input/gzip_damage.ts): one story in both.
const char* const kGzipTruncated =
    "The gzip data ends early (truncated); what was decompressed before that point is loaded.";
const char* const kGzipCorrupt = "The gzip data is corrupt; what was decompressed before that point is loaded.";

std::string gzip_trailer_warning(int member) {
  return "gzip member " + std::to_string(member) +
         ": the CRC-32 or size in its trailer does not match its data; all of its data is loaded.";
}

// After zlib found a member's trailer wrong: how many of its 8 bytes it has not read yet (it stops
// after the CRC-32 when that is wrong, after the size otherwise). kNotTrailer: another error.
constexpr uInt kNotTrailer = ~uInt(0);
uInt trailer_bytes_left(const char* msg) {
  if (!msg) return kNotTrailer;
  if (std::strcmp(msg, "incorrect data check") == 0) return 4;
  if (std::strcmp(msg, "incorrect length check") == 0) return 0;
  return kNotTrailer;
}

struct FileCloser {
  void operator()(FILE* f) const {
    if (f) std::fclose(f);
  }
};

}  // namespace

uint64_t expected_input_bytes(const std::string& path) {
  std::unique_ptr<FILE, FileCloser> f(std::fopen(path.c_str(), "rb"));
  unsigned char head[2] = {0, 0}, tail[4] = {0, 0, 0, 0};
  if (!f || std::fread(head, 1, 2, f.get()) != 2 || std::fseek(f.get(), 0, SEEK_END) != 0) return 0;
  long size = std::ftell(f.get());
  if (size <= 0) return 0;
  if (head[0] != 0x1f || head[1] != 0x8b) return static_cast<uint64_t>(size);
  if (size < 18 || std::fseek(f.get(), -4, SEEK_END) != 0 || std::fread(tail, 1, 4, f.get()) != 4) return 0;
  uint64_t isize = uint64_t(tail[0]) | uint64_t(tail[1]) << 8 | uint64_t(tail[2]) << 16 | uint64_t(tail[3]) << 24;
  return isize >= static_cast<uint64_t>(size) ? isize : 0;  // wrapped past 4 GiB: unknown
}

bool plain_file_size(const std::string& path, uint64_t& size) {
  std::unique_ptr<FILE, FileCloser> f(std::fopen(path.c_str(), "rb"));
  unsigned char head[2] = {0, 0};
  size_t n = f ? std::fread(head, 1, 2, f.get()) : 0;
  if (!f || (n == 2 && head[0] == 0x1f && head[1] == 0x8b) || std::fseek(f.get(), 0, SEEK_END) != 0) return false;
  long end = std::ftell(f.get());
  if (end < 0) return false;
  size = static_cast<uint64_t>(end);
  return true;
}

ReadResult stream_file(const std::string& path, const std::function<void(const char*, size_t)>& sink,
                       const ReadLimits& limits) {
  ReadResult r;
  const bool is_stdin = path == "-";
  std::unique_ptr<FILE, FileCloser> opened(is_stdin ? nullptr : std::fopen(path.c_str(), "rb"));
  FILE* f = is_stdin ? stdin : opened.get();
  if (!f) {
    r.ok = false;
    r.error = "cannot open " + path;
    return r;
  }
  std::vector<char> in(kChunk), out(kChunk);
  // The next chunk of input, 0 at its end, on a read error or past the cap (r says which).
  auto read = [&]() -> size_t {
    if (!r.ok || (limits.stop && limits.stop())) return 0;
    size_t n = std::fread(in.data(), 1, in.size(), f);
    r.file_bytes += n;
    if (limits.max_bytes && r.file_bytes > limits.max_bytes) {
      r.ok = false;
      r.error = (is_stdin ? std::string("standard input") : path) + ": more than " + std::to_string(limits.max_bytes) +
                " bytes from a pipe or standard input; stopped reading (--max-bytes raises the cap)";
      return 0;
    }
    if (n == 0 && std::ferror(f)) r.ok = false, r.error = "read error on " + path;
    return n;
  };
  size_t n = read();
  r.gzip = n >= 2 && static_cast<unsigned char>(in[0]) == 0x1f && static_cast<unsigned char>(in[1]) == 0x8b;
  if (!r.gzip) {
    while (n > 0) {
      sink(in.data(), n);
      n = read();
    }
    return r;
  }
  z_stream z{};
  if (inflateInit2(&z, 15 + 16) != Z_OK) {
    r.ok = false;
    r.error = "zlib init failed";
    return r;
  }
  int member = 1;
  bool ended = false;   // the current member's trailer was read
  bool broken = false;  // corrupt data: nothing more is inflated (the file is still counted)
  size_t skip = 0;      // bytes of a damaged trailer left to pass over, in the next read
  while (n > 0) {
    size_t skipped = std::min(skip, n);
    skip -= skipped;
    z.next_in = reinterpret_cast<Bytef*>(in.data() + skipped);
    z.avail_in = broken ? 0 : static_cast<uInt>(n - skipped);
    while (z.avail_in > 0) {
      // Concatenated gzip members continue after the end of one member.
      if (ended) {
        inflateReset(&z);
        ended = false;
        ++member;
      }
      z.next_out = reinterpret_cast<Bytef*>(out.data());
      z.avail_out = static_cast<uInt>(out.size());
      int rc = inflate(&z, Z_NO_FLUSH);
      size_t produced = out.size() - z.avail_out;
      if (produced) sink(out.data(), produced);
      if (limits.stop && limits.stop()) {  // a small stream may inflate to gigabytes
        inflateEnd(&z);
        return r;
      }
      if (rc == Z_STREAM_END) {
        ended = true;
        continue;
      }
      uInt rest = rc == Z_DATA_ERROR ? trailer_bytes_left(z.msg) : kNotTrailer;
      if (rest != kNotTrailer) {
        // Every byte of the member was inflated (and passed on) before its trailer was checked.
        r.gzip_warnings.push_back(gzip_trailer_warning(member));
        uInt now = std::min(rest, z.avail_in);
        z.next_in += now;
        z.avail_in -= now;
        skip = rest - now;
        ended = true;
        continue;
      }
      if (rc != Z_OK && rc != Z_BUF_ERROR) {
        r.gzip_truncated = true;  // corrupt data: keep what was decompressed
        r.gzip_warnings.push_back(kGzipCorrupt);
        broken = true;
        break;
      }
      if (rc == Z_BUF_ERROR && produced == 0) break;
    }
    n = read();
  }
  inflateEnd(&z);
  if (!r.ok || (limits.stop && limits.stop())) return r;
  if (!ended && !broken) {
    r.gzip_truncated = true;
    r.gzip_warnings.push_back(kGzipTruncated);
  }
  return r;
}

}  // namespace tw

namespace tw {

bool read_capped_text(const std::string& path, uint64_t cap, std::string& out, std::string& error) {
  bool too_big = false;
  ReadLimits limits;
  limits.stop = [&] { return too_big; };
  const ReadResult r = stream_file(
      path,
      [&](const char* p, size_t n) {
        if (out.size() + n > cap) too_big = true;
        else out.append(p, n);
      },
      limits);
  if (!r.ok) error = r.error;
  else if (too_big) error = path + " is larger than expected (over " + std::to_string(cap >> 20) + " MB)";
  return r.ok && !too_big;
}

}  // namespace tw
