#include "core/model/finalize.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>

namespace tw {

namespace {

template <typename T>
void permute(std::vector<T>& v, const std::vector<uint32_t>& order) {
  std::vector<T> out(v.size());
  for (size_t i = 0; i < order.size(); ++i) out[i] = v[order[i]];
  v.swap(out);
}

// Sort by (track, ts, longer first, file order): parents come before their children.
std::vector<uint32_t> sort_slices(TraceModel& m) {
  SliceTable& s = m.slices;
  std::vector<uint32_t> order(s.size());
  std::iota(order.begin(), order.end(), 0);
  // File order breaks ties explicitly, so std::sort gives the stable order without stable_sort's
  // n/2 .. n extra buffer (a heap peak in wasm).
  std::sort(order.begin(), order.end(), [&s](uint32_t a, uint32_t b) {
    if (s.track[a] != s.track[b]) return s.track[a] < s.track[b];
    if (s.ts_ns[a] != s.ts_ns[b]) return s.ts_ns[a] < s.ts_ns[b];
    if (s.dur_ns[a] != s.dur_ns[b]) return s.dur_ns[a] > s.dur_ns[b];
    return a < b;
  });
  permute(s.ts_ns, order);
  permute(s.dur_ns, order);
  permute(s.track, order);
  permute(s.name, order);
  permute(s.cat, order);
  permute(s.kind, order);
  permute(s.flags, order);
  permute(s.correlation, order);
  permute(s.external_id, order);
  permute(s.src_offset, order);
  permute(s.src_length, order);
  s.depth.assign(s.size(), 0);
  std::vector<uint32_t> new_index(order.size());
  for (uint32_t i = 0; i < order.size(); ++i) new_index[order[i]] = i;
  return new_index;
}

// Nesting depth per track. A slice that starts inside another but ends after it is not nested: it
// is KEPT on the next free row and flagged, never dropped.
void assign_depths(TraceModel& m, ImportStats& stats) {
  SliceTable& s = m.slices;
  for (Track& t : m.tracks) t.slice_begin = t.slice_end = 0;
  std::vector<int64_t> row_end;  // end time of the slice open on each row
  size_t i = 0;
  while (i < s.size()) {
    uint32_t track = s.track[i];
    Track& t = m.tracks[track];
    t.slice_begin = static_cast<uint32_t>(i);
    row_end.clear();
    for (; i < s.size() && s.track[i] == track; ++i) {
      int64_t ts = s.ts_ns[i], end = s.end_ns(i);
      // Close rows whose slice ended before this one starts. Rows below the top stay open even if
      // an overlapping slice on top outlives them: rows only ever get deeper, never collide.
      while (!row_end.empty() && row_end.back() <= ts) row_end.pop_back();
      if (!row_end.empty() && end > row_end.back()) {
        s.flags[i] |= kSliceOverlapping;
        stats.problem("overlapping_slices", s.src_offset[i]);
      }
      size_t depth = row_end.size();
      s.depth[i] = static_cast<uint16_t>(std::min<size_t>(depth, 65535));
      if (depth + 1 > t.max_depth) t.max_depth = static_cast<uint32_t>(depth + 1);
      row_end.push_back(end);
    }
    t.slice_end = static_cast<uint32_t>(i);
  }
}

// The deepest slice on `track` that contains ts (start <= ts < end, or ts == start).
uint32_t enclosing_slice(const TraceModel& m, uint32_t track, int64_t ts) {
  const SliceTable& s = m.slices;
  const Track& t = m.tracks[track];
  auto begin = s.ts_ns.begin() + t.slice_begin, end = s.ts_ns.begin() + t.slice_end;
  auto it = std::upper_bound(begin, end, ts);
  uint32_t best = UINT32_MAX;
  int steps = 0;
  for (auto k = it; k != begin && steps < 256; ++steps) {
    --k;
    uint32_t idx = static_cast<uint32_t>(k - s.ts_ns.begin());
    if (s.ts_ns[idx] <= ts && (ts < s.end_ns(idx) || s.ts_ns[idx] == ts)) {
      if (best == UINT32_MAX || s.depth[idx] > s.depth[best]) best = idx;
      if (s.depth[idx] == 0) break;  // nothing earlier can be deeper and enclosing
    }
  }
  return best;
}

uint32_t next_slice(const TraceModel& m, uint32_t track, int64_t ts) {
  const SliceTable& s = m.slices;
  const Track& t = m.tracks[track];
  auto begin = s.ts_ns.begin() + t.slice_begin, end = s.ts_ns.begin() + t.slice_end;
  auto it = std::lower_bound(begin, end, ts);
  return it == end ? UINT32_MAX : static_cast<uint32_t>(it - s.ts_ns.begin());
}

uint32_t bind(const TraceModel& m, const FlowEndpoint& e) {
  if (e.track >= m.tracks.size()) return UINT32_MAX;
  return e.enclosing ? enclosing_slice(m, e.track, e.ts_ns) : next_slice(m, e.track, e.ts_ns);
}

void resolve_flows(TraceModel& m, PendingLinks& links, const std::vector<uint32_t>& new_index,
                   ImportStats& stats) {
  m.flows.reserve(m.flows.size() + links.flows_v1.size() + links.flows_v2.size());
  for (const PendingFlow& f : links.flows_v1) {
    Flow flow{bind(m, f.from), bind(m, f.to), f.cat, f.name};
    if (flow.from_slice == UINT32_MAX || flow.to_slice == UINT32_MAX) stats.problem("flow_unbound", 0);
    m.flows.push_back(flow);
  }
  // v2: walk the marks in time order (stable: file order for equal times, and a slice's flow_in
  // before its flow_out). A flow_in comes from the latest flow_out on its bind_id, and one flow_out
  // may feed several flow_ins (as Perfetto resolves them).
  std::vector<FlowV2Mark>& marks = links.flows_v2;
  for (FlowV2Mark& mk : marks) mk.slice = new_index[mk.slice];
  std::stable_sort(marks.begin(), marks.end(), [&m](const FlowV2Mark& a, const FlowV2Mark& b) {
    return m.slices.ts_ns[a.slice] < m.slices.ts_ns[b.slice];
  });
  std::unordered_map<StringId, uint32_t> out_of;
  for (const FlowV2Mark& mk : marks) {
    if (mk.out) {
      out_of[mk.bind_id] = mk.slice;
      continue;
    }
    auto it = out_of.find(mk.bind_id);
    if (it == out_of.end()) {
      stats.problem("flow_without_start", m.slices.src_offset[mk.slice]);
      continue;
    }
    m.flows.push_back(Flow{it->second, mk.slice, 0, 0});
  }
  // Release (not just clear) so link_launches can reuse the memory.
  std::vector<PendingFlow>().swap(links.flows_v1);
  std::vector<FlowV2Mark>().swap(links.flows_v2);
}

// CPU runtime call (cudaLaunchKernel, cudaMemcpyAsync, ...) -> GPU op, by Kineto correlation id.
void link_launches(TraceModel& m) {
  const SliceTable& s = m.slices;
  // (correlation, slice) of every launch, sorted: 16 bytes per launch instead of a hash node, and
  // for a correlation used twice the first slice in model order wins (stable sort keeps it first).
  struct Launch {
    int64_t correlation;
    uint32_t slice;
  };
  std::vector<Launch> launch_of;
  size_t n_launches = 0;
  for (uint32_t i = 0; i < s.size(); ++i)
    n_launches += s.correlation[i] != kNoId && (s.kind[i] == EventKind::kCudaRuntime || s.kind[i] == EventKind::kCudaDriver);
  launch_of.reserve(n_launches);
  for (uint32_t i = 0; i < s.size(); ++i) {
    if (s.correlation[i] == kNoId) continue;
    EventKind k = s.kind[i];
    if (k == EventKind::kCudaRuntime || k == EventKind::kCudaDriver) launch_of.push_back({s.correlation[i], i});
  }
  std::stable_sort(launch_of.begin(), launch_of.end(),
                   [](const Launch& a, const Launch& b) { return a.correlation < b.correlation; });
  m.launches.reserve(std::min(launch_of.size(), m.gpu_ops.size()));
  for (uint32_t row = 0; row < m.gpu_ops.size(); ++row) {
    uint32_t g = m.gpu_ops.slice[row];
    int64_t corr = s.correlation[g];
    if (corr == kNoId) continue;
    auto it = std::lower_bound(launch_of.begin(), launch_of.end(), corr,
                               [](const Launch& a, int64_t c) { return a.correlation < c; });
    if (it != launch_of.end() && it->correlation == corr) m.launches.push_back(LaunchLink{it->slice, g});
  }
}

void sort_gpu_ops(GpuOpTable& o, const std::vector<uint32_t>& new_index) {
  for (uint32_t& s : o.slice) s = new_index[s];
  std::vector<uint32_t> order(o.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&o](uint32_t a, uint32_t b) { return o.slice[a] < o.slice[b]; });
  permute(o.slice, order);
  permute(o.device, order);
  permute(o.stream, order);
  permute(o.bytes, order);
  permute(o.collective, order);
  permute(o.in_nelems, order);
  permute(o.out_nelems, order);
  permute(o.group_size, order);
  permute(o.dtype, order);
  permute(o.pg_name, order);
  for (int k = 0; k < 3; ++k) {
    permute(o.grid[k], order);
    permute(o.block[k], order);
  }
}

}  // namespace

void finalize_model(TraceModel& m, PendingLinks& links, ImportStats& stats) {
  std::vector<uint32_t> new_index = sort_slices(m);
  assign_depths(m, stats);
  sort_gpu_ops(m.gpu_ops, new_index);
  resolve_flows(m, links, new_index, stats);
  std::vector<uint32_t>().swap(new_index);  // freed before link_launches allocates
  link_launches(m);
}

}  // namespace tw
