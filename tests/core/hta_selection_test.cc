// --hta-compat's event selection against HTA 0.6.1 on hand-made traces: (1) with fewer than two
// ProfilerStep names HTA filters nothing, so a GPU op without a CPU-side launch counts; (2) an event
// that is not a GPU op but carries a stream other than -1 (torch.compile's Triton launcher cpu_op on
// ROCm writes "stream": 0) is GPU work. Every expected number was worked out from HTA's code
// (hta/common/trace.py _filter_irrelevant_gpu_kernels, hta/common/trace_filter.py,
// hta/analyzers/breakdown_analysis.py) and is what HTA 0.6.1 gives on the same events with
// HTA_DISABLE_NS_ROUNDING=1. The events are written in µs, the numbers are ns.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/analysis/hta_compat.h"
#include "core/summary/summary.h"
#include "tests/core/import_test_util.h"

namespace tw {
namespace {

std::string event(const char* name, const char* cat, int pid, int tid, int64_t ts_us, int64_t dur_us,
                  const std::string& args) {
  return std::string(R"({"ph":"X","cat":")") + cat + R"(","name":")" + name + R"(","pid":)" + std::to_string(pid) +
         R"(,"tid":)" + std::to_string(tid) + R"(,"ts":)" + std::to_string(ts_us) + R"(,"dur":)" +
         std::to_string(dur_us) + R"(,"args":{)" + args + "}}";
}
std::string launch(int64_t ts_us, int corr) {
  return event("cudaLaunchKernel", "cuda_runtime", 1, 1, ts_us, 10, R"("correlation":)" + std::to_string(corr));
}
std::string kernel(const char* name, int64_t ts_us, int64_t dur_us, int corr, int stream = 7) {
  return event(name, "kernel", 0, stream, ts_us, dur_us,
               R"("device":0,"stream":)" + std::to_string(stream) + R"(,"correlation":)" + std::to_string(corr));
}
std::string step(int n, int64_t ts_us, int64_t dur_us) {
  return event(("ProfilerStep#" + std::to_string(n)).c_str(), "user_annotation", 1, 1, ts_us, dur_us, "");
}
std::string cpu_op(const char* name, int64_t ts_us, int64_t dur_us, const std::string& args) {
  return event(name, "cpu_op", 1, 1, ts_us, dur_us, args);
}
std::string trace(const std::vector<std::string>& events, const char* top = "") {
  std::string t = std::string("{") + top + R"("traceEvents":[)";
  for (size_t i = 0; i < events.size(); ++i) t += (i ? "," : "") + events[i];
  return t + "]}";
}

nlohmann::json summarize(const test::ImporterPtr& imp, bool hta) {
  FileInput in{"t", 0, &imp->model(), &imp->stats()};
  SummaryOptions o;
  o.hta_compat = hta;
  return file_summary(in, o);
}

// span, idle, compute, non-compute (ns) and the number of ops counted.
void check_temporal(const nlohmann::json& f, int64_t span, int64_t idle, int64_t compute, int64_t non_compute,
                    int ops) {
  const nlohmann::json& t = f["temporal"];
  REQUIRE(t.is_object());
  CHECK(t["span_ns"] == span);
  CHECK(t["idle_ns"] == idle);
  CHECK(t["compute_ns"] == compute);
  CHECK(t["non_compute_ns"] == non_compute);
  CHECK(t["gpu_ops"] == ops);
}

// A launched kernel [200, 300) and a kernel [1000, 1050) whose correlation (99) no CPU event has.
const std::vector<std::string> kOrphan = {launch(100, 1), kernel("k_launched", 200, 100, 1),
                                          kernel("k_orphan", 1000, 50, 99)};

}  // namespace

TEST_CASE("hta-compat: with 0 or 1 ProfilerStep names HTA keeps a GPU op without a CPU launch") {
  for (int steps : {0, 1}) {
    CAPTURE(steps);
    std::vector<std::string> events = kOrphan;
    if (steps == 1) events.push_back(step(1, 50, 2000));
    auto imp = test::import_whole(trace(events));
    const nlohmann::json f = summarize(imp, true);
    const nlohmann::json& sel = f["analysis_mode"]["hta_selection"];
    CHECK(sel["step_names"] == steps);
    CHECK(sel["kept_gpu_ops"] == 2);
    CHECK(sel["dropped_gpu_ops"] == 0);
    CHECK(sel["cutoff_ns"].is_null());  // nothing is cut
    CHECK(sel["last_step_dropped"] == false);
    // HTA: kernel_time 850 µs, idle 700, compute 150, non-compute 0.
    check_temporal(f, 850000, 700000, 150000, 0, 2);
    CHECK(f["kernel_classes"]["computation"]["ops"] == 2);
    CHECK(f["kernels"]["count"] == 2);
    // HTA's idle time breakdown: stream 7, "other" 700 µs (the orphan has no launch to wait for).
    REQUIRE(f["idle"]["streams"].size() == 1);
    CHECK(f["idle"]["streams"][0]["idle_ns"] == 700000);
    CHECK(f["idle"]["streams"][0]["categories"]["other"]["ns"] == 700000);
  }
}

TEST_CASE("hta-compat: with 2 ProfilerStep names GPU ops without a kept launch are dropped, as before") {
  std::vector<std::string> events = kOrphan;
  for (const std::string& e : {step(1, 50, 500), step(2, 600, 1000), launch(700, 2), kernel("k_step2", 800, 20, 2)})
    events.push_back(e);
  auto imp = test::import_whole(trace(events));
  const nlohmann::json f = summarize(imp, true);
  const nlohmann::json& sel = f["analysis_mode"]["hta_selection"];
  CHECK(sel["step_names"] == 2);
  CHECK(sel["kept_gpu_ops"] == 1);  // k_launched; k_orphan (no launch) and k_step2 (launched in the last step) go
  CHECK(sel["dropped_gpu_ops"] == 2);
  CHECK(sel["cutoff_ns"] == 600000);
  CHECK(sel["last_step_dropped"] == true);
  check_temporal(f, 100000, 0, 100000, 0, 1);  // HTA: kernel_time 100 µs, all compute
  // The default mode counts every GPU op: [200, 1050) with 170 µs busy.
  check_temporal(summarize(imp, false), 850000, 680000, 170000, 0, 3);
}

TEST_CASE("hta-compat: events with a stream arg other than -1 are GPU work, as HTA reads the arg") {
  // Every way of importing (whole, chunked, in parts) keeps the stream flags.
  auto imp = test::import_all_ways(trace({
      cpu_op("triton_poi_fused_0", 100, 300, R"("stream":0)"),  // torch.compile's launcher on ROCm
      launch(150, 1), kernel("triton_poi_fused_0", 350, 100, 1),
      cpu_op("op_minus1", 600, 100, R"("stream":-1)"),         // -1: no stream
      cpu_op("op_str", 800, 100, R"("stream":"cuda:0")"),      // not a number: -1
      cpu_op("op_numstr", 1000, 50, R"("stream":"3")"),        // pandas reads "3" as 3
      cpu_op("op_minus2", 1100, 20, R"("stream":-2)"),         // HTA selects stream != -1
      cpu_op("op_float", 1200, 10, R"("stream":0.5)"),         // int(0.5) = 0
      cpu_op("op_nostream", 1300, 100, R"("External id":4)"),  // no stream arg
  }));
  const TraceModel& m = imp->model();
  for (uint32_t i = 0; i < m.slices.size(); ++i) {
    const std::string name(m.strings.get(m.slices.name.at(i)));
    CAPTURE(name);
    const uint8_t f = m.slices.flags[i];
    const bool any = name == "triton_poi_fused_0" || name == "op_numstr" || name == "op_minus2" || name == "op_float";
    CHECK(((f & kSliceStreamArg) != 0) == any);
    CHECK(((f & kSliceStreamArgNonNeg) != 0) == (any && name != "op_minus2"));
  }
  const nlohmann::json f = summarize(imp, true);
  CHECK(f["analysis_mode"]["hta_selection"]["stream_events"] == 4);
  CHECK(f["analysis_mode"]["hta_selection"]["sync_events"] == 0);
  // HTA: kernel_time 1110 µs ([100, 1210)), idle 680, compute 430 (every one is a computation).
  check_temporal(f, 1110000, 680000, 430000, 0, 5);
  CHECK(f["kernel_classes_ns"]["computation"] == 430000);
  // HTA's kernel breakdown: triton_poi_fused_0 twice (300 + 100 µs), op_numstr 50, op_minus2 20,
  // op_float 10; 480 µs of computation in all.
  CHECK(f["kernel_classes"]["computation"]["ops"] == 5);
  CHECK(f["kernel_classes"]["computation"]["sum_ns"] == 480000);
  const nlohmann::json& k = f["kernels"];
  CHECK(k["count"] == 5);
  CHECK(k["total_ns"] == 480000);
  REQUIRE(k["top"].size() == 4);
  CHECK(k["top"][0]["name"] == "triton_poi_fused_0");
  CHECK(k["top"][0]["count"] == 2);
  CHECK(k["top"][0]["total_ns"] == 400000);
  CHECK(k["top"][1]["name"] == "op_numstr");
  CHECK(k["top"][1]["kind"] == "cpu_op");
  CHECK(k["top"][3]["name"] == "op_float");
  CHECK(k["top"][3]["total_ns"] == 10000);
  // The default mode counts GPU ops only: the kernel.
  const nlohmann::json d = summarize(imp, false);
  check_temporal(d, 100000, 0, 100000, 0, 1);
  CHECK(d["kernels"]["count"] == 1);
  CHECK(d["kernel_classes"]["computation"]["ops"] == 1);
}

TEST_CASE("hta-compat: a cpu_op with a stream moves the comm/comp overlap") {
  auto imp = test::import_whole(trace({cpu_op("triton_red_fused_1", 100, 300, R"("stream":0)"), launch(120, 1),
                                       kernel("ncclDevKernel_AllReduce", 200, 400, 1, 20)}));
  // HTA: communication [200, 600), computation [100, 400): overlap 200 of 400 µs = 50 %.
  const nlohmann::json h = summarize(imp, true);
  check_temporal(h, 500000, 0, 300000, 200000, 2);
  CHECK(h["overlap"]["overlapped_ns"] == 200000);
  CHECK(h["overlap"]["pct"] == 50.0);
  const nlohmann::json d = summarize(imp, false);
  check_temporal(d, 400000, 0, 0, 400000, 1);
  CHECK(d["overlap"]["pct"] == 0.0);
}

TEST_CASE("hta-compat: with 2 step names a cpu_op with a stream is kept by the time cutoff") {
  auto imp = test::import_whole(trace({
      step(1, 50, 500),
      step(2, 600, 1000),
      cpu_op("triton_a", 100, 300, R"("stream":0)"),  // before the last step: kept, GPU work
      launch(150, 1),
      kernel("k1", 350, 100, 1),
      cpu_op("triton_b", 700, 300, R"("stream":0)"),  // in the last step: dropped
      launch(750, 2),
      kernel("k2", 900, 100, 2),
      // A stream and a correlation make it one of HTA's GPU kernels, not a CPU event: it does not
      // keep k2, and it goes itself since its correlation's owner (the launch at 750) goes.
      cpu_op("with_corr", 500, 30, R"("stream":0,"correlation":2)"),
  }));
  const nlohmann::json f = summarize(imp, true);
  const nlohmann::json& sel = f["analysis_mode"]["hta_selection"];
  CHECK(sel["kept_gpu_ops"] == 1);
  CHECK(sel["stream_events"] == 1);
  check_temporal(f, 350000, 0, 350000, 0, 2);  // HTA: triton_a [100, 400) and k1 [350, 450)
}

TEST_CASE("hta-compat: cuda_sync events count by their own stream arg") {
  auto imp = test::import_whole(trace({
      launch(100, 1),
      kernel("k", 200, 100, 1),
      event("cudaStreamSynchronize", "cuda_runtime", 1, 1, 150, 300, R"("correlation":2)"),
      event("Stream Sync", "cuda_sync", 0, 7, 300, 100, R"("stream":7,"correlation":2,"device":0)"),
      event("cudaEventSynchronize", "cuda_runtime", 1, 1, 500, 300, R"("correlation":3)"),
      event("Event Sync", "cuda_sync", 0, 7, 600, 50, R"("stream":-1,"correlation":3,"device":0)"),
      event("cudaDeviceSynchronize", "cuda_runtime", 1, 1, 700, 300, R"("correlation":4)"),
      // Older Kineto wrote 4294967295 for "no stream": HTA counts it as a stream.
      event("Context Sync", "cuda_sync", 0, 7, 800, 40, R"("stream":4294967295,"correlation":4,"device":0)"),
  }));
  const nlohmann::json f = summarize(imp, true);
  CHECK(f["analysis_mode"]["hta_selection"]["sync_events"] == 2);
  // HTA: kernel_time 640 µs ([200, 840)), idle 400, compute 100, non-compute 140 (the two syncs).
  check_temporal(f, 640000, 400000, 100000, 140000, 3);
  // HTA's rules call a sync "other"; the kernel table lists them (HTA's top kernels do).
  CHECK(f["kernel_classes"]["other"]["ops"] == 2);
  CHECK(f["kernel_classes"]["other"]["sum_ns"] == 140000);
  CHECK(f["kernels"]["count"] == 3);
  check_temporal(summarize(imp, false), 100000, 0, 100000, 0, 1);  // default: a sync is not GPU work
}

TEST_CASE("hta-compat: MTIA traces with 2 step names take HTA's MTIA filter") {
  auto imp = test::import_whole(trace(
      {
          step(1, 100, 400),
          step(2, 500, 500),
          event("runFunction", "mtia_runtime", 1, 1, 150, 10, R"("correlation":1)"),
          event("mtia_kernel_a", "mtia_ccp_events", 0, 1, 200, 100, R"("stream":1,"correlation":1)"),
          // Launched before the first step: dropped.
          event("runFunction", "mtia_runtime", 1, 1, 50, 10, R"("correlation":2)"),
          event("mtia_kernel_early", "mtia_ccp_events", 0, 1, 60, 20, R"("stream":1,"correlation":2)"),
          // A memory op starting in a step is kept, and counted though it has no stream.
          event("dma_copy", "mtia_ccp_events", 0, 5, 600, 50, ""),
          cpu_op("triton_x", 700, 100, R"("stream":0)"),     // inside the steps: GPU work
          cpu_op("triton_late", 990, 100, R"("stream":0)"),  // ends after the last step: dropped
          event("runFunction", "mtia_runtime", 1, 1, 800, 10, R"("correlation":3)"),
          // Kept by its launch, but without a stream it is not GPU work.
          event("mtia_kernel_nostream", "mtia_ccp_events", 0, 1, 850, 30, R"("correlation":3)"),
      },
      R"("distributedInfo":{"backend":"mtia:hccl","rank":0},)"));
  const HtaSelection sel = hta_select_gpu_ops(imp->model());
  CHECK(sel.mtia);
  CHECK(sel.cutoff_ns == 1000000);
  const nlohmann::json f = summarize(imp, true);
  CHECK(f["analysis_mode"]["hta_selection"]["kept_gpu_ops"] == 2);  // mtia_kernel_a, dma_copy
  CHECK(f["analysis_mode"]["hta_selection"]["stream_events"] == 1);
  // HTA: kernel_time 600 µs ([200, 800)), idle 350, compute 200, non-compute 50 (dma).
  check_temporal(f, 600000, 350000, 200000, 50000, 3);
}

}  // namespace tw
