#include "core/calltree/annotation_overlaps.h"

#include <algorithm>

#include "core/analysis/intervals.h"

namespace tw {
namespace {

constexpr size_t kOverlapNames = 64;  // pairs are compared among the names with most GPU time
// A row whose ops come in more ascending runs than this is united like the others: merging the
// runs by start keeps a cursor per run, which a hostile trace (one run per op) makes larger than
// the union.
constexpr size_t kMaxStreamedRuns = 64;

// True when the two ascending lists have an element in common (nested annotations share their ops).
bool share_any(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (a[i] == b[j]) return true;
    if (a[i] < b[j]) ++i;
    else ++j;
  }
  return false;
}

Interval gpu_span(const TraceModel& m, uint32_t launch) {
  const uint32_t g = m.launches[launch].gpu_slice;
  return {m.slices.ts_ns[g], m.slices.end_ns(g)};
}

// The ascending runs by start of the ops' GPU spans, as [begin, end) positions in `launches`
// (in GPU-op order: a run per stream, in the model's traces); none when there are more than `limit`.
std::vector<std::pair<size_t, size_t>> start_runs(const TraceModel& m, const std::vector<uint32_t>& launches,
                                                  size_t limit) {
  std::vector<std::pair<size_t, size_t>> runs;
  for (size_t i = 0; i < launches.size();) {
    if (runs.size() == limit) return {};
    size_t j = i + 1;
    for (int64_t last = gpu_span(m, launches[i]).begin; j < launches.size(); ++j) {
      const int64_t begin = gpu_span(m, launches[j]).begin;
      if (begin < last) break;
      last = begin;
    }
    runs.emplace_back(i, j);
    i = j;
  }
  return runs;
}

// Calls f(interval) for each interval of the union of the ops' GPU spans, in time order, merging
// the runs by start and uniting as it goes (add_in_start_order): the union is never held.
template <class F>
void each_union_interval(const TraceModel& m, const std::vector<uint32_t>& launches,
                         const std::vector<std::pair<size_t, size_t>>& runs, F f) {
  struct Cursor {
    int64_t begin;
    size_t at, end;
  };
  std::vector<Cursor> heap;
  for (const auto& [b, e] : runs) heap.push_back({gpu_span(m, launches[b]).begin, b, e});
  const auto later = [](const Cursor& x, const Cursor& y) { return x.begin > y.begin; };
  std::make_heap(heap.begin(), heap.end(), later);
  bool open = false;
  Interval cur{0, 0};
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), later);
    Cursor& c = heap.back();
    add_in_start_order(gpu_span(m, launches[c.at]), open, cur, [&] { f(cur); });
    if (++c.at < c.end) {
      c.begin = gpu_span(m, launches[c.at]).begin;
      std::push_heap(heap.begin(), heap.end(), later);
    } else {
      heap.pop_back();
    }
  }
  if (open) f(cur);
}

// The length an interval set shares with intervals given in time order, disjoint: a cursor that
// only moves forward.
class SharedLength {
 public:
  explicit SharedLength(const IntervalSet& set) : v_(set.intervals()) {}
  int64_t with(const Interval& iv) {
    while (at_ < v_.size() && v_[at_].end <= iv.begin) ++at_;
    int64_t sum = 0;
    for (size_t k = at_; k < v_.size() && v_[k].begin < iv.end; ++k)
      sum += std::min(iv.end, v_[k].end) - std::max(iv.begin, v_[k].begin);
    return sum;
  }

 private:
  const std::vector<Interval>& v_;
  size_t at_ = 0;
};

}  // namespace

std::vector<AnnotationOverlap> annotation_overlaps(const TraceModel& m, const std::vector<AnnotationStat>& rows,
                                                   std::vector<std::vector<uint32_t>>& op_ids) {
  std::vector<uint32_t> order(rows.size());
  for (uint32_t k = 0; k < order.size(); ++k) order[k] = k;
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    if (rows[a].gpu_ns != rows[b].gpu_ns) return rows[a].gpu_ns > rows[b].gpu_ns;
    return a < b;
  });
  std::vector<uint32_t> top;
  for (uint32_t k : order)
    if (rows[k].gpu_ops > 0 && !rows[k].module && top.size() < kOverlapNames) top.push_back(k);
  // The pairs that share no op first, then the GPU spans of only the names in one: a name nested in
  // every other one needs none.
  for (uint32_t k : top) std::sort(op_ids[k].begin(), op_ids[k].end());
  std::vector<std::pair<uint32_t, uint32_t>> pairs;
  std::vector<uint8_t> in_pair(rows.size(), 0);
  for (size_t x = 0; x < top.size(); ++x)
    for (size_t y = x + 1; y < top.size(); ++y)
      if (!share_any(op_ids[top[x]], op_ids[top[y]])) {
        pairs.emplace_back(top[x], top[y]);
        in_pair[top[x]] = in_pair[top[y]] = 1;
      }
  // The name in a pair with the most ops is not united: its union, streamed, meets its partners'
  // unions. It was the summary's largest block (16 bytes an op), which in wasm, where the heap never
  // shrinks, fit in no hole and grew the heap (tw_heap_phases).
  uint32_t big = UINT32_MAX;
  std::vector<std::pair<size_t, size_t>> big_runs;
  for (uint32_t k = 0; k < rows.size(); ++k)
    if (in_pair[k] && (big == UINT32_MAX || op_ids[k].size() > op_ids[big].size())) big = k;
  if (big != UINT32_MAX) {
    big_runs = start_runs(m, op_ids[big], kMaxStreamedRuns);
    if (big_runs.empty()) big = UINT32_MAX;
  }
  // Each name's launches are dropped once its spans are united.
  std::vector<IntervalSet> unions(rows.size());
  for (uint32_t k = 0; k < rows.size(); ++k) {
    if (k == big) continue;
    if (in_pair[k]) {
      IntervalUnion spans(op_ids[k].size());  // launches in GPU-op order: a few ascending runs (intervals.h)
      for (uint32_t li : op_ids[k]) spans.add(gpu_span(m, li));
      unions[k] = spans.take();
    }
    std::vector<uint32_t>().swap(op_ids[k]);
  }
  std::vector<int64_t> under_big(rows.size(), 0);  // each partner's overlap with `big`
  int64_t big_total = 0;
  if (big != UINT32_MAX) {
    std::vector<std::pair<uint32_t, SharedLength>> partners;
    for (const auto& [a, b] : pairs)
      if (a == big || b == big) partners.emplace_back(a == big ? b : a, SharedLength(unions[a == big ? b : a]));
    each_union_interval(m, op_ids[big], big_runs, [&](const Interval& iv) {
      big_total += iv.length();
      for (auto& [p, shared] : partners) under_big[p] += shared.with(iv);
    });
    std::vector<uint32_t>().swap(op_ids[big]);
  }
  const auto total = [&](uint32_t k) { return k == big ? big_total : unions[k].total(); };
  std::vector<AnnotationOverlap> overlaps;
  for (const auto& [a, b] : pairs) {
    const int64_t ov = a == big ? under_big[b] : b == big ? under_big[a] : unions[a].intersect_total(unions[b]);
    if (ov > 0) overlaps.push_back({rows[a].name, rows[b].name, ov, total(a), total(b)});
  }
  std::sort(overlaps.begin(), overlaps.end(), [](const AnnotationOverlap& a, const AnnotationOverlap& b) {
    if (a.overlap_ns != b.overlap_ns) return a.overlap_ns > b.overlap_ns;
    return a.a != b.a ? a.a < b.a : a.b < b.b;
  });
  if (overlaps.size() > kMaxAnnotationOverlaps) overlaps.resize(kMaxAnnotationOverlaps);
  return overlaps;
}

}  // namespace tw
