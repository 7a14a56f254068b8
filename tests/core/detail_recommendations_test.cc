// Recommendation rules: which fire on the sample trace and on small variants built to trip (or
// not trip) each threshold, and that their evidence carries numbers, offenders and time ranges.
#include <doctest/doctest.h>

#include <set>
#include <string>

#include "core/summary/detail_sections.h"
#include "tests/core/detail_sample_trace.h"
#include "tests/core/detail_test_util.h"

namespace tw {
namespace {

using detail_test::details_of;
using detail_test::recommendation;

std::set<std::string> ids(const nlohmann::json& f) {
  std::set<std::string> out;
  for (const auto& r : f["recommendations"]) out.insert(r["id"].get<std::string>());
  return out;
}

std::string replace(std::string s, const std::string& from, const std::string& to) {
  size_t p = s.find(from);
  REQUIRE(p != std::string::npos);
  return s.replace(p, from.size(), to);
}

TEST_CASE("detail recommendations: the sample trace") {
  nlohmann::json f = details_of(detail_test::kSampleTrace);
  CHECK(ids(f) ==
        std::set<std::string>{"data_loading", "exposed_communication", "gpu_idle", "host_syncs", "pageable_memcpy"});
  const nlohmann::json* dl = recommendation(f, "data_loading");
  REQUIRE(dl);
  CHECK((*dl)["evidence"]["numbers"]["dataloader_ns"] == 60000);
  CHECK((*dl)["evidence"]["numbers"]["share"] == 0.06);
  CHECK((*dl)["evidence"]["offenders"][0] == "ProfilerStep#1");
  CHECK((*dl)["text"].get<std::string>().find("6.0% of step time") != std::string::npos);
  const nlohmann::json* idle = recommendation(f, "gpu_idle");
  REQUIRE(idle);
  // Span [40,434) us, busy 171 us. The device's idle stretches, each by the op that ends it:
  // [90,112) add, launched at 105: host wait; [114,120) relu, launched at 111, and [125,150) the
  // allreduce (no launch), both under 30 us: kernel wait; [250,300) softmax, launched at 115: other;
  // [310,430) the memcpy, launched at 397: host wait. 142 + 31 + 50 = 223 us, the idle time exactly
  // (the streams' gaps add up to more: stream 20 idles while stream 7 runs).
  CHECK((*idle)["evidence"]["numbers"]["idle_ns"] == 223000);
  CHECK((*idle)["evidence"]["numbers"]["host_wait_ns"] == 142000);
  CHECK((*idle)["evidence"]["numbers"]["kernel_wait_ns"] == 31000);
  CHECK((*idle)["evidence"]["numbers"]["other_ns"] == 50000);
  CHECK((*idle)["evidence"]["offenders"][0] == "host_wait");
  CHECK((*idle)["evidence"]["ranges"][0] == nlohmann::json{{"begin_ns", 310000}, {"end_ns", 430000}});
  CHECK((*idle)["evidence"]["ranges"].size() == 5);
  const nlohmann::json& dev = f["idle"]["devices"][0];
  CHECK(dev["idle_ns"] == 223000);
  CHECK(dev["busy_ns"] == 171000);
  CHECK(dev["categories"]["host_wait"]["count"] == 2);
  CHECK(dev["longest_gaps"][1]["category"] == "other");  // [250,300)
  const nlohmann::json* comm = recommendation(f, "exposed_communication");
  REQUIRE(comm);
  CHECK((*comm)["evidence"]["offenders"][0] == "allreduce");
  CHECK((*comm)["evidence"]["ranges"][0] == nlohmann::json{{"begin_ns", 150000}, {"end_ns", 250000}});
  const nlohmann::json* sync = recommendation(f, "host_syncs");
  REQUIRE(sync);
  CHECK((*sync)["evidence"]["offenders"][0] == "aten::_local_scalar_dense");
  for (const auto& r : f["recommendations"]) {
    CHECK(!r["title"].get<std::string>().empty());
    CHECK(r["text"].get<std::string>().size() > 40);
    CHECK(std::set<std::string>{"high", "medium", "low"}.count(r["severity"].get<std::string>()) == 1);
  }
}

TEST_CASE("detail recommendations: with steps, only the host syncs inside them count, against the step time") {
  const nlohmann::json whole = details_of(detail_test::kSampleTrace);
  const nlohmann::json* in = recommendation(whole, "host_syncs");
  REQUIRE(in);
  CHECK((*in)["evidence"]["numbers"]["per_step"] == 1);
  CHECK((*in)["evidence"]["numbers"]["outside_steps"] == 0);
  CHECK((*in)["evidence"]["numbers"]["blocked_ns"] == 50000);
  CHECK((*in)["evidence"]["numbers"]["share"] == doctest::Approx(0.05));  // 50 us of the 1000 us step
  CHECK(
      (*in)["text"].get<std::string>().find(
          "1 host synchronisation in the profiler steps (1.0 per step) blocks the CPU for 50.0 us, 5.0% of the step time") !=
      std::string::npos);

  // A long sync after the last step (DeepSeek's train.json ends with a 17 ms cudaDeviceSynchronize,
  // the profiler's shut-down) is not counted: the evidence is the sync inside the step alone.
  const std::string step = "\"name\": \"ProfilerStep#1\", \"pid\": 1, \"tid\": 1, \"ts\": 0, \"dur\": 1000},";
  const std::string after = step +
                            "\n  {\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaDeviceSynchronize\", "
                            "\"pid\": 1, \"tid\": 1, \"ts\": 1100, \"dur\": 5000},";
  nlohmann::json f = details_of(replace(detail_test::kSampleTrace, step, after));
  CHECK(f["launches"]["host_syncs"]["count"] == 2);  // the launches section lists both
  const nlohmann::json* both = recommendation(f, "host_syncs");
  REQUIRE(both);
  CHECK((*both)["evidence"]["numbers"]["syncs"] == 1);
  CHECK((*both)["evidence"]["numbers"]["outside_steps"] == 1);
  CHECK((*both)["evidence"]["numbers"]["blocked_ns"] == 50000);
  CHECK((*both)["evidence"]["ranges"] == nlohmann::json::array({{{"begin_ns", 400000}, {"end_ns", 450000}}}));
  CHECK((*both)["evidence"]["offenders"] == nlohmann::json::array({"aten::_local_scalar_dense"}));
  CHECK((*both)["text"].get<std::string>().find(
            "1 more, outside the steps (the profiler's start-up or shut-down), is not counted.") != std::string::npos);

  // The step ends before its sync (at 390 us): no sync is in a step, no recommendation.
  nlohmann::json early =
      details_of(replace(detail_test::kSampleTrace, "\"ts\": 0, \"dur\": 1000", "\"ts\": 0, \"dur\": 390"));
  CHECK(early["launches"]["host_syncs"]["count"] == 1);
  CHECK(recommendation(early, "host_syncs") == nullptr);

  // Without steps every sync counts, against the whole trace ([0, 1000) us here too).
  nlohmann::json none = details_of(replace(detail_test::kSampleTrace, "\"ProfilerStep#1\"", "\"training loop\""));
  const nlohmann::json* all = recommendation(none, "host_syncs");
  REQUIRE(all);
  CHECK((*all)["evidence"]["numbers"]["per_step"] == 0);
  CHECK((*all)["text"].get<std::string>().find(
            "1 host synchronisation blocks the CPU for 50.0 us, 5.0% of the trace") != std::string::npos);
}

// A sync with no enclosing slice (here on a thread of its own) has no call site: its offender is
// null, not a name (no event is called "code outside any operator"); the sentence still says where.
TEST_CASE("detail recommendations: a host sync outside any operator has a null offender") {
  nlohmann::json f = details_of(replace(detail_test::kSampleTrace, "\"cudaStreamSynchronize\", \"pid\": 1, \"tid\": 1,",
                                        "\"cudaStreamSynchronize\", \"pid\": 1, \"tid\": 2,"));
  const nlohmann::json* r = recommendation(f, "host_syncs");
  REQUIRE(r);
  REQUIRE((*r)["evidence"]["offenders"].size() == 1);
  CHECK((*r)["evidence"]["offenders"][0].is_null());
  CHECK((*r)["text"].get<std::string>().find("called from code outside any operator (1 call, 50.0 us)") !=
        std::string::npos);
}

TEST_CASE("detail recommendations: memory peak above 90% of the device") {
  std::string t = replace(detail_test::kSampleTrace, "\"totalGlobalMem\": 10000", "\"totalGlobalMem\": 8500");
  nlohmann::json f = details_of(t);
  const nlohmann::json* r = recommendation(f, "memory_peak");
  REQUIRE(r);
  CHECK((*r)["evidence"]["numbers"]["peak_reserved_bytes"] == 8000);
  CHECK((*r)["evidence"]["ranges"][0]["begin_ns"] == 50000);
}

TEST_CASE("detail recommendations: no tensor cores on a capable device") {
  std::string t = replace(detail_test::kSampleTrace, "sm80_xmma_gemm_f16f16", "volta_sgemm_128x64_nn");
  nlohmann::json f = details_of(t);
  const nlohmann::json* r = recommendation(f, "no_tensor_cores");
  REQUIRE(r);
  CHECK((*r)["evidence"]["offenders"][0] == "volta_sgemm_128x64_nn");
  // Not on a device without tensor cores.
  t = replace(t, "\"computeMajor\": 8", "\"computeMajor\": 6");
  CHECK(recommendation(details_of(t), "no_tensor_cores") == nullptr);
}

// 20 launches of 1 us kernels, each launch call taking 5 us: launch-bound.
std::string launch_bound_trace() {
  std::string ev;
  for (int i = 0; i < 20; ++i) {
    int ts = i * 6;
    ev += R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":)" + std::to_string(ts) +
          R"(,"dur":5,"args":{"correlation":)" + std::to_string(i + 1) + "}},";
    ev += R"({"ph":"X","cat":"kernel","name":"tiny","pid":0,"tid":7,"ts":)" + std::to_string(ts + 5) +
          R"(,"dur":1,"args":{"correlation":)" + std::to_string(i + 1) + R"(,"device":0,"stream":7}},)";
  }
  ev.pop_back();
  return "[" + ev + "]";
}

TEST_CASE("detail recommendations: launch-bound") {
  nlohmann::json f = details_of(launch_bound_trace());
  CHECK(f["launches"]["launch_bound"] == true);
  const nlohmann::json* r = recommendation(f, "launch_bound");
  REQUIRE(r);
  CHECK((*r)["evidence"]["numbers"]["short_ops"] == 20);
  CHECK((*r)["evidence"]["offenders"][0] == "tiny");
}

TEST_CASE("detail recommendations: unbalanced micro-batch streams") {
  // Stream 7 busy 100 us, stream 8 busy 30 us, both computation, overlapping 30 us.
  std::string t = R"([
    {"ph":"X","cat":"kernel","name":"mb0","pid":0,"tid":7,"ts":0,"dur":100,"args":{"device":0,"stream":7}},
    {"ph":"X","cat":"kernel","name":"mb1","pid":0,"tid":8,"ts":10,"dur":30,"args":{"device":0,"stream":8}}])";
  nlohmann::json f = details_of(t);
  const nlohmann::json* r = recommendation(f, "unbalanced_micro_batches");
  REQUIRE(r);
  CHECK((*r)["evidence"]["numbers"]["overlap_ns"] == 30000);
  CHECK((*r)["evidence"]["numbers"]["imbalance"] == 0.7);
  // Balanced streams do not fire.
  t = replace(t, "\"dur\":30", "\"dur\":90");
  CHECK(recommendation(details_of(t), "unbalanced_micro_batches") == nullptr);
}

TEST_CASE("detail recommendations: nothing to say about a CPU-only trace") {
  nlohmann::json f = details_of(R"([{"ph":"X","name":"work","pid":1,"tid":1,"ts":0,"dur":10}])");
  CHECK(f["recommendations"].empty());
  CHECK(f["idle"].is_null());
  CHECK(f["kernels"].is_null());
  CHECK(f["launches"].is_null());
  CHECK(f["memory"].is_null());
  CHECK(f["collectives"].is_null());
  CHECK(f["step_breakdown"].is_null());
  CHECK(f["utilization"].is_null());
  CHECK(f["operators"]["top"].empty());
}

}  // namespace
}  // namespace tw
