#include "core/timeline/timeline_index.h"

#include <algorithm>
#include <numeric>

#include "core/analysis/kernel_classes.h"

namespace tw {

TimelineIndex::TimelineIndex(const TraceModel& m) : m_(m) {
  build_rows();
  build_classes();
  build_series();
  build_overlap();
  instants_.build(m);
  build_tracks();
}

// Counting sort of each track's slices by depth; the table is already in time order per track, so
// every row comes out in time order.
void TimelineIndex::build_rows() {
  const SliceTable& s = m_.slices;
  end_ns_ = m_.max_ts_ns;
  for (size_t i = 0; i < s.size(); ++i) end_ns_ = std::max(end_ns_, s.end_ns(i));
  first_row_.assign(m_.tracks.size() + 1, 0);
  uint32_t rows = 0;
  for (size_t t = 0; t < m_.tracks.size(); ++t) {
    first_row_[t] = rows;
    rows += std::min<uint32_t>(m_.tracks[t].max_depth, 65536);
  }
  first_row_[m_.tracks.size()] = rows;
  row_offset_.assign(rows + 1, 0);
  // Each track's rows in turn (the slices are grouped by track): no search for a row's track.
  auto each_slice = [&](auto&& f) {
    for (uint32_t t = 0; t < m_.tracks.size(); ++t)
      for (uint32_t i = s.track_start[t]; i < s.track_start[t + 1]; ++i) f(first_row_[t] + s.depth[i], i);
  };
  each_slice([&](uint32_t row, uint32_t) { ++row_offset_[row + 1]; });
  for (uint32_t r = 0; r < rows; ++r) row_offset_[r + 1] += row_offset_[r];
  row_ids_.assign(s.size(), 0);
  std::vector<uint32_t> fill(row_offset_.begin(), row_offset_.end() - 1);
  each_slice([&](uint32_t row, uint32_t i) { row_ids_[fill[row]++] = i; });
  row_longest_.resize(rows);
  row_start_offset_.assign(rows + 1, 0);
  for (uint32_t r = 0; r < rows; ++r)
    row_start_offset_[r + 1] =
        row_start_offset_[r] + (row_offset_[r + 1] - row_offset_[r] + kStartEvery - 1) / kStartEvery;
  row_starts_.resize(row_start_offset_[rows]);
  for (uint32_t r = 0; r < rows; ++r) {
    const uint32_t* ids = row_ids_.data() + row_offset_[r];
    const uint32_t n = row_offset_[r + 1] - row_offset_[r];
    row_longest_[r].build(n, [&](uint32_t k) { return s.dur_at(ids[k]); });
    for (uint32_t k = 0; k < n; k += kStartEvery) row_starts_[row_start_offset_[r] + k / kStartEvery] = s.ts_ns[ids[k]];
  }
}

TimelineIndex::Row TimelineIndex::row(uint32_t model_track, uint32_t depth) const {
  Row out;
  if (model_track >= m_.tracks.size() || depth >= depth_rows(model_track)) return out;
  uint32_t r = first_row_[model_track] + depth;
  out.ids = row_ids_.data() + row_offset_[r];
  out.size = row_offset_[r + 1] - row_offset_[r];
  out.longest = &row_longest_[r];
  out.starts = row_starts_.data() + row_start_offset_[r];
  return out;
}

void TimelineIndex::build_classes() {
  std::vector<KernelClass> c = classify_gpu_ops(m_, default_rules());
  gpu_class_.resize(c.size());
  for (size_t i = 0; i < c.size(); ++i) gpu_class_[i] = static_cast<uint8_t>(c[i]);
}

uint32_t TimelineIndex::gpu_op_row(uint32_t slice) const {
  const auto& v = m_.gpu_ops.slice;
  auto it = std::lower_bound(v.begin(), v.end(), slice);
  return it != v.end() && *it == slice ? static_cast<uint32_t>(it - v.begin()) : UINT32_MAX;
}

SliceClass TimelineIndex::slice_class(uint32_t slice) const {
  switch (m_.slices.kind_at(slice)) {
    case EventKind::kKernel:
    case EventKind::kMemcpy:
    case EventKind::kMemset: {
      uint32_t row = gpu_op_row(slice);
      KernelClass k = row < gpu_class_.size() ? static_cast<KernelClass>(gpu_class_[row]) : KernelClass::kOther;
      if (k == KernelClass::kCommunication) return SliceClass::kCommunication;
      if (k == KernelClass::kMemory) return SliceClass::kMemory;
      return SliceClass::kCompute;
    }
    case EventKind::kCudaRuntime:
    case EventKind::kCudaDriver: return SliceClass::kRuntime;
    case EventKind::kCpuOp: return SliceClass::kCpuOp;
    case EventKind::kPythonFunction: return SliceClass::kPython;
    case EventKind::kUserAnnotation:
    case EventKind::kGpuUserAnnotation: return SliceClass::kAnnotation;
    case EventKind::kCudaSync: return SliceClass::kSync;
    default: return SliceClass::kOther;
  }
}

int64_t TimelineIndex::self_ns(uint32_t slice) const {
  const SliceTable& s = m_.slices;
  int64_t ts = s.ts_ns[slice], end = s.end_ns(slice);
  Row child = row(s.track_at(slice), s.depth[slice] + 1u);
  int64_t children = 0;
  if (child.size) {
    // Children start inside [ts, end); a row is in time order.
    const uint32_t* first = std::lower_bound(child.ids, child.ids + child.size, ts,
                                             [&s](uint32_t id, int64_t t) { return s.ts_ns[id] < t; });
    for (const uint32_t* p = first; p != child.ids + child.size && s.ts_ns[*p] < end; ++p)
      children += std::min(s.end_ns(*p), end) - s.ts_ns[*p];
  }
  return std::max<int64_t>(0, s.dur_at(slice) - children);
}

void TimelineIndex::build_series() {
  auto add = [this](const std::vector<int64_t>& ts, auto value_at) {
    std::vector<uint32_t> order(ts.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&ts](uint32_t a, uint32_t b) { return ts[a] < ts[b]; });
    SeriesData d;
    d.ts_ns.reserve(order.size());
    d.value.reserve(order.size());
    for (uint32_t i : order) {
      d.ts_ns.push_back(ts[i]);
      d.value.push_back(value_at(i));
    }
    series_.push_back(std::move(d));
  };
  for (const CounterSeries& c : m_.counters) add(c.ts_ns, [&c](uint32_t i) { return c.value[i]; });
  // Memory: allocated and reserved per device, each its own series.
  const MemoryTable& mem = m_.memory;
  std::vector<int32_t> devices(mem.device.begin(), mem.device.end());
  std::sort(devices.begin(), devices.end());
  devices.erase(std::unique(devices.begin(), devices.end()), devices.end());
  for (int32_t dev : devices) {
    std::vector<int64_t> ts;
    std::vector<int64_t> alloc, reserved;
    for (size_t i = 0; i < mem.size(); ++i) {
      if (mem.device[i] != dev) continue;
      ts.push_back(mem.ts_ns[i]);
      alloc.push_back(mem.total_allocated[i]);
      reserved.push_back(mem.total_reserved[i]);
    }
    add(ts, [&alloc](uint32_t i) { return static_cast<double>(alloc[i]); });
    add(ts, [&reserved](uint32_t i) { return static_cast<double>(reserved[i]); });
    memory_series_device_.push_back(static_cast<uint32_t>(dev));
  }
}

// Communication hidden / exposed per device from kernel intervals (the same definition as the
// overlap analysis: hidden = comm ∩ compute, exposed = comm − compute).
void TimelineIndex::build_overlap() {
  const GpuOpTable& g = m_.gpu_ops;
  std::vector<int32_t> devices = g.configs.device;  // a device without communication gets no lane
  std::sort(devices.begin(), devices.end());
  devices.erase(std::unique(devices.begin(), devices.end()), devices.end());
  for (int32_t dev : devices) {
    IntervalUnion comm, comp;  // united as they come (intervals.h)
    bool any_comm = false;
    for (size_t r = 0; r < g.size(); ++r) {
      if (g.device_at(r) != dev || m_.slices.kind_at(g.slice[r]) != EventKind::kKernel) continue;
      uint32_t s = g.slice[r];
      Interval iv{m_.slices.ts_ns[s], m_.slices.end_ns(s)};
      auto k = static_cast<KernelClass>(gpu_class_[r]);
      if (k == KernelClass::kCommunication) comm.add(iv), any_comm = true;
      else if (k == KernelClass::kComputation) comp.add(iv);
    }
    if (!any_comm) continue;  // the lane is about communication
    OverlapLane lane;
    lane.device = dev;
    IntervalSet c = comm.take();
    lane.rows[0] = comp.take();
    lane.rows[1] = c.intersect(lane.rows[0]);
    lane.rows[2] = c.subtract(lane.rows[0]);
    for (int k = 0; k < 3; ++k) {
      const auto& iv = lane.rows[k].intervals();
      lane.longest[k].build(static_cast<uint32_t>(iv.size()), [&iv](uint32_t i) { return iv[i].length(); });
    }
    overlap_.push_back(std::move(lane));
  }
}

size_t TimelineIndex::memory_bytes() const {
  size_t n = row_ids_.capacity() * 4 + row_offset_.capacity() * 4 + gpu_class_.capacity() + row_starts_.capacity() * 8 +
             row_start_offset_.capacity() * 4;
  for (const MaxIndex& mi : row_longest_) n += mi.memory_bytes() + sizeof(MaxIndex);
  for (const SeriesData& d : series_) n += d.ts_ns.capacity() * 16;
  for (const OverlapLane& l : overlap_)
    for (int k = 0; k < 3; ++k) n += l.rows[k].size() * sizeof(Interval) + l.longest[k].memory_bytes();
  return n + instants_.memory_bytes();
}

}  // namespace tw
