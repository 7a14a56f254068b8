#include "core/diff/rank_test.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace tw {
namespace {

// Ranks of the pooled samples (midranks for ties): sum of the candidate's ranks, and the tie term
// sum(t^3 - t) of the variance correction.
struct Ranks {
  double cand_rank_sum = 0;
  double tie_term = 0;
};

Ranks pooled_ranks(const std::vector<double>& base, const std::vector<double>& cand) {
  std::vector<std::pair<double, bool>> all;  // (value, from candidate)
  all.reserve(base.size() + cand.size());
  for (double v : base) all.push_back({v, false});
  for (double v : cand) all.push_back({v, true});
  std::sort(all.begin(), all.end());
  Ranks r;
  for (size_t i = 0; i < all.size();) {
    size_t j = i;
    while (j < all.size() && all[j].first == all[i].first) ++j;
    const double t = static_cast<double>(j - i);
    const double mid = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2;  // 1-based midrank
    for (size_t k = i; k < j; ++k)
      if (all[k].second) r.cand_rank_sum += mid;
    r.tie_term += t * t * t - t;
    i = j;
  }
  return r;
}

// P(U <= u) under the null hypothesis, without ties: count the arrangements of n baseline and m
// candidate values whose U statistic is at most u (the classic recurrence, over U up to n*m).
double exact_cdf(size_t n, size_t m, double u) {
  const size_t max_u = n * m;
  // f[i][j][k]: arrangements of i and j values with U = k; rolled over j.
  std::vector<std::vector<double>> prev(n + 1, std::vector<double>(max_u + 1, 0)), cur = prev;
  for (size_t i = 0; i <= n; ++i) prev[i][0] = 1;  // j = 0: U = 0 in one way
  for (size_t j = 1; j <= m; ++j) {
    for (size_t i = 0; i <= n; ++i) {
      std::fill(cur[i].begin(), cur[i].end(), 0.0);
      for (size_t k = 0; k <= i * j; ++k) {
        // The largest value comes from the candidate (adds i to U) or from the baseline.
        double v = k >= i ? prev[i][k - i] : 0.0;
        if (i > 0) v += cur[i - 1][k];
        cur[i][k] = v;
      }
    }
    std::swap(prev, cur);
  }
  double below = 0, total = 0;
  for (size_t k = 0; k <= max_u; ++k) {
    total += prev[n][k];
    if (static_cast<double>(k) <= u + 1e-9) below += prev[n][k];
  }
  return below / total;
}

double median_of(std::vector<double>& v, size_t k) {
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k];
}

}  // namespace

double normal_two_sided_p(double z) { return std::erfc(std::fabs(z) / std::sqrt(2.0)); }

double normal_quantile(double p) {
  // Bisection on the CDF: slow but exact enough and free of platform-specific approximations.
  double lo = -40, hi = 40;
  for (int i = 0; i < 200; ++i) {
    const double mid = (lo + hi) / 2;
    const double cdf = 0.5 * std::erfc(-mid / std::sqrt(2.0));
    (cdf < p ? lo : hi) = mid;
  }
  return (lo + hi) / 2;
}

std::optional<RankTest> rank_test(const std::vector<double>& base, const std::vector<double>& cand, double confidence) {
  const size_t n = base.size(), m = cand.size();
  if (n < kMinTestSamples || m < kMinTestSamples) return std::nullopt;
  RankTest t;
  const Ranks r = pooled_ranks(base, cand);
  const double nd = static_cast<double>(n), md = static_cast<double>(m), total = nd + md;
  const double u = r.cand_rank_sum - md * (md + 1) / 2;  // pairs where the candidate is larger
  const double mean = nd * md / 2;
  if (r.tie_term == 0 && n * m <= kExactPairs) {
    t.exact = true;
    const double low = exact_cdf(n, m, u);
    const double high = 1 - exact_cdf(n, m, u - 1);  // P(U >= u)
    t.p_value = std::min(1.0, 2 * std::min(low, high));
  } else {
    const double var = nd * md / 12 * ((total + 1) - r.tie_term / (total * (total - 1)));
    if (var <= 0) {
      t.p_value = 1;
    } else {
      const double z = std::max(0.0, std::fabs(u - mean) - 0.5) / std::sqrt(var);
      t.p_value = std::min(1.0, normal_two_sided_p(z));
    }
  }

  // Hodges–Lehmann over every pairwise difference, and the order statistics that bound it.
  std::vector<double> d;
  d.reserve(n * m);
  for (double c : cand)
    for (double b : base) d.push_back(c - b);
  const size_t pairs = d.size();
  t.shift = pairs % 2 ? median_of(d, pairs / 2) : (median_of(d, pairs / 2 - 1) + median_of(d, pairs / 2)) / 2;
  const double z = normal_quantile(1 - (1 - confidence) / 2);
  const double k = std::floor(mean - z * std::sqrt(nd * md * (total + 1) / 12));
  const size_t lo = k <= 0 ? 0 : std::min(pairs - 1, static_cast<size_t>(k));
  t.ci_low = median_of(d, lo);
  t.ci_high = median_of(d, pairs - 1 - lo);
  return t;
}

}  // namespace tw
