#include "core/model/finalize.h"

#include <algorithm>

#include "core/base/partition_from.h"
#include "core/base/run_sort.h"
#include "core/model/permute.h"
#include "core/model/side_rows.h"

namespace tw {

namespace {

// Rows 0..n-1 grouped by track, a stable counting sort: each track's rows stay in row order (file
// order, which per track is nearly time order). bounds[t] .. bounds[t + 1] is track t's group.
struct TrackBuckets {
  std::vector<uint32_t> order;
  std::vector<size_t> bounds;
};

template <class TrackOf>
TrackBuckets bucket_by_track(size_t n, size_t n_tracks, TrackOf track_of) {
  TrackBuckets b;
  b.order.resize(n);
  b.bounds.assign(n_tracks + 1, 0);
  for (uint32_t i = 0; i < n; ++i) ++b.bounds[track_of(i) + 1];
  for (size_t t = 1; t < b.bounds.size(); ++t) b.bounds[t] += b.bounds[t - 1];
  std::vector<size_t> next(b.bounds.begin(), b.bounds.end() - 1);
  for (uint32_t i = 0; i < n; ++i) b.order[next[track_of(i)]++] = i;
  return b;
}

// Sort by (track, ts, longer first, file order): parents come before their children. Returns the
// new index of each old row.
std::vector<uint32_t> sort_slices(TraceModel& m) {
  SliceTable& s = m.slices;
  // Bucketed by track first, so each track's rows are a few ascending runs, which sort_runs merges
  // in O(n log runs) (a track already in order is only checked). File order breaks ties
  // explicitly, so there is one total order.
  TrackBuckets buckets = bucket_by_track(s.size(), m.tracks.size(), [&s](uint32_t i) { return s.track.at(i); });
  std::vector<uint32_t> order = std::move(buckets.order);
  // From here a row's track is the group it falls in: the column (4 bytes a row) is freed before
  // the sort's scratch is allocated, and track_at reads the groups' starts.
  s.track_start.resize(buckets.bounds.size());
  for (size_t t = 0; t < buckets.bounds.size(); ++t) s.track_start[t] = static_cast<uint32_t>(buckets.bounds[t]);
  s.track.release();
  // Each track's bucket on its own: fewer merge passes than over all runs at once (a bucket's own
  // runs only), and the comparison needs no track.
  sort_runs_each(order, buckets.bounds, [&s](uint32_t a, uint32_t b) {
    if (s.ts_ns[a] != s.ts_ns[b]) return s.ts_ns[a] < s.ts_ns[b];
    if (s.dur_at(a) != s.dur_at(b)) return s.dur_at(a) > s.dur_at(b);
    return a < b;
  });
  permute_columns(order, s.dur.codes, s.name.codes, s.cat.codes, s.flags, s.ids.codes, s.src.lo, s.src.hi);
  s.ts_ns.permute(order);  // re-based on the new rows' blocks (its codes are relative to them)
  s.dur.renumber(order), s.name.renumber(order), s.cat.renumber(order), s.ids.renumber(order), s.src.renumber(order);
  return order;  // now the new index of each old row
}

// Nesting depth and parent per track. A slice that starts inside another but ends after it is not
// nested: it is KEPT on the next free row and flagged, never dropped. Its parent is the slice on the
// row below (so parent(i) always has depth(i) - 1); operators, host syncs and module attribution
// walk these links.
void assign_depths(TraceModel& m, ImportStats& stats) {
  SliceTable& s = m.slices;
  s.depth.assign(s.size(), 0);
  s.parent.assign(s.size(), kNoParent);
  struct Row {
    int64_t end;  // of the slice open on this row
    uint32_t slice;
  };
  std::vector<Row> rows;
  for (size_t track = 0; track < m.tracks.size(); ++track) {
    const uint32_t begin = s.track_start[track], end = s.track_start[track + 1];
    if (begin == end) continue;
    Track& t = m.tracks[track];
    rows.clear();
    for (size_t i = begin; i < end; ++i) {
      const int64_t ts = s.ts_ns[i], slice_end = s.end_ns(i);
      // Close rows whose slice ended before this one starts. Rows below the top stay open even if
      // an overlapping slice on top outlives them: rows only ever get deeper, never collide.
      while (!rows.empty() && rows.back().end <= ts) rows.pop_back();
      if (!rows.empty()) {
        s.parent[i] = rows.back().slice;
        if (slice_end > rows.back().end) {
          s.flags[i] |= kSliceOverlapping;
          stats.problem("overlapping_slices", s.src_offset_at(i));
        }
      }
      size_t depth = rows.size();
      s.depth[i] = static_cast<uint16_t>(std::min<size_t>(depth, 65535));
      if (depth + 1 > t.max_depth) t.max_depth = static_cast<uint32_t>(depth + 1);
      rows.push_back({slice_end, static_cast<uint32_t>(i)});
    }
  }
}

// CPU runtime call (cudaLaunchKernel, cudaMemcpyAsync, ...) -> GPU op, by Kineto correlation id;
// for a correlation two launches share, the first slice in model order wins. The GPU ops'
// correlations are the ones sorted (12 bytes per op), not every launch's: a trace has several
// runtime calls per GPU op (DeepSeek: 1.3M calls, 0.36M ops), and that list and its sort's scratch
// were finish()'s largest temporary, which in wasm, where the heap never shrinks, fit in no hole
// the freed flow endpoints left and grew the heap. 12 bytes, not the 16 an int64 member pads an op
// to: with most flows kept (kineto_1024mb.json), the list and its scratch fit the hole only so.
void link_launches(TraceModel& m) {
  const SliceTable& s = m.slices;
  const GpuOpTable& o = m.gpu_ops;
  struct Op {
    uint32_t hi, lo, row;  // the correlation's halves
    int64_t correlation() const { return static_cast<int64_t>(uint64_t(hi) << 32 | lo); }
  };
  std::vector<Op> ops;
  size_t n_ops = 0;
  for (uint32_t row = 0; row < o.size(); ++row) n_ops += s.correlation_at(o.slice[row]) != kNoId;
  ops.reserve(n_ops);
  for (uint32_t row = 0; row < o.size(); ++row) {
    const uint64_t corr = static_cast<uint64_t>(s.correlation_at(o.slice[row]));
    if (corr != static_cast<uint64_t>(kNoId)) ops.push_back({uint32_t(corr >> 32), uint32_t(corr), row});
  }
  // Per stream the ops are in time order, so their correlations mostly rise: a few runs.
  sort_runs(ops, [](const Op& a, const Op& b) {
    return a.correlation() != b.correlation() ? a.correlation() < b.correlation() : a.row < b.row;
  });
  std::vector<uint32_t> launch(o.size(), UINT32_MAX);
  // Per thread the launches are in correlation order: each search starts from the previous answer
  // and widens in doubling steps (O(1) per launch while they rise). The first launch of a
  // correlation takes all its ops at once, so a later one finds them taken in one step.
  const Op* begin = ops.data();
  const Op* end = begin + ops.size();
  const Op* prev = begin;
  size_t linked = 0;
  for (uint32_t i = 0; i < s.size() && linked < ops.size(); ++i) {
    const EventKind k = s.kind_at(i);
    if (k != EventKind::kCudaRuntime && k != EventKind::kCudaDriver) continue;
    const int64_t corr = s.correlation_at(i);
    if (corr == kNoId) continue;
    const Op* it = partition_from(begin, end, prev, [corr](const Op& x) { return x.correlation() < corr; });
    prev = it;
    if (it == end || it->correlation() != corr || launch[it->row] != UINT32_MAX) continue;
    for (; it != end && it->correlation() == corr; ++it) launch[it->row] = i, ++linked;
  }
  m.launches.reserve(linked);
  for (uint32_t row = 0; row < o.size(); ++row)
    if (launch[row] != UINT32_MAX) m.launches.push_back(LaunchLink{launch[row], o.slice[row]});
}

// GPU ops in slice order. The sorted slices hold each track's rows together, tracks in index order,
// so that is track order first: bucketed by track, each bucket (one stream's ops, listed in time
// order by files) is then mostly one ascending run. A slice has at most one op: no ties.
void sort_gpu_ops(GpuOpTable& o, const SliceTable& s, size_t n_tracks, const std::vector<uint32_t>& new_index) {
  for (uint32_t& x : o.slice) x = new_index[x];
  TrackBuckets buckets = bucket_by_track(o.size(), n_tracks, [&](uint32_t row) { return s.track_at(o.slice[row]); });
  std::vector<uint32_t> order = std::move(buckets.order);
  sort_runs_each(order, buckets.bounds, [&o](uint32_t x, uint32_t y) { return o.slice[x] < o.slice[y]; });
  permute_columns(order, o.slice, o.config);
  renumber_side_rows(order, o.bytes_op, o.bytes_value);
  o.collectives.renumber(order);
}

}  // namespace

void finalize_model(TraceModel& m, PendingLinks& links, ImportStats& stats) {
  // Paired first: the endpoints (every v1 flow event) are freed before the sort's order and
  // scratch are allocated, and only the flows wait for the sorted slices.
  PendingFlows flows_v1 = pair_flows_v1(links.flows_v1, stats);
  std::vector<uint32_t> new_index = sort_slices(m);
  sort_gpu_ops(m.gpu_ops, m.slices, m.tracks.size(), new_index);
  for (FlowV2Mark& mk : links.flows_v2) mk.slice = new_index[mk.slice];
  // Freed before the depths are assigned: the parents' column (4 bytes a slice, as this) takes its
  // block, where it would otherwise grow the heap.
  std::vector<uint32_t>().swap(new_index);
  assign_depths(m, stats);
  bind_flows_v1(m, flows_v1, links.flows_v2.size(), stats);
  resolve_flows_v2(m, links.flows_v2, stats);
  link_launches(m);
  // Large growth margins (the input size was unknown, so the tables doubled) are released last,
  // when the flow tables' freed memory can take the copies, for the analyses to reuse. The <= 8%
  // margin of a planned growth (growth_plan.h) is kept: copying every column costs page faults of
  // the new blocks and the copy, and in wasm it lowers no peak.
  auto wasteful = [](const auto& column) { return column.capacity() - column.size() > column.size() / 8 + 4096; };
  if (wasteful(m.slices.ts_ns.codes)) m.slices.shrink_to_fit();
  if (wasteful(m.gpu_ops.slice)) m.gpu_ops.shrink_to_fit();
}

}  // namespace tw
