// Is a change real or noise? The Mann–Whitney rank test of two independent samples (per-step values
// of a baseline and a candidate run) and the Hodges–Lehmann estimate of the shift between them with
// its distribution-free confidence interval. Deterministic (no resampling), so the native and wasm
// builds agree; callers round what they print (the normal tail goes through libm's erfc).
#pragma once
#include <cstddef>
#include <optional>
#include <vector>

namespace tw {

constexpr size_t kMinTestSamples = 5;  // below this on either side there is no noise estimate

struct RankTest {
  double shift = 0;   // Hodges–Lehmann: median of all (candidate - baseline) differences
  double ci_low = 0;  // confidence interval of the shift at the requested level
  double ci_high = 0;
  double p_value = 1;  // two-sided
  bool exact = false;  // exact U distribution (no ties, at most kExactPairs pairs)
};

constexpr size_t kExactPairs = 400;

// nullopt when either side has fewer than kMinTestSamples values. `confidence` in (0, 1).
std::optional<RankTest> rank_test(const std::vector<double>& base, const std::vector<double>& cand, double confidence);

// Two-sided p of a standard normal deviate, and its inverse (for the interval's z).
double normal_two_sided_p(double z);
double normal_quantile(double p);

}  // namespace tw
