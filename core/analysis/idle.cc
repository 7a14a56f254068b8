#include "core/analysis/idle.h"

#include <algorithm>
#include <numeric>

#include "core/analysis/gpu_op_launch.h"
#include "core/base/run_sort.h"

namespace tw {

const char* idle_category_name(IdleCategory c) {
  switch (c) {
    case IdleCategory::kHostWait: return "host_wait";
    case IdleCategory::kKernelWait: return "kernel_wait";
    case IdleCategory::kOther: break;
  }
  return "other";
}

IdleCategory categorize_gap(int64_t gap_begin_ns, int64_t gap_end_ns, std::optional<int64_t> launch_ts_ns,
                            int64_t kernel_wait_threshold_ns) {
  if (launch_ts_ns && *launch_ts_ns > gap_begin_ns) return IdleCategory::kHostWait;
  if (gap_end_ns - gap_begin_ns < kernel_wait_threshold_ns) return IdleCategory::kKernelWait;
  return IdleCategory::kOther;
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

// One stream's ops in start order, and each gap with its category: the HTA rules in one place,
// shared by the whole-trace and the per-window breakdowns.
template <class OnStream, class OnOp, class OnGap, class OnStreamEnd>
void walk_streams(const TraceModel& m, const IdleOptions& opt, OnStream on_stream, OnOp on_op, OnGap on_gap,
                  OnStreamEnd on_stream_end) {
  const SliceTable& s = m.slices;
  const GpuOpTable& g = m.gpu_ops;
  IdleOrder own;
  if (!opt.order) own = idle_order(m, opt);
  const std::vector<uint32_t>& rows = opt.order ? opt.order->rows : own.rows;
  const std::vector<uint32_t>& launch = opt.order ? opt.order->launch : own.launch;
  size_t i = 0;
  while (i < rows.size()) {
    const int32_t device = g.device_at(rows[i]);
    const int64_t stream = g.stream_at(rows[i]);
    on_stream(device, stream);
    int64_t prev_end = 0;
    bool first = true;
    for (; i < rows.size() && g.device_at(rows[i]) == device && g.stream_at(rows[i]) == stream; ++i) {
      uint32_t row = rows[i], slice = g.slice[row];
      int64_t ts = s.ts_ns[slice], end = s.end_ns(slice);
      on_op(ts, end);
      if (first) {
        first = false;
        prev_end = end;
        continue;
      }
      int64_t gap = ts - prev_end;
      if (opt.hta_compat || gap > 0) {
        const uint32_t l = launch[row];
        const std::optional<int64_t> launched = l != kNoLaunch ? std::optional<int64_t>(s.ts_ns[l]) : std::nullopt;
        on_gap(IdleGap{prev_end, ts, categorize_gap(prev_end, ts, launched, opt.kernel_wait_threshold_ns), slice});
      }
      prev_end = opt.hta_compat ? end : std::max(prev_end, end);
    }
    on_stream_end();
  }
}

void add_gap(StreamIdle& st, const IdleGap& gap, size_t longest) {
  const int c = static_cast<int>(gap.category);
  st.time_ns[c] += gap.length_ns();
  st.count[c]++;
  keep_longest(st.longest, longest, gap);
}

void finish_stream(StreamIdle& st) {
  st.idle_ns = st.time_ns[0] + st.time_ns[1] + st.time_ns[2];
  std::sort(st.longest.begin(), st.longest.end(), [](const IdleGap& a, const IdleGap& b) {
    if (a.length_ns() != b.length_ns()) return a.length_ns() > b.length_ns();
    return a.begin_ns < b.begin_ns;
  });
}

// Windows sorted by begin, with the running maximum of their ends, so the windows that reach a
// time range are found by a binary search and a short walk back (they may overlap).
class WindowFinder {
 public:
  explicit WindowFinder(const std::vector<Interval>& w) : order_(w.size()) {
    for (size_t k = 0; k < w.size(); ++k) order_[k] = k;
    std::sort(order_.begin(), order_.end(), [&w](size_t a, size_t b) { return w[a].begin < w[b].begin; });
    for (size_t k : order_) {
      begin_.push_back(w[k].begin);
      end_.push_back(w[k].end);
      max_end_.push_back(max_end_.empty() ? w[k].end : std::max(max_end_.back(), w[k].end));
    }
  }
  // Calls f(window index) for every window with begin < e and end > b (b == e: that contains b).
  template <class F>
  void each(int64_t b, int64_t e, F f) const {
    const int64_t limit = e > b ? e : b + 1;
    size_t k = static_cast<size_t>(std::lower_bound(begin_.begin(), begin_.end(), limit) - begin_.begin());
    while (k > 0 && max_end_[k - 1] > b) {
      --k;
      if (end_[k] > b) f(order_[k]);
    }
  }

 private:
  std::vector<size_t> order_;
  std::vector<int64_t> begin_, end_, max_end_;
};

}  // namespace

IdleOrder idle_order(const TraceModel& m, const IdleOptions& opt) {
  const SliceTable& s = m.slices;
  const GpuOpTable& g = m.gpu_ops;
  IdleOrder o;
  o.rows.reserve(g.size());
  for (uint32_t i = 0; i < g.size(); ++i) {
    if (opt.keep && (i >= opt.keep->size() || !(*opt.keep)[i])) continue;
    // HTA only sees ops whose args name a stream (its "stream" column is -1 otherwise).
    if (opt.hta_compat && m.tracks[s.track_at(g.slice[i])].stream < 0) continue;
    o.rows.push_back(i);
  }
  // Rows are in (track, start) order, so this is a merge of a few runs; the order is total.
  sort_runs(o.rows, [&](uint32_t a, uint32_t b) {
    if (g.device_at(a) != g.device_at(b)) return g.device_at(a) < g.device_at(b);
    if (g.stream_at(a) != g.stream_at(b)) return g.stream_at(a) < g.stream_at(b);
    int64_t ta = s.ts_ns[g.slice[a]], tb = s.ts_ns[g.slice[b]];
    if (ta != tb) return ta < tb;
    return a < b;
  });
  o.launch = launch_per_gpu_op(m);
  return o;
}

IdleResult idle_breakdown(const TraceModel& m, const IdleOptions& opt) {
  IdleResult r;
  r.threshold_ns = opt.kernel_wait_threshold_ns;
  StreamIdle st;
  walk_streams(
      m, opt,
      [&](int32_t device, int64_t stream) {
        st = StreamIdle{};
        st.device = device;
        st.stream = stream;
      },
      [&](int64_t ts, int64_t end) {
        if (st.ops++ == 0) st.first_ns = ts, st.last_ns = end;
        st.last_ns = std::max(st.last_ns, end);
      },
      [&](const IdleGap& gap) { add_gap(st, gap, opt.longest_gaps); },
      [&]() {
        finish_stream(st);
        r.streams.push_back(std::move(st));
      });
  return r;
}

std::vector<IdleResult> idle_breakdown_in(const TraceModel& m, const IdleOptions& opt,
                                          const std::vector<Interval>& windows) {
  std::vector<IdleResult> r(windows.size());
  for (IdleResult& x : r) x.threshold_ns = opt.kernel_wait_threshold_ns;
  if (windows.empty()) return r;
  const WindowFinder finder(windows);
  std::vector<StreamIdle> acc(windows.size());
  std::vector<uint8_t> touched(windows.size(), 0);
  walk_streams(
      m, opt,
      [&](int32_t device, int64_t stream) {
        for (size_t w = 0; w < acc.size(); ++w) {
          acc[w] = StreamIdle{};
          acc[w].device = device;
          acc[w].stream = stream;
          touched[w] = 0;
        }
      },
      [&](int64_t ts, int64_t end) {
        finder.each(ts, ts, [&](size_t w) {
          StreamIdle& st = acc[w];
          if (st.ops++ == 0) st.first_ns = ts, st.last_ns = end;
          st.last_ns = std::max(st.last_ns, end);
          touched[w] = 1;
        });
      },
      [&](const IdleGap& gap) {
        if (gap.length_ns() <= 0) {  // hta_compat only: HTA sums these too
          finder.each(gap.end_ns, gap.end_ns, [&](size_t w) {
            add_gap(acc[w], gap, opt.longest_gaps);
            touched[w] = 1;
          });
          return;
        }
        finder.each(gap.begin_ns, gap.end_ns, [&](size_t w) {
          IdleGap clipped = gap;
          clipped.begin_ns = std::max(gap.begin_ns, windows[w].begin);
          clipped.end_ns = std::min(gap.end_ns, windows[w].end);
          if (clipped.length_ns() <= 0) return;  // an empty window
          add_gap(acc[w], clipped, opt.longest_gaps);
          touched[w] = 1;
        });
      },
      [&]() {
        for (size_t w = 0; w < acc.size(); ++w) {
          if (!touched[w]) continue;
          finish_stream(acc[w]);
          r[w].streams.push_back(std::move(acc[w]));
        }
      });
  return r;
}

}  // namespace tw
