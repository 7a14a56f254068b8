// The per-step detail sections of the summary (steps[i].sections) on real traces with steps, each
// number checked against a brute-force pass over the model written here, or against the per-step
// overlap that the temporal path computes independently; plus their bounds and null rules.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <string>

#include "core/analysis/hta_compat.h"
#include "core/analysis/intervals.h"
#include "core/analysis/kernel_classes.h"
#include "core/analysis/launches.h"
#include "core/summary/step_details.h"
#include "core/summary/summary.h"
#include "tests/core/detail_test_util.h"

namespace tw {
namespace {

using nlohmann::json;

json summary_of(const TraceModel& m, bool hta) {
  static const ImportStats stats;
  SummaryOptions o;
  o.hta_compat = hta;
  return file_summary(FileInput{"t", 0, &m, &stats}, o);
}

bool in(int64_t ts, int64_t b, int64_t e) { return ts >= b && ts < e; }

// Idle per (device, stream) by interval algebra: the gaps of the union of the stream's ops between
// its first start and last end, clipped to [b, e) (default mode's definition, computed another way).
std::map<std::pair<int32_t, int64_t>, int64_t> brute_idle(const TraceModel& m, int64_t b, int64_t e) {
  std::map<std::pair<int32_t, int64_t>, std::vector<Interval>> ops;
  for (uint32_t r = 0; r < m.gpu_ops.size(); ++r) {
    uint32_t s = m.gpu_ops.slice[r];
    ops[{m.gpu_ops.device_at(r), m.gpu_ops.stream_at(r)}].push_back({m.slices.ts_ns[s], m.slices.end_ns(s)});
  }
  std::map<std::pair<int32_t, int64_t>, int64_t> out;
  for (auto& [key, v] : ops) {
    int64_t first = v[0].begin, last = v[0].end;
    for (const Interval& iv : v) first = std::min(first, iv.begin), last = std::max(last, iv.end);
    out[key] = IntervalSet::union_of(v).gaps(first, last).total_within(b, e);
  }
  return out;
}

void check_steps(const char* rel, bool hta) {
  CAPTURE(rel);
  CAPTURE(hta);
  const TraceModel& m = detail_test::data_trace(rel);
  const json f = summary_of(m, hta);
  REQUIRE(f["steps"].size() > 0);
  const std::vector<uint8_t> kept = hta ? hta_select_gpu_ops(m).kept : std::vector<uint8_t>(m.gpu_ops.size(), 1);
  uint64_t kernels_sum = 0;
  for (size_t i = 0; i < f["steps"].size(); ++i) {
    const json& st = f["steps"][i];
    CAPTURE(i);
    if (i >= kMaxDetailSteps) {
      CHECK(st["sections"].is_null());
      continue;
    }
    const json& d = st["sections"];
    REQUIRE(d.is_object());
    const int64_t b = st["begin_ns"], e = st["end_ns"];

    // kernels: the ops that start in the step, whole.
    uint64_t count = 0;
    int64_t total = 0;
    for (uint32_t r = 0; r < m.gpu_ops.size(); ++r) {
      uint32_t s = m.gpu_ops.slice[r];
      if (kept[r] && in(m.slices.ts_ns[s], b, e)) ++count, total += m.slices.dur_at(s);
    }
    CHECK(d["kernels"]["count"] == count);
    CHECK(d["kernels"]["total_ns"] == total);
    CHECK(d["kernels"]["top"].size() <= kStepTopKernels);
    kernels_sum += count;

    // launches: runtime calls that start in the step; host syncs among the runtime/driver calls.
    uint64_t launches = 0, syncs = 0;
    int64_t blocked = 0;
    for (const LaunchLink& l : m.launches) launches += in(m.slices.ts_ns[l.launch_slice], b, e);
    for (uint32_t s = 0; s < m.slices.size(); ++s) {
      if (m.slices.kind_at(s) != EventKind::kCudaRuntime && m.slices.kind_at(s) != EventKind::kCudaDriver) continue;
      if (in(m.slices.ts_ns[s], b, e) && host_sync_kind(m.strings.get(m.slices.name.at(s))) >= 0)
        ++syncs, blocked += m.slices.dur_at(s);
    }
    CHECK(d["launches"]["count"] == launches);
    CHECK(d["launches"]["delay"]["count"] == launches);
    CHECK(d["launches"]["host_syncs"]["count"] == syncs);
    CHECK(d["launches"]["host_syncs"]["blocked_ns"] == blocked);
    CHECK(d["launches"]["worst_delays"].size() <= kStepTopRows);
    CHECK(!d["launches"].contains("queues"));

    // collectives: clipped union and exposed time equal the step's overlap section (temporal path).
    if (!hta && d["collectives"].is_object()) {
      CHECK(d["collectives"]["union_ns"] == st["overlap"]["communication_ns"]);
      CHECK(d["collectives"]["exposed_ns"] == st["overlap"]["exposed_ns"]);
    }

    // idle: default mode against interval algebra, per stream.
    CHECK(d["idle"]["streams"].size() <= kStepMaxStreams);
    if (!hta) {
      const auto want = brute_idle(m, b, e);
      for (const json& s : d["idle"]["streams"]) {
        CAPTURE(s["stream"]);
        CHECK(s["idle_ns"] == want.at({s["device"].get<int32_t>(), s["stream"].get<int64_t>()}));
        CHECK(s["longest_gaps"].size() <= kStepTopRows);
        int64_t sum = 0;
        for (const auto& [k, c] : s["categories"].items()) sum += c["ns"].get<int64_t>();
        CHECK(sum == s["idle_ns"]);
      }
    }

    // memory: the peak in the step never exceeds the whole trace's, and is at least the state at its end.
    if (d["memory"].is_object()) {
      for (const json& dev : d["memory"]["devices"]) {
        for (const json& w : f["memory"]["devices"])
          if (w["device"] == dev["device"])
            CHECK(dev["peak_allocated"].get<int64_t>() <= w["peak_allocated"].get<int64_t>());
        CHECK(dev["peak_allocated"].get<int64_t>() >= dev["final_allocated"].get<int64_t>());
        CHECK(!dev.contains("series"));
      }
    }
  }
  CHECK(kernels_sum <= f["kernels"]["count"].get<uint64_t>());
}

}  // namespace

TEST_CASE("step details: real traces with steps, against brute force over the model") {
  for (const char* rel :
       {"hta/tests/data/nccl_parser_config/nccl_data.json.gz",
        "hta/tests/data/df_index_resolver/df_index_resolver.json.gz", "deepseek_profile_data/train.json"})
    for (bool hta : {false, true}) check_steps(rel, hta);
}

TEST_CASE("step details: df_index_resolver's memory peaks per step") {
  const TraceModel& m = detail_test::data_trace("hta/tests/data/df_index_resolver/df_index_resolver.json.gz");
  const json f = summary_of(m, false);
  REQUIRE(f["steps"].size() == 5);
  for (const json& st : f["steps"]) {
    const json& mem = st["sections"]["memory"];
    REQUIRE(mem.is_object());
    REQUIRE(mem["devices"].size() > 0);
    // Brute force on device 0 (the GPU): the allocator state entering the step, then its samples.
    const int64_t b = st["begin_ns"], e = st["end_ns"];
    int64_t enter_ts = INT64_MIN, enter = 0, peak = INT64_MIN;
    for (uint32_t k = 0; k < m.memory.size(); ++k) {
      if (m.memory.device[k] != 0) continue;
      int64_t ts = m.memory.ts_ns[k];
      if (ts < b && ts >= enter_ts) enter_ts = ts, enter = m.memory.total_allocated[k];
      if (in(ts, b, e)) peak = std::max(peak, m.memory.total_allocated[k]);
    }
    if (enter_ts != INT64_MIN) peak = std::max(peak, enter);
    for (const json& dev : mem["devices"])
      if (dev["device"] == 0) CHECK(dev["peak_allocated"] == peak);
  }
}

TEST_CASE("step details: CPU-only steps have null sections; many steps are capped") {
  const TraceModel& cpu =
      detail_test::data_trace("hta/tests/data/cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz");
  const json f = summary_of(cpu, false);
  REQUIRE(f["steps"].size() == 1);
  for (const char* k : {"idle", "kernels", "launches", "collectives", "memory"})
    CHECK(f["steps"][0]["sections"][k].is_null());

  std::string t = R"({"traceEvents":[)";
  const int n = static_cast<int>(kMaxDetailSteps) + 8;
  for (int i = 0; i < n; ++i) {
    std::string ts = std::to_string(i * 100);
    t += std::string(i ? "," : "") + R"({"ph":"X","cat":"user_annotation","name":"ProfilerStep#)" + std::to_string(i) +
         R"(","pid":1,"tid":1,"ts":)" + ts +
         R"(,"dur":100},{"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":)" + ts +
         R"(,"dur":10,"args":{"device":0,"stream":7}})";
  }
  auto imp = detail_test::import_text(t + "]}");
  const json g = summary_of(imp->model(), false);
  REQUIRE(g["steps"].size() == size_t(n));
  for (int i = 0; i < n; ++i) {
    CAPTURE(i);
    const json& d = g["steps"][i]["sections"];
    if (i < int(kMaxDetailSteps)) {
      REQUIRE(d.is_object());
      CHECK(d["kernels"]["count"] == 1);
      CHECK(d["kernels"]["total_ns"] == 10000);
      // Stream 7 idles 90 us in every step but the last (the gap after the last op is not idle).
      CHECK(d["idle"]["streams"][0]["idle_ns"] == 90000);
      CHECK(d["launches"].is_null());  // the trace has no launches at all
    } else {
      CHECK(d.is_null());
    }
  }
}

}  // namespace tw
