// Track list, event details, args re-read from bytes, search and area aggregate, on tiny models and
// on a real trace (DeepSeek train.json: 2 GPU streams of overlapped micro-batches).
#include <doctest/doctest.h>

#include <fstream>
#include <iterator>

#include "core/timeline/area_aggregate.h"
#include "core/timeline/event_details.h"
#include "core/timeline/lod_query.h"
#include "core/timeline/search.h"
#include "core/timeline/track_list.h"
#include "tests/core/test_data.h"
#include "tests/core/timeline_test_util.h"

using namespace tw;

namespace {

const char* kTrain = "deepseek_profile_data/train.json";

std::vector<uint32_t> names_containing(const TraceModel& m, const std::string& needle) {
  std::vector<uint32_t> ids;
  for (uint32_t i = 1; i < m.strings.size(); ++i)
    if (m.strings.get(i).find(needle) != std::string_view::npos) ids.push_back(i);
  return ids;
}

uint32_t lane_named(const TimelineIndex& idx, const std::string& name) {
  for (uint32_t i = 0; i < idx.tracks().size(); ++i)
    if (idx.tracks()[i].name == name) return i;
  return UINT32_MAX;
}

std::string arg(const nlohmann::json& args, const std::string& key) {
  for (const auto& kv : args)
    if (kv[0] == key) return kv[1].get<std::string>();
  return "<missing>";
}

}  // namespace

TEST_CASE("timeline real trace: tracks, overlap lane, details, args, search, aggregate") {
  auto session = test::import_data_trace(kTrain);
  REQUIRE(session);
  const TraceModel& m = session->model();
  TimelineIndex idx(m);
  nlohmann::json tj = tracks_json(idx);
  CHECK(tj["originNs"] == std::to_string(m.min_ts_ns));

  SUBCASE("tracks grouped by process, GPU group leads with the overlap lane") {
    REQUIRE(idx.groups().size() == 3);
    CHECK(idx.groups()[0].name == "CPU (python3, pid 1166)");
    CHECK(idx.groups()[1].gpu);
    CHECK(lane_named(idx, "thread 1166 (python3)") == 0);
    uint32_t ov = lane_named(idx, "comm overlap (GPU 0)");
    REQUIRE(ov != UINT32_MAX);
    CHECK(idx.tracks()[ov].group == 1);
    CHECK(idx.tracks()[ov + 1].name == "stream 7");
    CHECK(lane_named(idx, "stream 23") != UINT32_MAX);
    CHECK(lane_named(idx, "stream 27") != UINT32_MAX);
    // hidden + exposed = all communication time; DeepEP kernels on stream 27 overlap compute on 7.
    const OverlapLane& lane = idx.overlap_lanes()[idx.tracks()[ov].source];
    CHECK(lane.rows[1].total() > 0);
    CHECK(lane.rows[2].total() > 0);
    CHECK(lane.rows[1].intersect(lane.rows[2]).empty());
  }

  uint32_t kernel = UINT32_MAX;
  for (uint32_t i = 0; i < m.slices.size(); ++i)
    if (m.slices.ts_ns[i] == 1740461679471346000 && m.slices.kind_at(i) == EventKind::kKernel) kernel = i;
  REQUIRE(kernel != UINT32_MAX);

  SUBCASE("details: the kernel, its launch, and every arg re-read from the file's bytes") {
    nlohmann::json d = event_details(idx, kernel);
    CHECK(d["durNs"] == 52000.0);
    CHECK(d["selfNs"] == 52000.0);
    CHECK(d["class"] == "compute");
    CHECK(d["laneName"] == "stream 27");
    CHECK(d["correlation"] == "44479");
    CHECK(d["gpu"]["stream"] == 27);
    REQUIRE(d["links"].size() >= 1);
    CHECK(d["links"][0]["dir"] == "launch");
    CHECK(d["links"][0]["to"]["name"] == "cudaLaunchKernel");
    CHECK(d["links"][0]["to"]["lane"] == 0);
    // The launch's own details point back at the kernel.
    uint32_t launch = d["links"][0]["to"]["id"];
    nlohmann::json l = event_details(idx, launch);
    CHECK(l["links"][0]["dir"] == "kernel");
    CHECK(l["links"][0]["to"]["id"] == kernel);

    const std::string text = test::read_data(kTrain);
    std::string ev = text.substr(m.slices.src_offset_at(kernel), m.slices.src_length_at(kernel));
    nlohmann::json a = event_args(ev.data(), ev.size());
    REQUIRE(a.contains("args"));
    CHECK(a["args"].size() == 13);
    CHECK(arg(a["args"], "correlation") == "44479");
    CHECK(arg(a["args"], "grid") == "[4096,1,1]");
    CHECK(arg(a["args"], "blocks per SM") == "31.030304");
    CHECK(arg(a["fields"], "cat") == "kernel");
    CHECK(a["args"][0][0] == "External id");              // file order is kept
    for (const auto& x : a["args"]) CHECK(x[2] == true);  // every arg of a kernel is a number or an array
  }

  SUBCASE("search: substring ids -> matches, next / previous wrap, window highlights") {
    SearchState search;
    search.run(idx, names_containing(m, "internode::combine<"));
    REQUIRE(search.count() == 8);
    size_t first = search.step(idx, m.min_ts_ns, UINT32_MAX, +1);
    CHECK(first == 0);
    CHECK(search.step(idx, m.slices.ts_ns[search.match(0)], search.match(0), +1) == 1);
    CHECK(search.step(idx, m.slices.ts_ns[search.match(7)], search.match(7), +1) == 0);  // wraps
    CHECK(search.step(idx, m.slices.ts_ns[search.match(0)], search.match(0), -1) == 7);
    CHECK(search.step(idx, INT64_MAX, UINT32_MAX, +1) == 0);
    for (size_t k = 1; k < search.count(); ++k)
      CHECK(m.slices.ts_ns[search.match(k - 1)] <= m.slices.ts_ns[search.match(k)]);

    uint32_t lane27 = lane_named(idx, "stream 27");
    WindowQuery q;
    q.lanes = {lane27, 0};
    q.t0_ns = 0;
    q.t1_ns = tj["endNs"].get<double>();
    q.px = 100000;  // fine enough that every match gets its own column
    q.search = &search;
    WindowResult r;
    query_window(idx, q, r);
    CHECK(r.match_offset == std::vector<uint32_t>{0, 8, 8});
    size_t flagged = 0;
    for (uint32_t i = r.item_offset[0]; i < r.item_offset[1]; ++i) flagged += (r.flags[i] & kItemMatch) != 0;
    CHECK(flagged == 8);
  }

  SUBCASE("area aggregate over a lane and the whole time range") {
    uint32_t lane27 = lane_named(idx, "stream 27");
    nlohmann::json agg = area_aggregate(idx, {lane27, lane27}, m.min_ts_ns, idx.end_ns() + 1);
    CHECK(agg["slices"] == m.slices.rows_of(idx.tracks()[lane27].source).size());
    bool found = false;
    for (const auto& row : agg["rows"]) {
      CHECK(row["selfNs"] == row["totalNs"]);  // one row deep: no children
      CHECK(row["inRangeNs"] == row["totalNs"]);
      if (row["name"].get<std::string>().find("internode::combine<") != std::string::npos) {
        CHECK(row["count"] == 8);
        found = true;
      }
    }
    CHECK(found);
    // An empty range finds nothing; a range on the CPU thread sees parents with children.
    CHECK(area_aggregate(idx, {lane27}, m.min_ts_ns - 100, m.min_ts_ns - 50)["slices"] == 0);
    nlohmann::json cpu = area_aggregate(idx, {0}, m.min_ts_ns, idx.end_ns() + 1);
    bool some_parent = false;
    for (const auto& row : cpu["rows"]) some_parent = some_parent || row["selfNs"] < row["totalNs"];
    CHECK(some_parent);
  }
}

// Each arg and field says whether its text is JSON: a string that looks like JSON is still a string.
TEST_CASE("timeline event_args: strings are told apart from JSON values") {
  const std::string ev =
      R"({"ph": "X", "ts": 1.5, "args": {"s": "{\"a\": 1}", "dims": [[8, 512], [512]], "o": {"b": null}}})";
  nlohmann::json a = event_args(ev.data(), ev.size());
  REQUIRE(a["args"].size() == 3);
  CHECK(a["args"][0] == nlohmann::json::array({"s", "{\"a\": 1}", false}));
  CHECK(a["args"][1] == nlohmann::json::array({"dims", "[[8,512],[512]]", true}));
  CHECK(a["args"][2] == nlohmann::json::array({"o", "{\"b\":null}", true}));
  CHECK(a["fields"][0] == nlohmann::json::array({"ph", "X", false}));
  CHECK(a["fields"][1] == nlohmann::json::array({"ts", "1.5", true}));
}

TEST_CASE("timeline event_args: hostile bytes never crash") {
  std::string deep(100000, '[');
  CHECK(event_args(deep.data(), deep.size()).contains("error"));
  std::string not_obj = "[1,2]";
  CHECK(event_args(not_obj.data(), not_obj.size()).contains("error"));
  std::string cut = "{\"name\": \"x\", \"args\": {\"a\": 1";
  CHECK(event_args(cut.data(), cut.size()).contains("error"));
  std::string bad_utf8 = "{\"name\": \"\xff\xfe\", \"args\": {\"k\": \"v\\\"[\", \"big\": 18446744073709551615}}";
  nlohmann::json a = event_args(bad_utf8.data(), bad_utf8.size());
  REQUIRE(a.contains("args"));
  CHECK(arg(a["args"], "k") == "v\"[");
  CHECK(arg(a["args"], "big") == "18446744073709551615");
  CHECK(event_args("", 0).contains("error"));
}

TEST_CASE("timeline details and search on a tiny model") {
  test::ModelBuilder b;
  uint32_t cpu = b.track(b.process(100, "host"), 1, TrackKind::kThread, "main");
  uint32_t gpu = b.track(b.process(0, "gpu"), 7, TrackKind::kGpuStream);
  b.slice(cpu, 0, 100, "step");
  b.slice(cpu, 10, 20, "cudaLaunchKernel", EventKind::kCudaRuntime, 5);
  b.slice(cpu, 40, 30, "cudaLaunchKernel", EventKind::kCudaRuntime, 6);
  b.slice(gpu, 50, 40, "gemm_kernel", EventKind::kKernel, 5);
  b.slice(gpu, 95, 10, "ncclKernel_AllReduce", EventKind::kKernel, 6);
  TraceModel& m = b.finish();
  TimelineIndex idx(m);
  uint32_t step = test::find_slice(m, "step");
  CHECK(idx.self_ns(step) == 50);
  nlohmann::json d = event_details(idx, step);
  CHECK(d["selfNs"] == 50.0);
  CHECK(d["links"].empty());
  CHECK(event_details(idx, 999)["error"] == "no such event");
  uint32_t nccl = test::find_slice(m, "ncclKernel_AllReduce");
  CHECK(event_details(idx, nccl)["class"] == "communication");
  // The overlap lane: comm [95,105) against compute [50,90): all exposed.
  REQUIRE(idx.overlap_lanes().size() == 1);
  CHECK(idx.overlap_lanes()[0].rows[2].total() == 10);
  CHECK(idx.overlap_lanes()[0].rows[1].total() == 0);
  SearchState s;
  s.run(idx, {m.strings.find("cudaLaunchKernel"), 123456789u});
  CHECK(s.count() == 2);
  CHECK(s.step(idx, 20, UINT32_MAX, +1) == 1);
  CHECK(s.step(idx, 20, UINT32_MAX, -1) == 0);
  s.run(idx, {});
  CHECK(s.count() == 0);
  CHECK(s.step(idx, 0, UINT32_MAX, +1) == SIZE_MAX);
}

TEST_CASE("timeline real traces: memory lanes (Kineto [memory]) and counter lanes (C events)") {
  auto session = test::import_data_trace("hta/tests/data/df_index_resolver/df_index_resolver.json.gz");
  REQUIRE(session);
  TimelineIndex idx(session->model());
  uint32_t alloc = lane_named(idx, "allocated (GPU 1)");
  REQUIRE(alloc != UINT32_MAX);
  CHECK(idx.tracks()[alloc].kind == LaneKind::kMemory);
  CHECK(idx.groups()[idx.tracks()[alloc].group].name == "Memory");
  CHECK(lane_named(idx, "reserved (GPU 1)") == alloc + 1);
  WindowQuery q;
  q.lanes = {alloc};
  q.t0_ns = 0;
  q.t1_ns = static_cast<double>(idx.end_ns() - idx.origin_ns());
  q.px = 500;
  WindowResult r;
  query_window(idx, q, r);
  REQUIRE(r.point_ns.size() > 10);
  CHECK(r.point_ns.size() <= 502);
  for (size_t i = 0; i < r.point_ns.size(); ++i) {
    CHECK(r.point_min[i] <= r.point_last[i]);
    CHECK(r.point_last[i] <= r.point_max[i]);
    CHECK(r.point_max[i] > 0);
    if (i) CHECK(r.point_ns[i - 1] < r.point_ns[i]);
  }

  auto tf = test::import_data_trace("kineto/profiler/plugin/trace_viewer/tf_trace_viewer/data/trace.json");
  REQUIRE(tf);
  TimelineIndex tidx(tf->model());
  size_t counters = 0;
  for (const TimelineTrack& t : tidx.tracks()) counters += t.kind == LaneKind::kCounter;
  CHECK(counters >= 1);
  CHECK(tidx.tracks().size() >= 3);
}
