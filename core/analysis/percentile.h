// Nearest-rank percentiles over integer nanoseconds (never interpolated: every reported value is
// one that occurred). `sorted` must be ascending and non-empty; p in [0, 100].
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tw {

inline int64_t percentile_sorted(const int64_t* sorted, size_t n, double p) {
  if (n == 0) return 0;
  if (p <= 0) return sorted[0];
  double rank = p / 100.0 * static_cast<double>(n);
  size_t k = static_cast<size_t>(rank);
  if (static_cast<double>(k) < rank) ++k;  // ceil
  if (k == 0) k = 1;
  if (k > n) k = n;
  return sorted[k - 1];
}

inline int64_t percentile_sorted(const std::vector<int64_t>& v, double p) {
  return percentile_sorted(v.data(), v.size(), p);
}

}  // namespace tw
