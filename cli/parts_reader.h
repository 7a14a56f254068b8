// Imports a plain (uncompressed) trace file in parts on several threads (core/import/import_parts.h):
// each thread reads and imports its share of the file, then the first importer absorbs the others.
#pragma once
#include <cstdint>
#include <string>

#include "core/import/trace_importer.h"

namespace tw {

// How many parts a plain file of `size` bytes is worth cutting into with `threads` threads: one
// per 32 MiB, at most `threads` (a part's fixed cost is small, but a thread per few MB is not
// worth starting).
int parts_for(uint64_t size, unsigned threads);

// Imports the plain file `path` (of `size` bytes) into `first` in `parts` parts; finish() (which
// ends the input) is left to the caller. False with `error` set when the file cannot be read.
bool import_in_parts(const std::string& path, uint64_t size, int parts, TraceImporter& first, std::string& error);

}  // namespace tw
