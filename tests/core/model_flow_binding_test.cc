// Binding a flow endpoint to a slice (bind_flow_point, with a cursor per track that searches
// outward from the previous answer and stops at the first enclosing slice) must give exactly what the plain definition gives: a binary search over the
// whole track, then the deepest enclosing slice among the 256 starting last at or before the time
// (or the first slice starting at or after it). Checked on real traces, on a synthetic track with
// overlapping and zero-length slices, for times at and around every slice edge, in time order, in
// random order and backwards (the cursor must not depend on the query order).
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "core/model/flows.h"
#include "tests/core/detail_test_util.h"

using namespace tw;

namespace {

// The definition, written the plain way.
uint32_t reference_bind(const TraceModel& m, uint32_t track, int64_t ts, bool enclosing) {
  if (track >= m.tracks.size()) return UINT32_MAX;
  const SliceTable& s = m.slices;
  auto begin = s.ts_ns.begin() + s.rows_of(track).begin, end = s.ts_ns.begin() + s.rows_of(track).end;
  if (!enclosing) {
    auto it = std::lower_bound(begin, end, ts);
    return it == end ? UINT32_MAX : static_cast<uint32_t>(it - s.ts_ns.begin());
  }
  auto it = std::upper_bound(begin, end, ts);
  uint32_t best = UINT32_MAX;
  int steps = 0;
  for (auto k = it; k != begin && steps < 256; ++steps) {
    --k;
    uint32_t idx = static_cast<uint32_t>(k - s.ts_ns.begin());
    if (s.ts_ns[idx] <= ts && (ts < s.end_ns(idx) || s.ts_ns[idx] == ts))
      if (best == UINT32_MAX || s.depth[idx] > s.depth[best]) best = idx;
  }
  return best;
}

struct Query {
  uint32_t track;
  int64_t ts;
};

// Returns the number of queries checked.
size_t check_all_orders(const TraceModel& m) {
  std::vector<Query> qs;
  const SliceTable& s = m.slices;
  for (uint32_t i = 0; i < s.size(); ++i)
    for (int64_t ts : {s.ts_ns[i] - 1, s.ts_ns[i], s.ts_ns[i] + 1, s.end_ns(i) - 1, s.end_ns(i), s.end_ns(i) + 1})
      qs.push_back({s.track_at(i), ts});
  for (uint32_t t = 0; t <= m.tracks.size(); ++t) qs.push_back({t, INT64_MIN / 4});  // incl. a missing track
  std::mt19937 rng(7);
  for (int pass = 0; pass < 3; ++pass) {
    if (pass == 1) std::shuffle(qs.begin(), qs.end(), rng);
    if (pass == 2) std::reverse(qs.begin(), qs.end());
    std::vector<FlowCursor> cursors = flow_cursors(m);
    size_t wrong = 0;
    for (const Query& q : qs)
      for (bool enclosing : {true, false})
        if (bind_flow_point(m, cursors, q.track, q.ts, enclosing) != reference_bind(m, q.track, q.ts, enclosing)) {
          if (wrong++ == 0) FAIL_CHECK("track " << q.track << " ts " << q.ts << " enclosing " << enclosing);
        }
    CHECK(wrong == 0);
  }
  return qs.size();
}

}  // namespace

TEST_CASE("flow binding with cursors equals the definition on real traces") {
  for (const char* rel : {"hta/tests/data/nccl_parser_config/nccl_data.json.gz",
                          "kineto/tb_plugin/samples/resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz",
                          "hta/tests/data/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz",
                          "speedscope/sample/profiles/trace-event/zero-duration-events.json",
                          "perfetto/test/trace_processor/diff_tests/parser/parsing/flow_events_json_v1.json"}) {
    CAPTURE(rel);
    const TraceModel& m = detail_test::data_trace(rel);
    CHECK(check_all_orders(m) > 0);
  }
}

TEST_CASE("flow binding with cursors equals the definition with overlapping, equal and zero-length slices") {
  // Track 1/1 has slices that overlap without nesting (flagged), equal twins and zero-length ones;
  // track 1/2 is properly nested with zero-length slices at edges; 1/3 is a run longer than 256.
  std::string text = R"({"traceEvents":[
    {"ph":"X","name":"a","pid":1,"tid":1,"ts":0,"dur":10},
    {"ph":"X","name":"b","pid":1,"tid":1,"ts":5,"dur":10},
    {"ph":"X","name":"c","pid":1,"tid":1,"ts":11,"dur":1},
    {"ph":"X","name":"d","pid":1,"tid":1,"ts":11,"dur":1},
    {"ph":"X","name":"z","pid":1,"tid":1,"ts":12,"dur":0},
    {"ph":"X","name":"e","pid":1,"tid":1,"ts":13,"dur":20},
    {"ph":"X","name":"f","pid":1,"tid":1,"ts":14,"dur":2},
    {"ph":"X","name":"p","pid":1,"tid":2,"ts":0,"dur":100},
    {"ph":"X","name":"q","pid":1,"tid":2,"ts":0,"dur":50},
    {"ph":"X","name":"z0","pid":1,"tid":2,"ts":50,"dur":0},
    {"ph":"X","name":"z1","pid":1,"tid":2,"ts":50,"dur":0},
    {"ph":"X","name":"r","pid":1,"tid":2,"ts":50,"dur":25},
    {"ph":"X","name":"s","pid":1,"tid":2,"ts":60,"dur":5},
    {"ph":"X","name":"top","pid":1,"tid":3,"ts":0,"dur":100000})";
  for (int i = 0; i < 600; ++i)
    text += R"(,{"ph":"X","name":"k","pid":1,"tid":3,"ts":)" + std::to_string(10 + i * 100) + R"(,"dur":50})";
  text += "]}";
  auto imp = detail_test::import_text(text);
  const TraceModel& m = imp->model();
  REQUIRE(m.slices.size() == 614);
  size_t overlapping = 0;
  for (uint8_t f : m.slices.flags) overlapping += (f & kSliceOverlapping) != 0;
  CHECK(overlapping == 2);  // b over a, e over b
  CHECK(check_all_orders(m) > 0);
}
