// The summary's sections sent ahead (SummaryOptions::on_part), on real traces: each part holds keys
// no earlier part had, with exactly the values the finished summary has, in the order the web app
// relies on (the context-free tables first, then kernels and collectives), and asking for parts
// changes nothing in the summary itself.
#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

#include "core/summary/summary.h"
#include "tests/core/detail_test_util.h"

namespace tw {
namespace {

using nlohmann::json;

std::set<std::string> keys_of(const json& j) {
  std::set<std::string> out;
  for (const auto& [k, v] : j.items()) out.insert(k);
  return out;
}

void check_parts(const std::string& rel, bool hta) {
  CAPTURE(rel);
  CAPTURE(hta);
  const TraceModel& m = detail_test::data_trace(rel);
  static const ImportStats stats;
  const FileInput in{"t", 123, &m, &stats};
  SummaryOptions plain;
  plain.hta_compat = hta;
  const json whole = file_summary(in, plain);

  SummaryOptions with_parts = plain;
  std::vector<json> parts;
  with_parts.on_part = [&](const json& part) { parts.push_back(part); };
  const json again = file_summary(in, with_parts);
  CHECK(dump_json(again) == dump_json(whole));

  REQUIRE(parts.size() == 2);
  CHECK(keys_of(parts[0]) == std::set<std::string>{"bytes", "devices", "display_time_unit", "import", "launches",
                                                   "memory", "model", "name", "operators", "rank", "world_size"});
  CHECK(keys_of(parts[1]) == std::set<std::string>{"collectives", "kernels"});
  std::set<std::string> seen;
  for (const json& part : parts) {
    for (const auto& [k, v] : part.items()) {
      CAPTURE(k);
      CHECK(seen.insert(k).second);  // no key sent twice
      REQUIRE(whole.contains(k));
      CHECK(dump_json(v) == dump_json(whole[k]));
    }
  }
  // The sent tables are the real ones, not empty placeholders.
  CHECK(parts[0]["operators"]["top"].size() > 0);
}

TEST_CASE("summary parts: sent ahead with their final values (Kineto training, DeepSeek)") {
  check_parts("hta/tests/data/df_index_resolver/df_index_resolver.json.gz", false);
  check_parts("hta/tests/data/df_index_resolver/df_index_resolver.json.gz", true);
  check_parts("deepseek_profile_data/train.json", false);
}

}  // namespace
}  // namespace tw
