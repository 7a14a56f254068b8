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

template <class T, class Less>
void sort_runs(std::vector<T>& v, Less less) {
  const size_t n = v.size();
  if (n < 2) return;
  // More runs than this and a comparison sort is as good: stop looking.
  const size_t max_runs = std::max<size_t>(16, n / 64);
  std::vector<size_t> bounds{0};
  for (size_t i = 1; i < n; ++i) {
    if (!less(v[i], v[i - 1])) continue;
    if (bounds.size() >= max_runs) {
      std::sort(v.begin(), v.end(), less);
      return;
    }
    bounds.push_back(i);
  }
  if (bounds.size() == 1) return;  // already sorted
  bounds.push_back(n);
  // Bottom-up: merge neighbouring runs pairwise until one is left, ping-ponging between buffers.
  std::vector<T> buf(n);
  std::vector<T>* src = &v;
  std::vector<T>* dst = &buf;
  std::vector<size_t> next;
  while (bounds.size() > 2) {
    next.clear();
    size_t k = 0;
    for (; k + 2 < bounds.size(); k += 2) {
      std::merge(src->begin() + bounds[k], src->begin() + bounds[k + 1], src->begin() + bounds[k + 1],
                 src->begin() + bounds[k + 2], dst->begin() + bounds[k], less);
      next.push_back(bounds[k]);
    }
    if (k + 1 < bounds.size()) {  // an odd run out: copied as is
      std::copy(src->begin() + bounds[k], src->begin() + bounds[k + 1], dst->begin() + bounds[k]);
      next.push_back(bounds[k]);
    }
    next.push_back(n);
    bounds.swap(next);
    std::swap(src, dst);
  }
  if (src != &v) v.swap(buf);
}

}  // namespace tw
