#include "cli/file_reader.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "core/inflate/gzip_inflater.h"
#include "core/inflate/gzip_size.h"

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

struct FileCloser {
  void operator()(FILE* f) const {
    if (f) std::fclose(f);
  }
};

}  // namespace

bool input_size(const std::string& path, InputSize& out) {
  std::unique_ptr<FILE, FileCloser> f(std::fopen(path.c_str(), "rb"));
  unsigned char head[2] = {0, 0}, tail[4] = {0, 0, 0, 0};
  if (!f || std::fread(head, 1, 2, f.get()) != 2 || std::fseek(f.get(), 0, SEEK_END) != 0) return false;
  const long size = std::ftell(f.get());
  if (size <= 0) return false;
  out.file = static_cast<uint64_t>(size);
  out.gzip = head[0] == 0x1f && head[1] == 0x8b;
  if (!out.gzip) return true;
  if (size < 18 || std::fseek(f.get(), -4, SEEK_END) != 0 || std::fread(tail, 1, 4, f.get()) != 4) return false;
  out.isize = uint64_t(tail[0]) | uint64_t(tail[1]) << 8 | uint64_t(tail[2]) << 16 | uint64_t(tail[3]) << 24;
  return true;
}

uint64_t InputSize::hint() const { return gzip ? inflate::gzip_size_guess(isize, file) : file; }

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
  std::vector<char> in(kChunk);
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
  inflate::GzipInflater inflater;
  // The damage found, in the page's words; when the importer stopped early, only trailers (zlib's
  // reading, before core/inflate, said no more either).
  auto report = [&](bool stopped) {
    for (const inflate::GzipDamage& d : inflater.damage()) {
      if (d.kind == inflate::GzipDamage::Kind::kTrailer) r.gzip_warnings.push_back(gzip_trailer_warning(d.member));
      else if (stopped) break;
      else
        r.gzip_truncated = true,
        r.gzip_warnings.push_back(d.kind == inflate::GzipDamage::Kind::kTruncated ? kGzipTruncated : kGzipCorrupt);
    }
    return r;
  };
  uint64_t inflated = 0;
  bool refined = !limits.size || !limits.size->gzip || !limits.refine_hint;
  // Hands out what the inflater has; false once the importer has seen enough (limits.stop).
  auto drain = [&]() -> bool {
    for (auto out = inflater.inflate(); !out.empty(); out = inflater.inflate()) {
      inflated += out.size();
      if (!refined && inflated >= inflate::kRefineGzipHintAt) {
        refined = true;
        const InputSize& size = *limits.size;
        if (uint64_t guess = inflate::gzip_size_guess(size.isize, size.file, inflated, inflater.input_used()))
          limits.refine_hint(guess);
      }
      sink(reinterpret_cast<const char*>(out.data()), out.size());
      if (limits.stop && limits.stop()) return false;  // a small stream may inflate to gigabytes
    }
    return true;
  };
  while (n > 0 && !inflater.finished()) {
    for (size_t taken = 0; taken < n && !inflater.finished();) {
      taken += inflater.push(reinterpret_cast<const uint8_t*>(in.data()) + taken, n - taken);
      if (!drain()) return report(true);
    }
    n = read();
  }
  while (n > 0) n = read();  // after corrupt data the rest of the file is still counted
  if (!r.ok || (limits.stop && limits.stop())) return report(true);
  inflater.end_input();
  return report(!drain());
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
