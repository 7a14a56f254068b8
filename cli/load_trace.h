// One trace file into a loaded Session, as every CLI command reads it: a regular large plain file in
// parts on threads, anything else streamed (gzip inflated), with the importer's warnings on stderr.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "core/session.h"

namespace tw {

// Null (with a message on stderr) when the file is unreadable or not a trace.
std::unique_ptr<Session> load_trace(const std::string& path, unsigned jobs, uint64_t max_stream_bytes);

}  // namespace tw
