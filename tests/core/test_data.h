// Where the tests' real traces come from: tests/data of this checkout (its README lists every file
// and its source), or the folder the TW_TEST_DATA environment variable names (`make test-corpus`
// runs the corpus-wide cases over another corpus laid out the same way, MANIFEST.tsv included).
//
// tests/data stores the large traces that are plain JSON upstream gzipped. A test asks for a trace
// by its upstream name ("deepseek_profile_data/train.json") whichever form is stored: data_path()
// inflates such a file once into the build folder (TW_TEST_SCRATCH) and returns the plain copy, so
// a test that needs a plain file on disk gets one.
#pragma once
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include <unistd.h>

#include "cli/file_reader.h"

namespace tw::test {

inline const std::string& data_dir() {
  static const std::string dir = [] {
    const char* env = std::getenv("TW_TEST_DATA");
    return std::string(env && *env ? env : TW_TEST_DATA);
  }();
  return dir;
}

// The file that holds `rel`: itself, or `rel`.gz when only that is stored.
inline std::string stored_path(const std::string& rel) {
  const std::string path = data_dir() + "/" + rel;
  return std::filesystem::exists(path) || !std::filesystem::exists(path + ".gz") ? path : path + ".gz";
}

// The path of a trace as a file of that name: stored_path(rel), or a plain copy when only `rel`.gz
// is stored. An empty string when the copy cannot be written (the caller's read then fails).
inline std::string data_path(const std::string& rel) {
  namespace fs = std::filesystem;
  const std::string stored = stored_path(rel);
  if (!stored.ends_with(".gz") || rel.ends_with(".gz")) return stored;
  // One folder of copies per corpus, so that a copy never stands in for another corpus's file.
  std::error_code ec;
  const std::string corpus = fs::weakly_canonical(data_dir(), ec).string();
  const fs::path copy = fs::path(TW_TEST_SCRATCH) / std::to_string(std::hash<std::string>()(corpus)) / rel;
  if (fs::exists(copy, ec) && fs::last_write_time(copy, ec) >= fs::last_write_time(stored, ec)) {
    return copy.string();
  }
  fs::create_directories(copy.parent_path(), ec);
  // Written beside and renamed, so that a reader never sees half a file.
  const fs::path tmp = copy.string() + ".tmp" + std::to_string(::getpid());
  std::ofstream out(tmp, std::ios::binary);
  ReadResult r = stream_file(stored, [&out](const char* p, size_t n) { out.write(p, n); });
  out.close();  // a write that fails at the last flush shows only here
  if (!r.ok || r.gzip_truncated || !out) {
    fs::remove(tmp, ec);
    return "";
  }
  fs::rename(tmp, copy, ec);
  if (ec) fs::remove(tmp, ec);
  return fs::exists(copy, ec) ? copy.string() : "";
}

// The whole text of a trace (gzip inflated); empty when it cannot be read.
inline std::string read_data(const std::string& rel) {
  std::string text;
  ReadResult r = stream_file(stored_path(rel), [&text](const char* p, size_t n) { text.append(p, n); });
  return r.ok ? text : std::string();
}

}  // namespace tw::test
