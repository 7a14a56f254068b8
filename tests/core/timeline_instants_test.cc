// Instant events on the timeline (core/timeline/instants.h): thread / process / global scope in the
// window query, one per pixel column with the count kept, details, and Kineto's [memory] instants
// left to the memory lanes. Real traces: the trace viewer's sample (all three scopes), a Chrome
// trace (107 thread instants and 'R' marks) and a Kineto trace (two global instants, 12838 [memory]).
#include <doctest/doctest.h>

#include <numeric>
#include <set>

#include "core/timeline/event_details.h"
#include "core/timeline/lod_query.h"
#include "tests/core/timeline_test_util.h"

using namespace tw;

namespace {

uint32_t lane_named(const TimelineIndex& idx, const std::string& name) {
  for (uint32_t i = 0; i < idx.tracks().size(); ++i)
    if (idx.tracks()[i].name == name) return i;
  return UINT32_MAX;
}

std::vector<uint32_t> all_lanes(const TimelineIndex& idx) {
  std::vector<uint32_t> v(idx.tracks().size());
  std::iota(v.begin(), v.end(), 0);
  return v;
}

WindowResult whole(const TimelineIndex& idx, const std::vector<uint32_t>& lanes, uint32_t px) {
  WindowQuery q;
  q.lanes = lanes;
  q.t0_ns = 0;
  q.t1_ns = static_cast<double>(idx.end_ns() - idx.origin_ns()) + 1;
  q.px = px;
  WindowResult r;
  query_window(idx, q, r);
  return r;
}

std::string name_of(const TraceModel& m, uint32_t string_id) { return std::string(m.strings.get(string_id)); }

}  // namespace

TEST_CASE("timeline instants: thread, process and global scope (trace viewer sample)") {
  auto s = test::import_data_trace("kineto/profiler/plugin/trace_viewer/tf_trace_viewer/data/trace.json");
  REQUIRE(s);
  const TraceModel& m = s->model();
  TimelineIndex idx(m);
  uint32_t a = lane_named(idx, "threadA 22630"), b = lane_named(idx, "threadB 22631");
  REQUIRE(a != UINT32_MAX);
  REQUIRE(b != UINT32_MAX);  // threadB has instants only: it still gets a lane
  CHECK(idx.tracks()[b].kind == LaneKind::kSlices);

  WindowResult r = whole(idx, all_lanes(idx), 100000);  // 1 column per ns or so: nothing merges
  auto names_in_lane = [&](uint32_t lane) {
    std::vector<std::string> v;
    for (uint32_t i = r.instant_offset[lane]; i < r.instant_offset[lane + 1]; ++i) {
      CHECK(r.instant_count[i] == 1);
      v.push_back(name_of(m, r.instant_name[i]));
    }
    return v;
  };
  CHECK(names_in_lane(a) == std::vector<std::string>{"ThreadLevelI1", "ThreadLevelI2"});
  CHECK(names_in_lane(b) == std::vector<std::string>{"ThreadLevelImmediate Three", "ThreadLevelImmediate4"});
  // ts 835 us vs 837 us: 2000 ns apart, relative to the trace origin.
  CHECK(r.instant_ns[r.instant_offset[a] + 1] - r.instant_ns[r.instant_offset[a]] == 2000.0);

  REQUIRE(r.mark_ns.size() == 2);
  std::set<std::string> marks;
  for (size_t i = 0; i < r.mark_ns.size(); ++i) {
    std::string n = name_of(m, r.mark_name[i]);
    marks.insert(n);
    if (n == "ProcessWideEvent1") CHECK(r.mark_group[i] == idx.tracks()[a].group);
    if (n == "GlobalEvent1") CHECK(r.mark_group[i] == UINT32_MAX);
  }
  CHECK(marks == std::set<std::string>{"ProcessWideEvent1", "GlobalEvent1"});

  // A window that holds only ThreadLevelI2 (837 us).
  WindowQuery q;
  q.lanes = {a};
  q.t0_ns = r.instant_ns[r.instant_offset[a] + 1] - 500;
  q.t1_ns = q.t0_ns + 1000;
  q.px = 100;
  WindowResult n;
  query_window(idx, q, n);
  REQUIRE(n.instant_ns.size() == 1);
  CHECK(name_of(m, n.instant_name[0]) == "ThreadLevelI2");
  CHECK(n.mark_ns.empty());

  SUBCASE("details of an instant") {
    nlohmann::json d = instant_details(idx, r.instant_id[r.instant_offset[b]]);
    CHECK(d["instant"] == true);
    CHECK(d["name"] == "ThreadLevelImmediate Three");
    CHECK(d["cat"] == "PERF");
    CHECK(d["scope"] == "thread");
    CHECK(d["lane"] == b);
    CHECK(d["laneName"] == "threadB 22631");
    CHECK(d["srcLength"].get<uint32_t>() > 20);
    CHECK(instant_details(idx, 1u << 30).contains("error"));
  }
}

TEST_CASE("timeline instants: at most one per pixel column, the count is kept (Chrome trace)") {
  auto s = test::import_data_trace("speedscope/sample/profiles/Chrome/116/Trace-20230603T221323.json");
  REQUIRE(s);
  const TraceModel& m = s->model();
  TimelineIndex idx(m);
  std::vector<uint32_t> lanes = all_lanes(idx);
  WindowResult fine = whole(idx, lanes, 65535);
  uint64_t total_fine = 0;
  for (uint32_t c : fine.instant_count) total_fine += c;
  // 96 thread-scope I + 13 R marks (process-wide) + 1 process-scope I: 96 on lanes.
  CHECK(total_fine == 96);
  uint64_t marks = 0;
  for (uint32_t c : fine.mark_count) marks += c;
  CHECK(marks == 14);

  for (uint32_t px : {1u, 7u, 50u}) {
    CAPTURE(px);
    WindowResult coarse = whole(idx, lanes, px);
    uint64_t total = 0;
    for (uint32_t c : coarse.instant_count) total += c;
    CHECK(total == total_fine);  // merged, never lost
    for (size_t lane = 0; lane + 1 < coarse.instant_offset.size(); ++lane) {
      uint32_t lo = coarse.instant_offset[lane], hi = coarse.instant_offset[lane + 1];
      CHECK(hi - lo <= px + 1);
      for (uint32_t i = lo + 1; i < hi; ++i) CHECK(coarse.instant_ns[i - 1] < coarse.instant_ns[i]);
    }
  }
}

TEST_CASE("timeline instants: Kineto global instants are marks, [memory] instants are not drawn") {
  auto s =
      test::import_data_trace("kineto/tb_plugin/samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz");
  REQUIRE(s);
  const TraceModel& m = s->model();
  CHECK(m.instants.size() >= 12838);
  TimelineIndex idx(m);
  WindowResult r = whole(idx, all_lanes(idx), 2000);
  CHECK(r.instant_ns.empty());
  std::set<std::string> marks;
  for (size_t i = 0; i < r.mark_ns.size(); ++i) {
    CHECK(r.mark_group[i] == UINT32_MAX);
    marks.insert(name_of(m, r.mark_name[i]));
  }
  CHECK(marks == std::set<std::string>{"Iteration Start: PyTorch Profiler", "Record Window End"});
  // A window before the trace holds none.
  WindowQuery q;
  q.lanes = all_lanes(idx);
  q.t0_ns = -1e9;
  q.t1_ns = -1e6;
  WindowResult none;
  query_window(idx, q, none);
  CHECK(none.mark_ns.empty());
  CHECK(none.instant_ns.empty());
}
