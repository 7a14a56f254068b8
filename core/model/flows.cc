#include "core/model/flows.h"

#include <algorithm>

#include "core/base/partition_from.h"
#include "core/base/run_sort.h"

namespace tw {

namespace {

// The deepest slice on the track that contains ts (start <= ts < end, or ts == start) among the 256
// starting last at or before ts: the first one found walking back. A slice H sorted before G that
// still contains ts was open when G was pushed in assign_depths (rows are only closed once they
// end, and H ends after ts >= G's start), so G's depth is greater, even among overlapping slices;
// only two zero-length slices at ts can tie, and then the later one is kept.
uint32_t enclosing_slice(const TraceModel& m, FlowCursor& c, int64_t ts) {
  const SliceTable& s = m.slices;
  const int64_t* t = s.ts_ns.data();
  uint32_t k = uint32_t(partition_from(t + c.begin, t + c.end, t + c.hint, [ts](int64_t x) { return x <= ts; }) - t);
  c.hint = k;
  for (int steps = 0; k != c.begin && steps < 256; ++steps) {
    uint32_t idx = --k;
    if (ts < s.end_ns(idx) || t[idx] == ts) return idx;  // t[idx] <= ts holds for all of them
  }
  return UINT32_MAX;
}

uint32_t next_slice(const TraceModel& m, FlowCursor& c, int64_t ts) {
  const int64_t* t = m.slices.ts_ns.data();
  uint32_t k = uint32_t(partition_from(t + c.begin, t + c.end, t + c.hint, [ts](int64_t x) { return x < ts; }) - t);
  c.hint = k;
  return k == c.end ? UINT32_MAX : k;
}

}  // namespace

std::vector<FlowCursor> flow_cursors(const TraceModel& m) {
  std::vector<FlowCursor> cursors;
  cursors.reserve(m.tracks.size());
  for (const Track& t : m.tracks) cursors.push_back(FlowCursor{t.slice_begin, t.slice_end, t.slice_begin});
  return cursors;
}

uint32_t bind_flow_point(const TraceModel& m, std::vector<FlowCursor>& cursors, uint32_t track, int64_t ts,
                         bool enclosing) {
  if (track >= cursors.size()) return UINT32_MAX;
  FlowCursor& c = cursors[track];
  return enclosing ? enclosing_slice(m, c, ts) : next_slice(m, c, ts);
}

void FlowPoints::add(uint64_t id, StringId cat, StringId name, uint32_t track, int64_t ts, uint8_t order,
                     bool enclosing, uint64_t offset) {
  uint64_t pair = (uint64_t(cat) << 32) | name;
  auto [it, added] = key_index.try_emplace(pair, static_cast<uint32_t>(keys.size()));
  if (added) keys.push_back(pair);
  points.push_back(FlowPoint{id, it->second, track, ts, offset << 3 | uint64_t(order) << 1 | uint64_t(enclosing)});
}

// Files do not list flow events in time order (Kineto writes a kernel's "f" before its launch's
// "s"), so endpoints are paired after the last event: per (id, cat, name), in time order.
void bind_flows_v1(TraceModel& m, FlowPoints& v1, size_t v2_marks, ImportStats& stats) {
  std::vector<FlowPoint>& pts = v1.points;
  const std::vector<uint64_t>& keys = v1.keys;
  // Each point is bound to its slice first, in input order: per track that is nearly time order, so
  // each track's cursor moves a few slices per point (in the pairing order below, by id, every
  // point would be a binary search over its whole track).
  {
    std::vector<FlowCursor> cursors = flow_cursors(m);
    for (FlowPoint& p : pts) p.track = bind_flow_point(m, cursors, p.track, p.ts_ns, p.enclosing());
  }
  // FlowPointLess is a total order (the input offset last), so any sort gives one result. In input
  // order the ids mostly rise (a file lists launches, then kernels, each in id order): a few runs,
  // and neighbours out of place, which sort_runs settles and merges.
  sort_runs(pts, FlowPointLess{keys.data()});
  // Counted here, reported once: a large trace can have hundreds of thousands of endpoints without a
  // partner, and a call per problem (a map lookup of a fresh name string) would be paid for each.
  struct Tally {
    uint64_t count = 0, first = UINT64_MAX;
    void add(uint64_t offset) { ++count, first = std::min(first, offset); }
  } without_end, without_start, unbound;
  // One pass to count the flows, so that m.flows is reserved once and exactly (reserving for every
  // closing point, up to twice the flows, can grow the wasm heap a step), one to pair them.
  for (const bool count_only : {true, false}) {
    size_t n_flows = 0;
    const FlowPoint* open = nullptr;
    for (const FlowPoint& p : pts) {
      if (open && (open->id != p.id || open->key != p.key)) {
        if (!count_only) without_end.add(open->offset());
        open = nullptr;
      }
      if (p.order() == 0) {
        if (open && !count_only) without_end.add(open->offset());
        open = &p;
        continue;
      }
      if (!open) {
        if (!count_only) without_start.add(p.offset());
        continue;
      }
      ++n_flows;
      if (!count_only) {
        uint64_t key = keys[p.key];
        Flow flow{open->track, p.track, static_cast<StringId>(key >> 32), static_cast<StringId>(key & 0xffffffffu)};
        if (flow.from_slice == UINT32_MAX || flow.to_slice == UINT32_MAX)
          unbound.add((flow.from_slice == UINT32_MAX ? open : &p)->offset());
        m.flows.push_back(flow);
      }
      open = p.order() == 1 ? &p : nullptr;
    }
    if (count_only) m.flows.reserve(m.flows.size() + n_flows + v2_marks);
    else if (open) without_end.add(open->offset());
  }
  stats.problem("flow_without_end", without_end.count, without_end.first);
  stats.problem("flow_without_start", without_start.count, without_start.first);
  stats.problem("flow_unbound", unbound.count, unbound.first);
  v1 = FlowPoints();  // frees the points
}

// v2: walk the marks in time order (stable: file order for equal times, and a slice's flow_in
// before its flow_out). A flow_in comes from the latest flow_out on its bind_id, and one flow_out
// may feed several flow_ins (as Perfetto resolves them).
void resolve_flows_v2(TraceModel& m, std::vector<FlowV2Mark>& marks, ImportStats& stats) {
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
      stats.problem("flow_without_start", m.slices.src_offset_at(mk.slice));
      continue;
    }
    m.flows.push_back(Flow{it->second, mk.slice, 0, 0});
  }
  std::vector<FlowV2Mark>().swap(marks);  // released, not just cleared, for link_launches
}

}  // namespace tw
