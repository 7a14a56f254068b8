// stream_file on a reader thread: a gzip file's inflating (the slower half of its load) runs
// beside the caller's parse instead of taking turns with it on one core.
#pragma once
#include <functional>
#include <string>

#include "cli/file_reader.h"

namespace tw {

// As stream_file, but the file is read (and inflated) on a thread of its own while `sink` runs on
// the calling thread; `limits.stop` is asked on the calling thread too, after each chunk. At most
// a few chunks are in flight, so memory stays bounded whatever the file.
ReadResult stream_file_pipelined(const std::string& path, const std::function<void(const char*, size_t)>& sink,
                                 const ReadLimits& limits = {});

}  // namespace tw
