// `tracewise merge [--digest] DIGEST...`: per-rank digests (`tracewise summarize --digest`, made on
// any machine) into the job summary `tracewise summarize` writes over the same traces in the same
// order, byte for byte; with --digest, into one digest (merging is associative: reduce in a tree).
// Exit codes: 0 ok, 1 an unreadable, malformed or other-version digest, 2 usage.
#pragma once
#include <string>
#include <vector>

namespace tw {

int merge_command(const std::vector<std::string>& digest_paths, bool as_digest);

}  // namespace tw
