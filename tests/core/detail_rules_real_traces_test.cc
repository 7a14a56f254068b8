// Each recommendation rule and each verdict on real traces of tests/data: one trace where the rule
// must fire and one where it must not (the small crafted traces of detail_recommendations_test.cc and
// detail_recommendation_thresholds_test.cc pin the thresholds; these pin what users see on real runs).
#include <doctest/doctest.h>

#include <map>
#include <string>

#include "core/summary/detail_sections.h"
#include "tests/core/detail_summary_util.h"

namespace tw {
namespace {

using detail_test::recommendation;

const nlohmann::json& details(const std::string& rel) {
  static std::map<std::string, nlohmann::json> cache;
  auto it = cache.find(rel);
  if (it != cache.end()) return it->second;
  nlohmann::json f = nlohmann::json::object();
  add_detail_sections(f, detail_test::data_trace(rel), SummaryOptions{});
  return cache.emplace(rel, std::move(f)).first->second;
}

bool fires(const std::string& rel, const std::string& rule) { return recommendation(details(rel), rule) != nullptr; }

const std::string kDeepSeek = "deepseek_profile_data/train.json.gz";  // H800, DualPipe, 99.6% busy
const std::string kResnetLoader =
    "kineto/tb_plugin/samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz";
const std::string kResnet4 = "kineto/tb_plugin/samples/resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz";
const std::string kResnetAutograd =
    "kineto/tb_plugin/samples/resnet50_autograd_api_num_workers_0/worker0.pt.trace.json.gz";
const std::string kResnetProfiler4 =
    "kineto/tb_plugin/samples/resnet50_profiler_api_num_workers_4/worker0.pt.trace.json.gz";
const std::string kSampledRank0 = "hta/tests/data/trace_filter/sampled_rank-0.json.gz";
const std::string kNccl = "hta/tests/data/nccl_parser_config/nccl_data.json.gz";
const std::string kMtia = "hta/tests/data/mtia_trace_single_rank/mtia_rank_0.json.gz";
const std::string kMi250 = "hta/tests/data/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz";
const std::string kCpuOnly = "hta/tests/data/cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz";
const std::string kAllReduceOnly = "hta/tests/data/large_integer_trace/rank-70.Mar_25_20_48_12.2861.pt.trace.json.gz";

TEST_CASE("rules on real traces: each fires on one and stays quiet on another") {
  CHECK(fires(kResnetLoader, "data_loading"));  // 33.9% of step time in the DataLoader
  CHECK(!fires(kResnet4, "data_loading"));      // four workers
  CHECK(fires(kSampledRank0, "exposed_communication"));
  CHECK(!fires(kDeepSeek, "exposed_communication"));  // 96% of communication under computation
  CHECK(fires(kNccl, "gpu_idle"));
  CHECK(!fires(kDeepSeek, "gpu_idle"));
  CHECK(fires(kMtia, "launch_bound"));
  CHECK(!fires(kDeepSeek, "launch_bound"));
  CHECK(fires(kResnetAutograd, "host_syncs"));
  CHECK(!fires(kResnet4, "host_syncs"));
  CHECK(fires(kResnetProfiler4, "pageable_memcpy"));
  CHECK(!fires(kDeepSeek, "pageable_memcpy"));
  CHECK(!fires(kResnetLoader, "memory_peak"));  // memory events, far below the V100's 32 GB
  // DeepSeek's two micro-batches overlap on two computation streams of about equal work.
  CHECK(!fires(kDeepSeek, "unbalanced_micro_batches"));
  // (memory_peak and unbalanced_micro_batches fire on no real trace here: their crafted traces
  // are in detail_recommendations_test.cc.)
}

TEST_CASE("verdicts on real traces") {
  auto limiter = [](const std::string& rel) { return details(rel)["verdict"]["limiter"].get<std::string>(); };
  CHECK(limiter(kDeepSeek) == "compute");
  CHECK(limiter(kResnetLoader) == "data_loader");
  CHECK(limiter(kMi250) == "launch");
  CHECK(limiter(kSampledRank0) == "host");
  CHECK(limiter(kAllReduceOnly) == "communication");
  CHECK(limiter(kCpuOnly) == "cpu_only");
  // DeepSeek's overlap is said first: the step's kernels, and how much communication they hide.
  const std::string s = details(kDeepSeek)["verdict"]["sentence"].get<std::string>();
  CHECK(s.rfind("GPU compute-bound: kernels run 97.1% of the step time.", 0) == 0);
  CHECK(s.find("Communication runs under computation for 96.3% of its time.") != std::string::npos);
}

}  // namespace
}  // namespace tw
