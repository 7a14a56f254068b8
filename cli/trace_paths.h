// The trace files named on the command line: a folder stands for every trace in it (`tracewise
// summarize DIR`, one file per rank), in name order.
#pragma once
#include <string>
#include <vector>

namespace tw {

// Files as given; each folder replaced by its regular files ending in .json or .json.gz (not
// recursive). False with a message when a folder cannot be read or holds no trace.
bool expand_trace_paths(const std::vector<std::string>& args, std::vector<std::string>* files, std::string* error);

}  // namespace tw
