// Sorting that takes advantage of presorted runs. Analyses often sort rows gathered track by track:
// slices are stored sorted by (track, start), so such a vector is a few ascending runs, one per
// track. Merging the runs costs O(n log runs) instead of O(n log n) and touches memory in order;
// runs that overlap no other run are not moved at all.
// Input that is not made of few runs is handed to std::sort.
// As with std::sort, the order of elements that compare equal is unspecified: use it only where
// such elements are interchangeable (identical, or the result does not depend on their order).
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tw {

namespace detail {

// Merges the ascending runs of [v, v + n) that start at the offsets in `runs` (runs[0] == 0, and
// n last), bottom-up, pairwise, ping-ponging with buf (>= n elements); the result ends in v.
template <class T, class Less>
void merge_runs(T* v, size_t n, std::vector<size_t> runs, Less less, T* buf) {
  T* src = v;
  T* dst = buf;
  std::vector<size_t> next;
  while (runs.size() > 2) {
    next.clear();
    size_t k = 0;
    for (; k + 2 < runs.size(); k += 2) {
      std::merge(src + runs[k], src + runs[k + 1], src + runs[k + 1], src + runs[k + 2], dst + runs[k], less);
      next.push_back(runs[k]);
    }
    if (k + 1 < runs.size()) {  // an odd run out: copied as is
      std::copy(src + runs[k], src + runs[k + 1], dst + runs[k]);
      next.push_back(runs[k]);
    }
    next.push_back(n);
    runs.swap(next);
    std::swap(src, dst);
  }
  if (src != v) std::copy(src, src + n, v);
}

// Moves each element that is at most `reach` places after where it belongs among the elements
// before it into place (an insertion sort that leaves anything farther out where it is). Rows with
// equal times ordered by another key make many tiny runs, each a neighbour or two out of place:
// afterwards only the real runs are left, at a cost of at most `reach` moves per element.
template <class T, class Less>
void settle_locally(T* v, size_t n, Less less, size_t reach) {
  for (size_t i = 1; i < n; ++i) {
    if (!less(v[i], v[i - 1])) continue;
    size_t j = i - 1;
    const size_t stop = i > reach ? i - reach : 0;
    while (j > stop && less(v[i], v[j - 1])) --j;
    if (j > 0 && less(v[i], v[j - 1])) continue;  // farther back than reach: a run of its own
    std::rotate(v + j, v + i, v + i + 1);
  }
}

// The starts of the ascending runs of [v, v + n) (0 first), or false when there are more than
// `max_runs`.
template <class T, class Less>
bool find_runs(const T* v, size_t n, Less less, size_t max_runs, std::vector<size_t>& bounds) {
  bounds.assign(1, 0);
  for (size_t i = 1; i < n; ++i) {
    if (!less(v[i], v[i - 1])) continue;
    if (bounds.size() >= max_runs) return false;
    bounds.push_back(i);
  }
  return true;
}

// Sorts [v, v + n) in place; buf is scratch, grown as needed.
template <class T, class Less>
void sort_runs_into(T* v, size_t n, Less less, std::vector<T>& buf) {
  if (n < 2) return;
  // More runs than this and merging them is no better than a comparison sort: unless they were
  // only neighbours out of place, settled in one pass, stop looking.
  const size_t max_runs = std::max<size_t>(16, n / 64);
  std::vector<size_t> bounds;
  if (!find_runs(v, n, less, max_runs, bounds)) {
    settle_locally(v, n, less, 8);
    if (!find_runs(v, n, less, max_runs, bounds)) {
      std::sort(v, v + n, less);
      return;
    }
  }
  if (bounds.size() == 1) return;  // already sorted
  bounds.push_back(n);
  const size_t runs = bounds.size() - 1;
  // Only what overlaps needs merging. A cut between positions p - 1 and p is valid where nothing
  // before it is greater than anything after it; then the two sides are sorted apart. Disorder in
  // traces is local (rows written a little out of order), so cuts abound and each stretch between
  // two costs log2(its runs) passes over itself instead of log2(all runs) passes over everything.
  // A cut never falls on a run boundary (a descent), but inside a run: in run r at p, with PM the
  // largest element of runs before r (their last ones) and MA the smallest of runs after it (their
  // first ones), it is valid when PM <= v[p] and v[p - 1] <= MA (v ascends within the run).
  std::vector<size_t> min_first_after(runs + 1, SIZE_MAX);  // index in v, SIZE_MAX: none
  for (size_t r = runs; r-- > 1;) {
    const size_t f = bounds[r], m = min_first_after[r + 1];
    min_first_after[r] = m == SIZE_MAX || less(v[f], v[m]) ? f : m;
  }
  std::vector<size_t> pieces{0};  // run starts and cuts, in order: the pieces of the stretch so far
  size_t stretch = 0;             // where the current stretch starts
  size_t max_last = SIZE_MAX;     // index in v of the largest element of the runs before r
  auto close_stretch = [&](size_t end) {
    if (pieces.size() > 1) {                  // two or more pieces: merge them
      for (size_t& q : pieces) q -= stretch;  // offsets in the stretch, its size last
      pieces.push_back(end - stretch);
      if (buf.size() < end - stretch) buf.resize(end - stretch);
      merge_runs(v + stretch, end - stretch, std::move(pieces), less, buf.data());
    }
    stretch = end;
    pieces.assign(1, end);
  };
  for (size_t r = 0; r < runs; ++r) {
    const size_t begin = bounds[r], end = bounds[r + 1], ma = min_first_after[r + 1];
    if (r > 0) pieces.push_back(begin);
    // The earliest p in (begin, end) with PM <= v[p]; later ones only make v[p - 1] <= MA harder.
    size_t p = begin + 1;
    if (max_last != SIZE_MAX) {
      const T& pm = v[max_last];
      p = std::max(p, size_t(std::partition_point(v + begin, v + end, [&](const T& x) { return less(x, pm); }) - v));
    }
    const bool valid = p < end && (ma == SIZE_MAX || !less(v[ma], v[p - 1])) &&
                       (max_last == SIZE_MAX || ma == SIZE_MAX || !less(v[ma], v[max_last]));
    if (valid) {
      close_stretch(p);    // run r's tail [p, end) starts the next stretch
      max_last = end - 1;  // the largest so far: nothing before p exceeds v[p] (and indexes before p moved)
    } else if (max_last == SIZE_MAX || less(v[max_last], v[end - 1])) {
      max_last = end - 1;  // max_last stays in the open stretch, which nothing has moved yet
    }
  }
  close_stretch(n);
}

}  // namespace detail

template <class T, class Less>
void sort_runs(T* v, size_t n, Less less) {
  std::vector<T> buf;
  detail::sort_runs_into(v, n, less, buf);
}

template <class T, class Less>
void sort_runs(std::vector<T>& v, Less less) {
  sort_runs(v.data(), v.size(), less);
}

// The same for each of the ranges [v + bounds[k], v + bounds[k + 1]) of v (bounds ascending, the
// last one <= v.size()), one merge buffer for all.
template <class T, class Less>
void sort_runs_each(std::vector<T>& v, const std::vector<size_t>& bounds, Less less) {
  std::vector<T> buf;
  for (size_t k = 0; k + 1 < bounds.size(); ++k) {
    T* first = v.data() + bounds[k];
    const size_t n = bounds[k + 1] - bounds[k];
    detail::sort_runs_into(first, n, less, buf);
  }
}

}  // namespace tw
