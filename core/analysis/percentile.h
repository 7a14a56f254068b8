// Nearest-rank percentiles over integer nanoseconds (never interpolated: every reported value is
// one that occurred). `sorted` must be ascending and non-empty; p in [0, 100].
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tw {

// Where the nearest-rank percentile p of n > 0 values sits in sorted order.
inline size_t percentile_index(size_t n, double p) {
  if (p <= 0) return 0;
  double rank = p / 100.0 * static_cast<double>(n);
  size_t k = static_cast<size_t>(rank);
  if (static_cast<double>(k) < rank) ++k;  // ceil
  return std::min(std::max<size_t>(k, 1), n) - 1;
}

inline int64_t percentile_sorted(const int64_t* sorted, size_t n, double p) {
  return n == 0 ? 0 : sorted[percentile_index(n, p)];
}

// The value that sorted order puts at index k of [v, v + n), in O(n) (nth_element), reordering v.
// Several percentiles are taken in ascending k, each passing the previous k + 1 as `from`: after
// nth_element at j, everything past j belongs past j, so a higher one only partitions that tail.
inline int64_t select_sorted_index(int64_t* v, size_t n, size_t from, size_t k) {
  std::nth_element(v + from, v + k, v + n);
  return v[k];
}

inline int64_t percentile_sorted(const std::vector<int64_t>& v, double p) {
  return percentile_sorted(v.data(), v.size(), p);
}

}  // namespace tw
