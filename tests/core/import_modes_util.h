// Test helpers shared by the decoder-path tests: every JSON trace under tests/data, and an
// import in random chunkings with the decode path (fast one-pass or simdjson per event) chosen.
#pragma once
#include <dirent.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "cli/file_reader.h"
#include "core/import/raw_event.h"
#include "tests/core/import_test_util.h"
#include "tests/core/test_data.h"

namespace tw::test {

// Paths of every .json / .json.gz file under the test traces, sorted.
inline std::vector<std::string> data_json_traces() {
  std::vector<std::string> files;
  std::vector<std::string> dirs = {data_dir()};
  while (!dirs.empty()) {
    std::string d = dirs.back();
    dirs.pop_back();
    DIR* dir = opendir(d.c_str());
    if (!dir) continue;
    while (dirent* e = readdir(dir)) {
      std::string name = e->d_name, path = d + "/" + name;
      if (name == "." || name == "..") continue;
      if (e->d_type == DT_DIR) dirs.push_back(path);
      else if (name.size() > 5 && (name.ends_with(".json") || name.ends_with(".json.gz"))) files.push_back(path);
    }
    closedir(dir);
  }
  std::sort(files.begin(), files.end());
  return files;
}

inline const std::string kNccl = data_path("hta/tests/data/nccl_parser_config/nccl_data.json.gz");

// A test trace's text (gzip inflated).
inline std::string read_trace(const std::string& path) {
  std::string text;
  stream_file(path, [&text](const char* p, size_t n) { text.append(p, n); });
  return text;
}

// Imports `text` in chunks of 1..max_chunk bytes (seeded), each an exactly-sized copy for ASan.
inline ImporterPtr import_mode(std::string_view text, bool fast, uint32_t seed, size_t max_chunk) {
  auto imp = std::make_unique<TraceImporter>();
  imp->set_fast_decode(fast);
  std::mt19937 rng(seed);
  std::uniform_int_distribution<size_t> dist(1, max_chunk);
  for (size_t pos = 0; pos < text.size();) {
    size_t n = std::min(dist(rng), text.size() - pos);
    std::vector<char> chunk(text.begin() + pos, text.begin() + pos + n);
    imp->push(chunk.data(), n);
    pos += n;
  }
  imp->finish();
  return imp;
}

// Whether RawEvent::arg(KnownArg) finds, for every KnownArg, what arg(key) finds by scanning (the
// first arg with the key, or none): the index each decoder keeps as it adds args.
inline bool known_args_agree(const RawEvent& e) {
  for (uint8_t k = 0; k < kKnownArgs; ++k)
    if (e.arg(KnownArg(k)) != e.arg(known_arg_key(KnownArg(k)))) return false;
  return true;
}

}  // namespace tw::test
