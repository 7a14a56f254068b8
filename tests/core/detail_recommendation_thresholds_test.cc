// Recommendation thresholds against the basis the page shows (recommendations.h): for each rule whose
// threshold moved, a trace just under it that must stay quiet and one over it that must fire, with
// the severity the page's cards agree with.
#include <doctest/doctest.h>

#include <string>

#include "tests/core/detail_sample_trace.h"
#include "tests/core/detail_summary_util.h"

namespace tw {
namespace {

using detail_test::details_of;
using detail_test::recommendation;
using detail_test::TraceText;

constexpr const char* kAllReduce =
    R"("device": 0, "stream": 20, "Collective name": "allreduce", "In msg nelems": 1000, "Out msg nelems": 1000, "dtype": "Float", "Group size": 4)";

// Computation on [0, 1000 - exposed) us, then a collective no computation hides.
nlohmann::json exposed_comm(double exposed_us) {
  TraceText t;
  t.kernel("elementwise_kernel", 0, 1000 - exposed_us);
  t.x("kernel", "ncclDevKernel_AllReduce_Sum_f32_RING_LL", 0, 20, 1000 - exposed_us, exposed_us, kAllReduce);
  return details_of(t.text());
}

TEST_CASE("recommendation thresholds: exposed communication, with the card's tones") {
  CHECK(recommendation(exposed_comm(40), "exposed_communication") == nullptr);  // 4%: the card is green
  const nlohmann::json f7 = exposed_comm(70);                                   // 7%: amber
  REQUIRE(recommendation(f7, "exposed_communication"));
  CHECK((*recommendation(f7, "exposed_communication"))["severity"] == "low");
  const nlohmann::json f15 = exposed_comm(150);  // 15%: red (the issue's 18.9% was rated low)
  REQUIRE(recommendation(f15, "exposed_communication"));
  CHECK((*recommendation(f15, "exposed_communication"))["severity"] == "medium");
  const nlohmann::json f30 = exposed_comm(300);
  REQUIRE(recommendation(f30, "exposed_communication"));
  CHECK((*recommendation(f30, "exposed_communication"))["severity"] == "high");
}

// A busy step with `n` host syncs of `dur` us each inside it.
nlohmann::json syncs(int n, double dur) {
  TraceText t;
  t.step(1, 0, 1000).kernel("elementwise_kernel", 0, 1000);
  for (int i = 0; i < n; ++i) t.x("cuda_runtime", "cudaStreamSynchronize", 1, 1, 10 + 50 * i, dur, "");
  return details_of(t.text());
}

TEST_CASE("recommendation thresholds: frequent host syncs fire only when they block a real share") {
  // 12 per step blocking 0.12% of it: the issue's "frequent host synchronisations" at 0.04%.
  CHECK(recommendation(syncs(12, 0.1), "host_syncs") == nullptr);
  const nlohmann::json f = syncs(12, 1);  // 1.2%
  const nlohmann::json* r = recommendation(f, "host_syncs");
  REQUIRE(r);
  CHECK((*r)["title"] == "Frequent host synchronisations");
  CHECK((*r)["severity"] == "low");
  CHECK(recommendation(syncs(3, 10), "host_syncs") == nullptr);  // 3% and 3 per step
  CHECK(recommendation(syncs(3, 20), "host_syncs") != nullptr);  // 6%
}

TEST_CASE("recommendation thresholds: pageable copies fire from 1% of the step time") {
  // The sample's pageable copy is 4 us of its 1000 us step (0.4%): quiet. 40 us (4%) fires.
  CHECK(recommendation(details_of(detail_test::kSampleTrace), "pageable_memcpy") == nullptr);
  std::string t = detail_test::kSampleTrace;
  const std::string from = "\"ts\": 430, \"dur\": 4,";
  REQUIRE(t.find(from) != std::string::npos);
  t.replace(t.find(from), from.size(), "\"ts\": 430, \"dur\": 40,");
  const nlohmann::json f = details_of(t);
  const nlohmann::json* r = recommendation(f, "pageable_memcpy");
  REQUIRE(r);
  CHECK((*r)["severity"] == "medium");
  CHECK((*r)["evidence"]["numbers"]["share"] == 0.04);
}

TEST_CASE("recommendation thresholds: GPU idle is judged over the steps") {
  // Busy 100% of its span, idle 60% of the step: fires (the verdict test has the numbers).
  TraceText host;
  host.step(1, 0, 1000).cpu("preprocess", 0, 590).kernel("elementwise_kernel", 600, 400, 7, 595);
  CHECK(recommendation(details_of(host.text()), "gpu_idle") != nullptr);
  // Idle 15% of the step: quiet, although idle is 100% of nothing in the span.
  TraceText busy;
  busy.step(1, 0, 1000).kernel("elementwise_kernel", 150, 850, 7, 100);
  CHECK(recommendation(details_of(busy.text()), "gpu_idle") == nullptr);
}

}  // namespace
}  // namespace tw
