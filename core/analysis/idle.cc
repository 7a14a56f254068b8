#include "core/analysis/idle.h"

#include <algorithm>
#include <numeric>

#include "core/analysis/gpu_op_launch.h"

namespace tw {

const char* idle_category_name(IdleCategory c) {
  switch (c) {
    case IdleCategory::kHostWait: return "host_wait";
    case IdleCategory::kKernelWait: return "kernel_wait";
    case IdleCategory::kOther: break;
  }
  return "other";
}

namespace {

// Keeps the n longest gaps in a min-heap (shortest on top), so memory stays O(n) per stream.
void keep_longest(std::vector<IdleGap>& heap, size_t n, const IdleGap& g) {
  auto shorter = [](const IdleGap& a, const IdleGap& b) {
    if (a.length_ns() != b.length_ns()) return a.length_ns() > b.length_ns();
    return a.begin_ns < b.begin_ns;
  };
  if (n == 0 || g.length_ns() <= 0) return;
  if (heap.size() < n) {
    heap.push_back(g);
    std::push_heap(heap.begin(), heap.end(), shorter);
  } else if (shorter(g, heap.front())) {
    std::pop_heap(heap.begin(), heap.end(), shorter);
    heap.back() = g;
    std::push_heap(heap.begin(), heap.end(), shorter);
  }
}

}  // namespace

IdleResult idle_breakdown(const TraceModel& m, const IdleOptions& opt) {
  IdleResult r;
  r.threshold_ns = opt.kernel_wait_threshold_ns;
  const SliceTable& s = m.slices;
  const GpuOpTable& g = m.gpu_ops;
  std::vector<uint32_t> rows;
  rows.reserve(g.size());
  for (uint32_t i = 0; i < g.size(); ++i) {
    if (opt.keep && (i >= opt.keep->size() || !(*opt.keep)[i])) continue;
    // HTA only sees ops whose args name a stream (its "stream" column is -1 otherwise).
    if (opt.hta_compat && m.tracks[s.track[g.slice[i]]].stream < 0) continue;
    rows.push_back(i);
  }
  std::sort(rows.begin(), rows.end(), [&](uint32_t a, uint32_t b) {
    if (g.device[a] != g.device[b]) return g.device[a] < g.device[b];
    if (g.stream[a] != g.stream[b]) return g.stream[a] < g.stream[b];
    int64_t ta = s.ts_ns[g.slice[a]], tb = s.ts_ns[g.slice[b]];
    if (ta != tb) return ta < tb;
    return a < b;
  });
  std::vector<uint32_t> launch = launch_per_gpu_op(m);
  size_t i = 0;
  while (i < rows.size()) {
    StreamIdle st;
    st.device = g.device[rows[i]];
    st.stream = g.stream[rows[i]];
    int64_t prev_end = 0;
    for (; i < rows.size() && g.device[rows[i]] == st.device && g.stream[rows[i]] == st.stream; ++i) {
      uint32_t row = rows[i], slice = g.slice[row];
      int64_t ts = s.ts_ns[slice], end = s.end_ns(slice);
      if (st.ops++ == 0) {
        st.first_ns = ts;
        st.last_ns = end;
        prev_end = end;
        continue;
      }
      int64_t gap = ts - prev_end;
      st.last_ns = std::max(st.last_ns, end);
      if (opt.hta_compat || gap > 0) {
        uint32_t l = launch[row];
        IdleCategory c = IdleCategory::kOther;
        if (l != kNoLaunch && s.ts_ns[l] > prev_end) c = IdleCategory::kHostWait;
        else if (gap < opt.kernel_wait_threshold_ns) c = IdleCategory::kKernelWait;
        st.time_ns[static_cast<int>(c)] += gap;
        st.count[static_cast<int>(c)]++;
        keep_longest(st.longest, opt.longest_gaps, IdleGap{prev_end, ts, c, slice});
      }
      prev_end = opt.hta_compat ? end : std::max(prev_end, end);
    }
    st.idle_ns = st.time_ns[0] + st.time_ns[1] + st.time_ns[2];
    std::sort(st.longest.begin(), st.longest.end(), [](const IdleGap& a, const IdleGap& b) {
      if (a.length_ns() != b.length_ns()) return a.length_ns() > b.length_ns();
      return a.begin_ns < b.begin_ns;
    });
    r.streams.push_back(std::move(st));
  }
  return r;
}

}  // namespace tw
