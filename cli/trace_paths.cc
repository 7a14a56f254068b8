#include "cli/trace_paths.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace tw {

namespace {
bool ends_with(const std::string& s, const char* suffix) {
  const std::string t(suffix);
  return s.size() >= t.size() && s.compare(s.size() - t.size(), t.size(), t) == 0;
}
}  // namespace

bool expand_trace_paths(const std::vector<std::string>& args, std::vector<std::string>* files, std::string* error) {
  namespace fs = std::filesystem;
  for (const std::string& a : args) {
    std::error_code ec;
    if (!fs::is_directory(a, ec)) {
      files->push_back(a);
      continue;
    }
    std::vector<std::string> found;
    for (fs::directory_iterator it(a, ec), end; !ec && it != end; it.increment(ec)) {
      const std::string name = it->path().filename().string();
      if (it->is_regular_file(ec) && (ends_with(name, ".json") || ends_with(name, ".json.gz")))
        found.push_back(it->path().string());
    }
    if (ec) {
      *error = "cannot read the folder " + a + ": " + ec.message();
      return false;
    }
    if (found.empty()) {
      *error = "the folder " + a + " holds no .json or .json.gz file";
      return false;
    }
    std::sort(found.begin(), found.end());
    files->insert(files->end(), found.begin(), found.end());
  }
  return true;
}

}  // namespace tw
