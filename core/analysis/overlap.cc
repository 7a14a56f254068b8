#include "core/analysis/overlap.h"

#include <algorithm>

#include "core/analysis/hta_compat.h"

namespace tw {

CommOverlap comm_compute_overlap(const GpuActivity& a) {
  const IntervalSet& comm = a.of(KernelClass::kCommunication);
  CommOverlap o;
  o.communication_ns = comm.total();
  o.overlapped_ns = comm.intersect_total(a.of(KernelClass::kComputation));
  return o;
}

CommOverlap comm_compute_overlap_in(const GpuActivity& a, int64_t begin_ns, int64_t end_ns) {
  const IntervalSet comm = a.of(KernelClass::kCommunication).clip(begin_ns, end_ns);
  CommOverlap o;
  o.communication_ns = comm.total();
  // Clip both sides so a step costs O(log n + its own intervals), not O(whole trace).
  o.overlapped_ns = comm.intersect_total(a.of(KernelClass::kComputation).clip(begin_ns, end_ns));
  return o;
}

StreamOverlapResult stream_overlaps(const TraceModel& m, const std::vector<KernelClass>& cls,
                                    const std::vector<uint8_t>* kept, size_t max_streams) {
  StreamOverlapResult r;
  const GpuOpTable& g = m.gpu_ops;
  // After finish() the ops are in slice order (sort_gpu_ops), so a track's ops are one range of rows,
  // found from its slices' rows, and in start order: a stream's ops are united as they come, holding
  // only the unions (no copy of every op's interval).
  const std::vector<uint32_t>& slice = g.slice;
  std::vector<IntervalSet> busy;
  for (uint32_t t = 0; t < m.tracks.size(); ++t) {
    const SliceTable::Rows rows = m.slices.rows_of(t);
    const auto first = std::lower_bound(slice.begin(), slice.end(), rows.begin);
    const auto last = std::lower_bound(first, slice.end(), rows.end);
    if (first == last) continue;
    StreamActivity s;
    s.track = t;
    s.device = m.tracks[t].device;
    s.stream = m.tracks[t].stream;
    SortedUnion all;
    all.reserve(static_cast<size_t>(last - first));
    std::vector<SortedUnion> of_class(kKernelClassCount, SortedUnion(false));
    for (auto it = first; it != last; ++it) {
      const size_t row = static_cast<size_t>(it - slice.begin());
      if (!row_selected(kept, row)) continue;
      const uint32_t sl = *it;
      const Interval iv{m.slices.ts_ns[sl], m.slices.end_ns(sl)};
      all.add(iv);
      if (row < cls.size()) of_class[static_cast<int>(cls[row])].add(iv);
      if (s.device < 0) s.device = g.device_at(row);
      if (s.stream < 0) s.stream = g.stream_at(row);
      ++s.ops;
    }
    if (s.ops == 0) continue;
    s.busy_ns = all.total();
    int best = 0;
    for (int c = 0; c < kKernelClassCount; ++c) {
      s.class_ns[c] = of_class[c].total();
      if (s.class_ns[c] > s.class_ns[best]) best = c;
    }
    s.main_class = static_cast<KernelClass>(best);
    r.streams.push_back(s);
    busy.push_back(all.take());
  }
  // Busiest first; ties by track for determinism.
  std::vector<size_t> idx(r.streams.size());
  for (size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  std::sort(idx.begin(), idx.end(), [&](size_t x, size_t y) {
    if (r.streams[x].busy_ns != r.streams[y].busy_ns) return r.streams[x].busy_ns > r.streams[y].busy_ns;
    return r.streams[x].track < r.streams[y].track;
  });
  std::vector<StreamActivity> sorted;
  std::vector<IntervalSet> sorted_busy;
  for (size_t i : idx) {
    sorted.push_back(r.streams[i]);
    sorted_busy.push_back(std::move(busy[i]));
  }
  r.streams = std::move(sorted);
  const size_t n = std::min(max_streams, r.streams.size());
  r.truncated = r.streams.size() > n;
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = i + 1; j < n; ++j) {
      // Streams on different devices never share an SM: their overlap is not contention.
      if (r.streams[i].device != r.streams[j].device) continue;
      const int64_t ov = sorted_busy[i].intersect_total(sorted_busy[j]);
      if (ov > 0) r.pairs.push_back({i, j, ov});
    }
  }
  std::sort(r.pairs.begin(), r.pairs.end(), [](const StreamPairOverlap& x, const StreamPairOverlap& y) {
    if (x.overlap_ns != y.overlap_ns) return x.overlap_ns > y.overlap_ns;
    return x.a != y.a ? x.a < y.a : x.b < y.b;
  });
  return r;
}

}  // namespace tw
