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

// The indices of the points from the last run's end up to `to`, in input order, as a new run.
void append_run(FlowPoints& v1, size_t to) {
  std::vector<uint32_t>& idx = v1.presorted;
  if (idx.capacity() < to) idx.reserve(std::max(to, v1.points.capacity()));  // one block for the whole import
  for (size_t i = idx.size(); i < to; ++i) idx.push_back(static_cast<uint32_t>(i));
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
  const size_t from = v1.presorted.size(), left = v1.points.size() - from;
  if (left < std::max<size_t>(limits.min_run, 1)) return false;
  append_run(v1, from + std::min(left, std::max<size_t>(limits.max_run, 1)));
  std::sort(v1.presorted.begin() + static_cast<ptrdiff_t>(from), v1.presorted.end(), index_less(v1));
  return true;
}

std::vector<uint32_t> flow_pairing_order(FlowPoints& v1) {
  const size_t from = v1.presorted.size(), n = v1.points.size();
  std::sort(v1.points.begin() + static_cast<ptrdiff_t>(from), v1.points.end(), FlowPointLess{v1.keys.data()});
  if (v1.run_ends.empty()) return {};  // nothing sorted ahead: the points are in order themselves
  if (from < n) append_run(v1, n);
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
