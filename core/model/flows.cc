#include "core/model/flows.h"

#include <algorithm>

namespace tw {

namespace {

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

uint32_t bind(const TraceModel& m, const FlowPoint& p) {
  if (p.track >= m.tracks.size()) return UINT32_MAX;
  return p.enclosing() ? enclosing_slice(m, p.track, p.ts_ns) : next_slice(m, p.track, p.ts_ns);
}

}  // namespace

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
  std::sort(pts.begin(), pts.end(), [&keys](const FlowPoint& a, const FlowPoint& b) {
    if (a.id != b.id) return a.id < b.id;
    if (a.key != b.key) return keys[a.key] < keys[b.key];
    if (a.ts_ns != b.ts_ns) return a.ts_ns < b.ts_ns;
    return a.order() < b.order();
  });
  // One pass to count the flows (m.flows is reserved once), one to pair and bind them.
  for (int pass = 0; pass < 2; ++pass) {
    size_t n_flows = 0;
    const FlowPoint* open = nullptr;
    auto problem = [&](const char* name, uint64_t offset) {
      if (pass == 1) stats.problem(name, offset);
    };
    for (const FlowPoint& p : pts) {
      if (open && (open->id != p.id || open->key != p.key)) {
        problem("flow_without_end", open->offset());
        open = nullptr;
      }
      if (p.order() == 0) {
        if (open) problem("flow_without_end", open->offset());
        open = &p;
        continue;
      }
      if (!open) {
        problem("flow_without_start", p.offset());
        continue;
      }
      ++n_flows;
      if (pass == 1) {
        uint64_t pair = keys[p.key];
        Flow flow{bind(m, *open), bind(m, p), static_cast<StringId>(pair >> 32),
                  static_cast<StringId>(pair & 0xffffffffu)};
        if (flow.from_slice == UINT32_MAX || flow.to_slice == UINT32_MAX) stats.problem("flow_unbound", 0);
        m.flows.push_back(flow);
      }
      open = p.order() == 1 ? &p : nullptr;
    }
    if (open) problem("flow_without_end", open->offset());
    if (pass == 0) m.flows.reserve(m.flows.size() + n_flows + v2_marks);
  }
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
      stats.problem("flow_without_start", m.slices.src_offset[mk.slice]);
      continue;
    }
    m.flows.push_back(Flow{it->second, mk.slice, 0, 0});
  }
  std::vector<FlowV2Mark>().swap(marks);  // released, not just cleared, for link_launches
}

}  // namespace tw
