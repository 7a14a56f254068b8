// finish()'s launch links (link_launches): each GPU op to the runtime call (cuda_runtime or
// cuda_driver) with its Kineto correlation, the first such slice in model order when two share it;
// against a brute-force join on a generated trace whose correlations rise, fall, repeat on both
// sides, match nothing, or do not fit 32 bits.
#include <doctest/doctest.h>

#include <map>
#include <random>
#include <string>

#include "tests/core/import_fingerprint.h"

namespace tw {
namespace {

std::vector<LaunchLink> brute_force(const TraceModel& m) {
  const SliceTable& s = m.slices;
  std::map<int64_t, uint32_t> first_launch;
  for (uint32_t i = 0; i < s.size(); ++i)
    if ((s.kind_at(i) == EventKind::kCudaRuntime || s.kind_at(i) == EventKind::kCudaDriver) &&
        s.correlation_at(i) != kNoId)
      first_launch.emplace(s.correlation_at(i), i);
  std::vector<LaunchLink> links;
  for (uint32_t row = 0; row < m.gpu_ops.size(); ++row) {
    const uint32_t g = m.gpu_ops.slice[row];
    const auto it = first_launch.find(s.correlation_at(g));
    if (s.correlation_at(g) != kNoId && it != first_launch.end()) links.push_back({it->second, g});
  }
  return links;
}

std::string generated_trace(uint32_t seed) {
  std::mt19937 rng(seed);
  std::string t = R"({"traceEvents": [)";
  auto add = [&t](const std::string& ev) { t += (t.back() == '[' ? "" : ",") + ev; };
  constexpr int kLaunches = 2000;
  auto corr_of = [](int i) {
    const int64_t c = i % 5 == 0   ? int64_t(i)
                      : i % 5 == 1 ? int64_t(kLaunches - i)
                                   : int64_t(i / 3);  // rise, fall, repeat
    return i % 97 == 0 ? c + (int64_t(1) << 40) : c;  // some wide
  };
  for (int i = 0; i < kLaunches; ++i) {
    const char* cat = i % 11 == 0 ? "cuda_driver" : "cuda_runtime";
    const std::string corr = i % 53 == 0 ? "" : R"(,"args":{"correlation":)" + std::to_string(corr_of(i)) + "}";
    add(R"({"ph":"X","cat":")" + std::string(cat) + R"(","name":"cudaLaunchKernel","pid":1,"tid":)" +
        std::to_string(1 + i % 3) + R"(,"ts":)" + std::to_string(rng() % 100000) + R"(,"dur":2)" + corr + "}");
  }
  // GPU ops on two streams, each a launch's correlation, one no launch has, or none; a cpu_op
  // carrying a correlation is no launch.
  for (int i = 0; i < kLaunches; ++i) {
    const int64_t c = i % 7 == 0 ? int64_t(900000 + i) : corr_of(static_cast<int>(rng() % kLaunches));
    const std::string corr = i % 31 == 0 ? "" : R"(,"correlation":)" + std::to_string(c);
    add(R"({"ph":"X","cat":"kernel","name":"k","pid":0,"tid":)" + std::to_string(7 + i % 2) + R"(,"ts":)" +
        std::to_string(200000 + rng() % 100000) + R"(,"dur":1,"args":{"device":0,"stream":)" +
        std::to_string(7 + i % 2) + corr + "}}");
    if (i % 13 == 0)
      add(R"({"ph":"X","cat":"cpu_op","name":"op","pid":1,"tid":4,"ts":)" + std::to_string(i) +
          R"(,"dur":1,"args":{"correlation":)" + std::to_string(c) + "}}");
  }
  return t + "]}";
}

}  // namespace

TEST_CASE("launch links: each GPU op to the first runtime call with its correlation, as a brute-force join") {
  for (uint32_t seed = 1; seed <= 3; ++seed) {
    CAPTURE(seed);
    test::ImporterPtr imp = test::import_whole(generated_trace(seed));
    const TraceModel& m = imp->model();
    const std::vector<LaunchLink> want = brute_force(m);
    REQUIRE(want.size() > 1000);
    REQUIRE(m.launches.size() == want.size());
    size_t same = 0;
    for (size_t k = 0; k < want.size(); ++k) {
      same += m.launches[k].launch_slice == want[k].launch_slice && m.launches[k].gpu_slice == want[k].gpu_slice;
    }
    CHECK(same == want.size());
  }
}

}  // namespace tw
