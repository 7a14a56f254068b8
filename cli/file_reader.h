// Streams a file in chunks to a callback, decompressing gzip (detected by magic bytes, not by name).
// "-" is standard input. A pipe, FIFO or stdin has no size to look at first, so the CLI reads it up
// to a cap (ReadLimits) and never opens it twice (cli/input_check.h says which input is which).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tw {

struct ReadResult {
  bool ok = true;
  std::string error;
  uint64_t file_bytes = 0;  // bytes on disk
  bool gzip = false;
  bool gzip_truncated = false;  // the gzip data ends early or is corrupt: what inflated before it is loaded
  // Each damage of gzip data that still inflated, in the page's words (web/load/input/gzip_damage.ts).
  std::vector<std::string> gzip_warnings;
};

// What a file says of its uncompressed size before it is read: its size, and for gzip the size
// field of its trailer (modulo 4 GiB).
struct InputSize {
  uint64_t file = 0;
  bool gzip = false;
  uint64_t isize = 0;  // gzip only
  // The importer's size hint: the file's size, or the smallest a gzip's trailer allows at or above
  // it (core/inflate/gzip_size.h). 0 when unknown.
  uint64_t hint() const;
};
bool input_size(const std::string& path, InputSize& out);

// Whether the file exists and is not gzip-compressed; its size in `size`.
bool plain_file_size(const std::string& path, uint64_t& size);

struct ReadLimits {
  // 0: none. Otherwise more than this many bytes read from the input (before gunzip) stop the read
  // with an error: an endless stream must not run forever.
  uint64_t max_bytes = 0;
  // Asked after each chunk given to the sink; true ends the read early with ok (the importer has
  // given up on the input: reading the rest of an endless stream would change nothing).
  std::function<bool()> stop;
  // For gzip: once kRefineGzipHintAt bytes have inflated, called (on the reading thread) with the
  // size `size` and the ratio so far say the whole will have (core/inflate/gzip_size.h), when known.
  const InputSize* size = nullptr;
  std::function<void(uint64_t)> refine_hint;
};

ReadResult stream_file(const std::string& path, const std::function<void(const char*, size_t)>& sink,
                       const ReadLimits& limits = {});

// The whole (inflated) text of a small document (a summary, a digest), up to `cap` bytes; false with
// a message when it cannot be read or is larger.
bool read_capped_text(const std::string& path, uint64_t cap, std::string& out, std::string& error);

}  // namespace tw
