#include "core/model/flow_presort.h"

#include <algorithm>

#include "core/base/run_sort.h"

namespace tw {

namespace {

// Compares point indices by their points. Taken afresh for each step: keys and points grow between.
struct IndexLess {
  const FlowPoint* points;
  FlowPointLess less;
  bool operator()(uint32_t a, uint32_t b) const { return less(points[a], points[b]); }
};

IndexLess index_less(const FlowPoints& v1) { return IndexLess{v1.points.data(), FlowPointLess{v1.keys.data()}}; }

// Sorts the points not yet in a run, at most max_points of them, as a new run.
void add_run(FlowPoints& v1, size_t max_points) {
  std::vector<uint32_t>& idx = v1.presorted;
  const size_t from = idx.size(), to = from + std::min(max_points, v1.points.size() - from);
  if (idx.capacity() < to) idx.reserve(std::max(to, v1.points.capacity()));  // one block for the whole import
  for (size_t i = from; i < to; ++i) idx.push_back(static_cast<uint32_t>(i));
  std::sort(idx.begin() + static_cast<ptrdiff_t>(from), idx.end(), index_less(v1));
  v1.run_ends.push_back(to);
}

}  // namespace

bool presort_flow_points(FlowPoints& v1, const PresortLimits& limits) {
  std::vector<size_t>& ends = v1.run_ends;
  if (ends.size() >= 2) {
    const size_t e = ends.back(), c = ends[ends.size() - 2], b = ends.size() >= 3 ? ends[ends.size() - 3] : 0;
    if (c - b <= 2 * (e - c) && e - b <= limits.max_merge) {
      auto it = v1.presorted.begin();
      std::inplace_merge(it + static_cast<ptrdiff_t>(b), it + static_cast<ptrdiff_t>(c), it + static_cast<ptrdiff_t>(e),
                         index_less(v1));
      ends.pop_back();
      ends.back() = e;
      return true;
    }
  }
  if (v1.points.size() - v1.presorted.size() < std::max<size_t>(limits.min_run, 1)) return false;
  add_run(v1, std::max<size_t>(limits.max_run, 1));
  return true;
}

std::vector<uint32_t> flow_pairing_order(FlowPoints& v1) {
  const size_t from = v1.presorted.size(), n = v1.points.size();
  if (from < n) {
    std::sort(v1.points.begin() + static_cast<ptrdiff_t>(from), v1.points.end(), FlowPointLess{v1.keys.data()});
    if (v1.presorted.capacity() < n) v1.presorted.reserve(n);
    for (size_t i = from; i < n; ++i) v1.presorted.push_back(static_cast<uint32_t>(i));
    v1.run_ends.push_back(n);
  }
  std::vector<uint32_t> order;
  order.swap(v1.presorted);
  std::vector<size_t> runs{0};
  runs.insert(runs.end(), v1.run_ends.begin(), v1.run_ends.end());
  std::vector<size_t>().swap(v1.run_ends);
  if (runs.size() > 2) {
    std::vector<uint32_t> buf(order.size());
    detail::merge_runs(order.data(), order.size(), std::move(runs), index_less(v1), buf.data());
  }
  return order;
}

}  // namespace tw
