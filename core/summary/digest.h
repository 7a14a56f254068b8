// Per-rank digests ("tracewise.digest/1"): what the job summary needs from each trace — its file
// summary and its rank record (core/job/rank_record_json.h) — so that ranks summarized on many
// machines can be merged into the document `tracewise summarize` writes over all of them, byte for
// byte. Merging is concatenation in order, hence associative: digests reduce in a tree.
//   {"schema": "tracewise.digest/1", "tracewise": VERSION, "options": {"hta_compat", "kernel_rules"},
//    "files": [file summary...], "records": [rank record...]}
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/job/rank_record.h"
#include "core/summary/summary.h"

namespace tw {

struct Digest {
  bool hta_compat = false;
  std::string kernel_rules;  // the user rules' JSON text, "" for the built-in ones
  std::vector<nlohmann::json> files;
  std::vector<RankRecord> records;  // one per file
};

std::string digest_json(const Digest& d);
// False with a sentence when `text` is not a digest of this tracewise version; never throws.
bool read_digest(std::string_view text, Digest* out, std::string* error);
// `part` after what `into` holds (the first part sets the options); false when the options differ.
// `first`: `into` is still empty.
bool append_digest(Digest* into, Digest&& part, bool first, std::string* error);
// The summary document of the merged files: `tracewise summarize` over the same traces.
std::string digest_summary_json(const Digest& d);

}  // namespace tw
