// Hostile input past the importer: whatever model a mutated real trace leaves (slices with odd
// times and depths, broken flows, stray counters), the timeline index, its queries and the summary
// run without a crash or a hang (the ASan build checks memory) and keep their own invariants.
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <random>
#include <string>
#include <vector>

#include "cli/file_reader.h"
#include "core/session.h"
#include "core/timeline/area_aggregate.h"
#include "core/timeline/event_details.h"
#include "core/timeline/lod_query.h"
#include "core/timeline/name_match.h"
#include "core/timeline/search.h"
#include "core/timeline/timeline_index.h"
#include "core/timeline/track_list.h"
#include "tests/core/fuzz_util.h"
#include "tests/core/test_data.h"

using namespace tw;
using namespace tw::test;

namespace {

std::string read_trace(const std::string& rel) {
  std::string text = read_data(rel);
  REQUIRE_MESSAGE(!text.empty(), rel << ": not readable");
  return text;
}

bool contains_folded(std::string_view name, char c) {
  return std::any_of(name.begin(), name.end(),
                     [c](char x) { return std::tolower(static_cast<unsigned char>(x)) == c; });
}

// Every query the page makes, over the whole trace and a narrow window in its middle.
void query_everything(Session& s) {
  const TraceModel& m = s.model();
  TimelineIndex index(m);
  nlohmann::json tracks = tracks_json(index);
  CHECK(tracks.is_object());

  std::vector<uint32_t> lanes(index.tracks().size());
  for (uint32_t k = 0; k < lanes.size(); ++k) lanes[k] = k;
  const double span = static_cast<double>(index.end_ns() - index.origin_ns());
  SearchState search;
  std::vector<uint32_t> ids;
  std::string error;
  REQUIRE(match_names(m.strings, NameQuery{"a"}, &ids, &error));
  search.run(index, ids);
  size_t expected = 0;
  for (size_t i = 0; i < m.slices.size(); ++i) expected += contains_folded(m.strings.get(m.slices.name.at(i)), 'a');
  CHECK(search.count() == expected);

  for (auto [t0, t1] :
       {std::pair{0.0, span}, std::pair{span / 2, span / 2 + std::max(1.0, span / 1e6)}, std::pair{-span, 2 * span}}) {
    WindowQuery q;
    q.lanes = lanes;
    q.t0_ns = t0;
    q.t1_ns = t1;
    q.px = 800;
    q.search = &search;
    WindowResult w;
    query_window(index, q, w);
    REQUIRE(w.item_offset.size() == lanes.size() + 1);
    CHECK(std::is_sorted(w.item_offset.begin(), w.item_offset.end()));
    CHECK(w.item_offset.back() == w.items());
    for (uint32_t id : w.id) CHECK((id == UINT32_MAX || id < m.slices.size()));
  }
  const size_t slices = m.slices.size();
  for (uint32_t k = 0; k < std::min<size_t>(slices, 16); ++k) {
    uint32_t id = static_cast<uint32_t>((k * 7919u) % slices);
    nlohmann::json d = event_details(index, id);
    CHECK(d.is_object());
  }
  for (uint32_t k = 0; k < std::min<size_t>(m.instants.size(), 4); ++k) CHECK(instant_details(index, k).is_object());
  if (search.count() > 0) {
    size_t at = search.step(index, index.origin_ns() + static_cast<int64_t>(span / 2), UINT32_MAX, 1);
    CHECK(at < search.count());
    CHECK(search_page(index, search, 0, 50)["count"] == search.count());
  }
  nlohmann::json agg = area_aggregate(index, lanes, index.origin_ns(), index.end_ns());
  if (!agg["truncated"].get<bool>()) {
    uint64_t counted = 0;
    for (const auto& row : agg["rows"]) counted += row["count"].get<uint64_t>();
    CHECK(counted == agg["slices"].get<uint64_t>());
  }
  std::string summary = s.summary_json();
  CHECK(nlohmann::json::parse(summary, nullptr, false).is_object());
}

}  // namespace

TEST_CASE("bad input: fuzzed traces through the timeline queries and the summary" * doctest::timeout(300)) {
  const std::vector<std::string> seeds = {
      read_trace("kineto/tb_plugin/test/gpu_metrics_input.json"),    // kernels, GPU counters
      read_trace("hta/tests/data/trace_compare/base/base.json.gz"),  // Kineto CPU + GPU, flows
      read_trace("hta/tests/data/large_integer_trace/rank-70.Mar_25_20_48_12.2861.pt.trace.json.gz"),  // NCCL kernel
      read_trace("perfetto/test/trace_processor/diff_tests/parser/parsing/flow_events_json_v2.json"),
      read_trace("speedscope/sample/profiles/trace-event/multiprocess.json"),
  };
  for (const std::string& s : seeds) REQUIRE(s.size() > 200);
  std::mt19937 rng(fuzz_seed(7654321u));
  const int kRounds = fuzz_rounds(500);
  int queried = 0;
  for (int round = 0; round < kRounds; ++round) {
    // Every fifth round the trace itself, so the invariants are also checked on a clean model.
    std::string text =
        round % 5 == 0 ? seeds[round / 5 % seeds.size()] : mutate_trace(seeds[round % seeds.size()], rng);
    CAPTURE(round);
    Session s("fuzz");
    s.push(text.data(), text.size());
    s.finish();
    if (s.failed()) continue;
    query_everything(s);
    queried += s.model().slices.size() > 0;
  }
  CHECK(queried > kRounds / 2);  // most mutations leave a model with slices to query
  MESSAGE(queried << " of " << kRounds << " rounds queried a model with slices");
}
