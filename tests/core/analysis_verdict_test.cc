// The verdict (core/analysis/verdict.h): for each limiter, a small trace that must give it and a
// near variant that must not, with the sentence and the parts worked out by hand (times in us).
#include <doctest/doctest.h>

#include <string>

#include "tests/core/detail_summary_util.h"

namespace tw {
namespace {

using detail_test::details_of;
using detail_test::recommendation;
using detail_test::TraceText;

nlohmann::json verdict_of(const TraceText& t) { return details_of(t.text())["verdict"]; }

bool backs(const nlohmann::json& v, const std::string& id) {
  for (const auto& r : v["recommendations"])
    if (r == id) return true;
  return false;
}

int64_t part_ns(const nlohmann::json& v, const std::string& id) {
  for (const auto& p : v["parts"])
    if (p["id"] == id) return p["ns"].get<int64_t>();
  return 0;
}

constexpr const char* kLoader = "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__";
constexpr const char* kAllReduce =
    R"("Collective name": "allreduce", "In msg nelems": 1000, "Out msg nelems": 1000, "dtype": "Float", "Group size": 4)";

// The issue's case: the GPU is busy through its whole span, but the span is the last 40% of the
// step; the CPU prepares the batch for the rest.
TEST_CASE("verdict: host-bound although the GPU is busy 100% of its span") {
  TraceText t;
  t.step(1, 0, 1000).cpu("preprocess", 0, 590).kernel("elementwise_kernel", 600, 400, 7, 595);
  const nlohmann::json f = details_of(t.text());
  const nlohmann::json& v = f["verdict"];
  CHECK(v["limiter"] == "host");
  CHECK(v["basis"] == "steps");
  CHECK(v["basis_ns"] == 1000000);
  CHECK(v["gpu_idle_part"] == "cpu");
  // [0,590) preprocess, [590,595) nothing, [595,596) the launch, [596,600) nothing, [600,1000) the kernel.
  CHECK(part_ns(v, "gpu_compute") == 400000);
  CHECK(part_ns(v, "cpu") == 590000);
  CHECK(part_ns(v, "untraced") == 9000);
  CHECK(part_ns(v, "runtime") == 1000);
  CHECK(v["parts"][0]["id"] == "cpu");  // largest first
  CHECK(v["sentence"] ==
        "Host-bound: the GPU is idle 60.0% of the step time, waiting for the CPU; the largest part is CPU operators "
        "and Python (59.0% of the step time). CPU self time goes to preprocess (100.0%) of operator self time.");
  CHECK(v["top_of"] == "operator_self_sum");
  CHECK(backs(v, "gpu_idle"));
  const nlohmann::json* idle = recommendation(f, "gpu_idle");
  REQUIRE(idle);  // judged over the step, not the GPU span (where it is busy 100%)
  CHECK((*idle)["evidence"]["numbers"]["idle_ns"] == 600000);
  CHECK((*idle)["severity"] == "high");

  // Must not: the kernel fills the step.
  TraceText busy;
  busy.step(1, 0, 1000).cpu("preprocess", 0, 4).kernel("elementwise_kernel", 10, 990, 7, 5);
  const nlohmann::json fb = details_of(busy.text());
  CHECK(fb["verdict"]["limiter"] == "compute");
  CHECK(fb["verdict"]["gpu_idle_part"].is_null());
  CHECK(recommendation(fb, "gpu_idle") == nullptr);
}

TEST_CASE("verdict: data-loader-bound") {
  TraceText t;
  t.step(1, 0, 1000).x("user_annotation", kLoader, 1, 1, 0, 499, "").kernel("elementwise_kernel", 500, 500, 7, 499);
  const nlohmann::json v = verdict_of(t);
  CHECK(v["limiter"] == "data_loader");
  CHECK(part_ns(v, "data_loader") == 499000);
  CHECK(v["sentence"] ==
        "Data-loader-bound: the GPU is idle 50.0% of the step time; the DataLoader alone takes 49.9% of the step "
        "time, while the loop waits for the next batch.");
  CHECK(backs(v, "data_loading"));
  CHECK(backs(v, "gpu_idle"));

  TraceText quick;  // must not: a short load, then the GPU works
  quick.step(1, 0, 1000).x("user_annotation", kLoader, 1, 1, 0, 49, "").kernel("elementwise_kernel", 50, 950, 7, 49);
  CHECK(verdict_of(quick)["limiter"] == "compute");
}

TEST_CASE("verdict: the DataLoader is named before launches when it is the larger wait") {
  // The launch-bound rule holds (20 kernels of 1 us, each after a 5 us launch call), but the step
  // spends 60% in the DataLoader first.
  TraceText t;
  t.step(1, 0, 1000).x("user_annotation", kLoader, 1, 1, 0, 600, "");
  for (int i = 0; i < 20; ++i) t.gpu("kernel", "tiny", 600 + i * 6 + 5, 1, 7, 600 + i * 6, 5);
  const nlohmann::json f = details_of(t.text());
  CHECK(f["launches"]["launch_bound"] == true);
  CHECK(f["verdict"]["limiter"] == "data_loader");
  CHECK(backs(f["verdict"], "data_loading"));
}

TEST_CASE("verdict: launch-bound, judged over the GPU span without steps") {
  // 20 kernels of 1 us, each launched by a 5 us call: span [5,120) us, busy 20 us.
  TraceText t;
  for (int i = 0; i < 20; ++i) t.gpu("kernel", "tiny", i * 6 + 5, 1, 7, i * 6, 5);
  const nlohmann::json v = verdict_of(t);
  CHECK(v["limiter"] == "launch");
  CHECK(v["basis"] == "gpu_span");
  CHECK(v["basis_ns"] == 115000);
  CHECK(v["sentence"] ==
        "Launch-bound: the GPU is idle 82.6% of the GPU's active span while the CPU issues many short kernels "
        "(100.0% of launched ops run shorter than their launch call). (No profiler steps: judged over the GPU's "
        "active span.)");
  CHECK(backs(v, "launch_bound"));

  TraceText longer;  // must not: each kernel outlasts its launch and fills the gap to the next one
  for (int i = 0; i < 20; ++i) longer.gpu("kernel", "tiny", i * 6 + 5, 6, 7, i * 6, 5);
  CHECK(verdict_of(longer)["limiter"] == "compute");
}

TEST_CASE("verdict: communication-bound, and hidden communication is not") {
  TraceText t;
  t.step(1, 0, 1000).kernel("elementwise_kernel", 0, 600);
  t.x("kernel", "ncclDevKernel_AllReduce_Sum_f32_RING_LL", 0, 20, 600, 400,
      std::string("\"device\": 0, \"stream\": 20, ") + kAllReduce);
  const nlohmann::json v = verdict_of(t);
  CHECK(v["limiter"] == "communication");
  CHECK(part_ns(v, "exposed_communication") == 400000);
  CHECK(v["top"][0]["name"] == "allreduce");
  CHECK(v["top_of"] == "exposed_communication");
  CHECK(v["sentence"] ==
        "Communication-bound: communication that no computation hides takes 40.0% of the step time. Most exposed: "
        "allreduce (100.0%) of it.");
  CHECK(backs(v, "exposed_communication"));

  TraceText hidden;  // must not: the same collective under the computation
  hidden.step(1, 0, 1000).kernel("elementwise_kernel", 0, 1000);
  hidden.x("kernel", "ncclDevKernel_AllReduce_Sum_f32_RING_LL", 0, 20, 600, 400,
           std::string("\"device\": 0, \"stream\": 20, ") + kAllReduce);
  const nlohmann::json h = verdict_of(hidden);
  CHECK(h["limiter"] == "compute");
  CHECK(h["sentence"] ==
        "GPU compute-bound: kernels run 100.0% of the step time. The largest are elementwise_kernel (100.0%) of "
        "computation kernel time. Communication runs under computation for 100.0% of its time.");
}

TEST_CASE("verdict: memory-copy-bound") {
  TraceText t;
  t.step(1, 0, 1000).kernel("elementwise_kernel", 0, 700).gpu("gpu_memcpy", "Memcpy HtoD (Pinned -> Device)", 700, 300);
  const nlohmann::json v = verdict_of(t);
  CHECK(v["limiter"] == "memory_copy");
  CHECK(v["top"][0]["name"] == "Memcpy HtoD (Pinned -> Device)");
  CHECK(v["top_of"] == "memory_op_sum");

  TraceText small;  // must not: a 10% copy is named as the second concern only
  small.step(1, 0, 1000)
      .kernel("elementwise_kernel", 0, 900)
      .gpu("gpu_memcpy", "Memcpy HtoD (Pinned -> Device)", 900, 100);
  const nlohmann::json s = verdict_of(small);
  CHECK(s["limiter"] == "compute");
  CHECK(s["sentence"].get<std::string>().find(" Also: memory copies and sets, 10.0% of the step time.") !=
        std::string::npos);
}

TEST_CASE("verdict: the GPU waits with work queued") {
  // Three kernels launched up front, each starting 90 us after the previous one ended: the gaps are
  // over the kernel-wait threshold and the work was enqueued before each gap began.
  TraceText t;
  t.gpu("kernel", "elementwise_kernel", 0, 10, 7, 0, 0.5)
      .gpu("kernel", "elementwise_kernel", 100, 10, 7, 1, 0.5)
      .gpu("kernel", "elementwise_kernel", 200, 10, 7, 2, 0.5);
  const nlohmann::json v = verdict_of(t);
  CHECK(v["limiter"] == "gpu_wait");
  CHECK(v["gpu_idle_part"] == "gpu_idle_other");
  CHECK(part_ns(v, "gpu_idle_other") == 180000);

  TraceText late;  // must not: launched only once the GPU had run dry, the host is the limiter
  late.gpu("kernel", "elementwise_kernel", 0, 10, 7, 0, 0.5)
      .gpu("kernel", "elementwise_kernel", 100, 10, 7, 90, 0.5)
      .gpu("kernel", "elementwise_kernel", 200, 10, 7, 190, 0.5);
  const nlohmann::json l = verdict_of(late);
  CHECK(l["limiter"] == "host");
  CHECK(l["gpu_idle_part"] == "gpu_idle_host_wait");
}

TEST_CASE("verdict: a compute-bound step names a large idle share second") {
  TraceText t;
  t.step(1, 0, 1000).kernel("elementwise_kernel", 10, 750, 7, 5);
  const nlohmann::json v = verdict_of(t);
  CHECK(v["limiter"] == "compute");
  CHECK(v["sentence"] ==
        "GPU compute-bound: kernels run 75.0% of the step time. The largest are elementwise_kernel (100.0%) of "
        "computation kernel time. The GPU is also idle 25.0% of the step time.");
}

TEST_CASE("verdict: a CPU-only trace") {
  TraceText t;
  t.cpu("work", 0, 10).cpu("more", 20, 30);
  const nlohmann::json v = verdict_of(t);
  CHECK(v["limiter"] == "cpu_only");
  CHECK(v["basis"] == "trace");
  CHECK(v["basis_ns"] == 50000);
  CHECK(v["sentence"] == "No GPU work: a CPU-only trace. CPU self time goes to more (75.0%), work (25.0%) of operator "
                         "self time.");
  CHECK(v["parts"].empty());
}

}  // namespace
}  // namespace tw
