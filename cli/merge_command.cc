#include "cli/merge_command.h"

#include <cstdio>

#include "cli/file_reader.h"
#include "core/summary/digest.h"

namespace tw {
namespace {

// A digest is a few MB at most (a file summary and a rank record); anything far larger is not one.
constexpr uint64_t kMaxDigestBytes = uint64_t(1) << 30;

bool read_one(const std::string& path, Digest* out) {
  std::string text, error;
  if (read_capped_text(path, kMaxDigestBytes, text, error) && read_digest(text, out, &error)) return true;
  std::fprintf(stderr, "tracewise: %s: %s\n", path.c_str(), error.c_str());
  return false;
}

}  // namespace

int merge_command(const std::vector<std::string>& digest_paths, bool as_digest) {
  // Read one at a time into the merged digest: the peak is the result plus one input.
  Digest merged;
  for (size_t i = 0; i < digest_paths.size(); ++i) {
    Digest d;
    if (!read_one(digest_paths[i], &d)) return 1;
    std::string error;
    if (!append_digest(&merged, std::move(d), i == 0, &error)) {
      std::fprintf(stderr, "tracewise: %s: %s\n", digest_paths[i].c_str(), error.c_str());
      return 1;
    }
  }
  const std::string out = as_digest ? digest_json(merged) : digest_summary_json(merged);
  std::fwrite(out.data(), 1, out.size(), stdout);
  std::fputc('\n', stdout);
  return 0;
}

}  // namespace tw
