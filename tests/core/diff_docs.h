// Summary documents made in the test, with exactly the fields the run comparison reads
// (core/diff/diff_side.cc): per step a duration, the GPU span's idle / compute / exposed
// communication / overlap, and per-step times of named kernels and operators.
#pragma once
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace tw::test {

struct CraftStep {
  int64_t duration_ns = 0;
  int64_t idle_ns = 0;
  int64_t compute_ns = 0;
  int64_t exposed_comm_ns = 0;
  int64_t overlapped_ns = 0;
  std::map<std::string, int64_t> kernels;    // short name -> time in the step
  std::map<std::string, int64_t> operators;  // idem
};

// Deterministic noise in [-1, 1] for step i of a series (no <random>: identical on every platform).
inline double noise(uint64_t seed, size_t i) {
  uint64_t x = seed * 0x9E3779B97F4A7C15ull + i * 0xBF58476D1CE4E5B9ull + 1;
  x ^= x >> 31;
  x *= 0x94D049BB133111EBull;
  x ^= x >> 29;
  return static_cast<double>(x % 2001) / 1000.0 - 1.0;
}

inline nlohmann::json craft_file(const std::vector<CraftStep>& steps, int64_t rank = 0,
                                 const std::string& gpu = "NVIDIA H100 80GB HBM3") {
  using nlohmann::json;
  json breakdown = json::array(), details = json::array();
  std::map<std::string, json> kernels, operators;
  int64_t t = 1'000'000'000, gpu_total = 0;
  for (size_t i = 0; i < steps.size(); ++i) {
    const CraftStep& s = steps[i];
    const int64_t number = 100 + static_cast<int64_t>(i);
    breakdown.push_back(
        {{"number", number}, {"begin_ns", t}, {"end_ns", t + s.duration_ns}, {"duration_ns", s.duration_ns}});
    details.push_back(
        {{"number", number},
         {"temporal",
          {{"span_ns", s.duration_ns},
           {"idle_ns", s.idle_ns},
           {"compute_ns", s.compute_ns},
           {"exposed", {{"communication_ns", s.exposed_comm_ns}}},
           {"classes_ns", {{"computation", s.compute_ns}, {"communication", s.exposed_comm_ns + s.overlapped_ns}}}}},
         {"overlap", {{"overlapped_ns", s.overlapped_ns}}}});
    auto add = [&](std::map<std::string, json>& into, const std::string& name, int64_t ns, bool kernel) {
      json& row = into[name];
      if (row.is_null()) {
        row = {{"name", name}, {"variants", 1}, {"count", 0}, {"total_ns", 0}, {"steps_ns", json::array()}};
        if (kernel) row["kind"] = "kernel", row["class"] = "computation";
        else row["self_ns"] = 0;
        for (size_t k = 0; k < steps.size(); ++k) row["steps_ns"].push_back(0);
      }
      row["count"] = row["count"].get<int64_t>() + 1;
      row["total_ns"] = row["total_ns"].get<int64_t>() + ns;
      row["steps_ns"][i] = ns;
      if (!kernel) row["self_ns"] = row["self_ns"].get<int64_t>() + ns;
    };
    for (const auto& [n, ns] : s.kernels) add(kernels, n, ns, true), gpu_total += ns;
    for (const auto& [n, ns] : s.operators) add(operators, n, ns, false);
    t += s.duration_ns;
  }
  json k = json::array(), o = json::array();
  for (auto& [n, row] : kernels) k.push_back(row);
  for (auto& [n, row] : operators) o.push_back(row);
  return {{"name", "rank" + std::to_string(rank) + ".json"},
          {"rank", rank},
          {"devices", {{{"name", gpu}}}},
          {"analysis_mode", {{"name", "default"}}},
          {"model", {{"first_ts_ns", 1'000'000'000}, {"last_ts_ns", t}}},
          {"kernels", {{"total_ns", gpu_total}}},
          {"temporal", {{"span_ns", t - 1'000'000'000}, {"idle_ns", 0}, {"compute_ns", 0}}},
          {"step_breakdown", {{"steps", breakdown}}},
          {"steps", details},
          {"by_name", {{"step_columns", steps.size()}, {"kernels", k}, {"operators", o}}}};
}

inline nlohmann::json craft_doc(const std::vector<nlohmann::json>& files) {
  return {{"schema", "tracewise.summary/1"}, {"files", files}};
}

// `n` steps of a training loop: 100 ms steps, a GEMM of 40 ms, an all-reduce of 10 ms (8 hidden),
// 3 % idle; `jitter` is the relative noise of every time, `gemm_factor` scales the GEMM (and the step
// by the same amount of time).
inline std::vector<CraftStep> training_steps(size_t n, uint64_t seed, double jitter, double gemm_factor = 1.0,
                                             double idle_share = 0.03) {
  std::vector<CraftStep> out;
  for (size_t i = 0; i < n; ++i) {
    const double wobble = 1 + jitter * noise(seed, i);
    CraftStep s;
    const int64_t gemm = static_cast<int64_t>(40'000'000 * wobble * gemm_factor);
    const int64_t extra = gemm - static_cast<int64_t>(40'000'000 * wobble);
    s.duration_ns = static_cast<int64_t>(100'000'000 * wobble) + extra;
    s.idle_ns = static_cast<int64_t>(static_cast<double>(s.duration_ns) * idle_share);
    s.compute_ns = static_cast<int64_t>(70'000'000 * wobble) + extra;
    s.exposed_comm_ns = static_cast<int64_t>(2'000'000 * wobble);
    s.overlapped_ns = static_cast<int64_t>(8'000'000 * wobble);
    s.kernels = {
        {"sm90_xmma_gemm", gemm},
        {"ncclDevKernel_AllReduce_Sum_bf16_RING_LL", static_cast<int64_t>(10'000'000 * wobble)},
        {"at::native::vectorized_elementwise_kernel<at::native::FillFunctor>", static_cast<int64_t>(100'000 * wobble)}};
    s.operators = {{"aten::mm", gemm + 1'000'000}, {"aten::fill_", static_cast<int64_t>(150'000 * wobble)}};
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace tw::test
