// Sorting that takes advantage of presorted runs. Analyses often sort rows gathered track by track:
// slices are stored sorted by (track, start), so such a vector is a few ascending runs, one per
// track. Merging the runs costs O(n log runs) instead of O(n log n) and touches memory in order.
// Input that is not made of few runs is handed to std::sort.
// As with std::sort, the order of elements that compare equal is unspecified: use it only where
// such elements are interchangeable (identical, or the result does not depend on their order).
#pragma once
#include <algorithm>
#include <cstddef>
#include <vector>

namespace tw {

namespace detail {

// Sorts [v, v + n); `buf` holds n elements when runs are merged. Returns true when the sorted
// result ended in buf instead of v.
template <class T, class Less>
bool sort_runs_into(T* v, size_t n, Less less, std::vector<T>& buf) {
  if (n < 2) return false;
  // More runs than this and a comparison sort is as good: stop looking.
  const size_t max_runs = std::max<size_t>(16, n / 64);
  std::vector<size_t> bounds{0};
  for (size_t i = 1; i < n; ++i) {
    if (!less(v[i], v[i - 1])) continue;
    if (bounds.size() >= max_runs) {
      std::sort(v, v + n, less);
      return false;
    }
    bounds.push_back(i);
  }
  if (bounds.size() == 1) return false;  // already sorted
  bounds.push_back(n);
  // Bottom-up: merge neighbouring runs pairwise until one is left, ping-ponging between buffers.
  if (buf.size() < n) buf.resize(n);
  T* src = v;
  T* dst = buf.data();
  std::vector<size_t> next;
  while (bounds.size() > 2) {
    next.clear();
    size_t k = 0;
    for (; k + 2 < bounds.size(); k += 2) {
      std::merge(src + bounds[k], src + bounds[k + 1], src + bounds[k + 1], src + bounds[k + 2], dst + bounds[k], less);
      next.push_back(bounds[k]);
    }
    if (k + 1 < bounds.size()) {  // an odd run out: copied as is
      std::copy(src + bounds[k], src + bounds[k + 1], dst + bounds[k]);
      next.push_back(bounds[k]);
    }
    next.push_back(n);
    bounds.swap(next);
    std::swap(src, dst);
  }
  return src != v;
}

}  // namespace detail

template <class T, class Less>
void sort_runs(std::vector<T>& v, Less less) {
  std::vector<T> buf;
  if (detail::sort_runs_into(v.data(), v.size(), less, buf)) {
    buf.resize(v.size());
    v.swap(buf);
  }
}

// The same for each of the ranges [v + bounds[k], v + bounds[k + 1]) of v (bounds ascending, the
// last one <= v.size()), one merge buffer for all.
template <class T, class Less>
void sort_runs_each(std::vector<T>& v, const std::vector<size_t>& bounds, Less less) {
  std::vector<T> buf;
  for (size_t k = 0; k + 1 < bounds.size(); ++k) {
    T* first = v.data() + bounds[k];
    const size_t n = bounds[k + 1] - bounds[k];
    if (detail::sort_runs_into(first, n, less, buf)) std::copy(buf.begin(), buf.begin() + n, first);
  }
}

}  // namespace tw
