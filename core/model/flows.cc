#include "core/model/flows.h"

#include <algorithm>
#include <cstring>
#include <functional>

#include "core/base/partition_from.h"
#include "core/base/run_sort.h"
#include "core/model/side_rows.h"

namespace tw {

namespace {

// The deepest slice on the track that contains ts (start <= ts < end, or ts == start) among the 256
// starting last at or before ts: the first one found walking back. A slice H sorted before G that
// still contains ts was open when G was pushed in assign_depths (rows are only closed once they
// end, and H ends after ts >= G's start), so G's depth is greater, even among overlapping slices;
// only two zero-length slices at ts can tie, and then the later one is kept.
uint32_t enclosing_slice(const TraceModel& m, FlowCursor& c, int64_t ts) {
  const SliceTable& s = m.slices;
  const TimeColumn::const_iterator t = s.ts_ns.begin();
  uint32_t k = uint32_t(partition_from(t + c.begin, t + c.end, t + c.hint, [ts](int64_t x) { return x <= ts; }) - t);
  c.hint = k;
  for (int steps = 0; k != c.begin && steps < 256; ++steps) {
    uint32_t idx = --k;
    if (ts < s.end_ns(idx) || t[idx] == ts) return idx;  // t[idx] <= ts holds for all of them
  }
  return UINT32_MAX;
}

uint32_t next_slice(const TraceModel& m, FlowCursor& c, int64_t ts) {
  const TimeColumn::const_iterator t = m.slices.ts_ns.begin();
  uint32_t k = uint32_t(partition_from(t + c.begin, t + c.end, t + c.hint, [ts](int64_t x) { return x < ts; }) - t);
  c.hint = k;
  return k == c.end ? UINT32_MAX : k;
}

}  // namespace

std::vector<FlowCursor> flow_cursors(const TraceModel& m) {
  std::vector<FlowCursor> cursors;
  cursors.reserve(m.tracks.size());
  for (size_t t = 0; t < m.tracks.size(); ++t) {
    const SliceTable::Rows r = m.slices.rows_of(t);
    cursors.push_back(FlowCursor{r.begin, r.end, r.begin});
  }
  return cursors;
}

uint32_t bind_flow_point(const TraceModel& m, std::vector<FlowCursor>& cursors, uint32_t track, int64_t ts,
                         bool enclosing) {
  if (track >= cursors.size()) return UINT32_MAX;
  FlowCursor& c = cursors[track];
  return enclosing ? enclosing_slice(m, c, ts) : next_slice(m, c, ts);
}

uint32_t FlowPoints::key_of(StringId cat, StringId name) {
  const uint64_t pair = (uint64_t(cat) << 32) | name;
  auto [it, added] = key_index.try_emplace(pair, static_cast<uint32_t>(keys.size()));
  if (added) keys.push_back(pair);
  return it->second;
}

uint32_t FlowPoints::lane_of(uint32_t key, uint32_t track) {
  const uint64_t pair = (uint64_t(key) << 32) | track;
  if (auto it = lane_index.find(pair); it != lane_index.end()) return it->second;
  if (lanes.size() >= FlowPoint::kLaneLimit) return FlowPoint::kLaneLimit;
  lane_index.emplace(pair, static_cast<uint32_t>(lanes.size()));
  lanes.push_back(FlowLane{key, track});
  return static_cast<uint32_t>(lanes.size() - 1);
}

bool FlowPoints::add(uint64_t id, StringId cat, StringId name, uint32_t track, int64_t ts, uint8_t order,
                     bool enclosing, uint64_t offset) {
  if (offset >= FlowPoint::kOffsetLimit) return false;
  const uint32_t lane = lane_of(key_of(cat, name), track);
  if (lane == FlowPoint::kLaneLimit) return false;
  points.push_back(FlowPoint::make(id, FlowPoint::bits_of(offset, lane, order, enclosing), times.code(offset, ts)));
  return true;
}

uint32_t FlowTimes::code(uint64_t offset, int64_t ts) {
  const uint64_t mib = offset >> kMiBBits;
  if (mib >= bases.size()) bases.resize(static_cast<size_t>(mib) + 1, TimeColumn::base_around(ts));
  const uint32_t c = TimeColumn::code_under(bases[static_cast<size_t>(mib)], ts);
  if (c == kEscaped) escaped_offsets.push_back(offset), escaped_ts.push_back(ts);
  return c;
}

int64_t FlowTimes::escaped_at(uint64_t offset) const {
  const size_t k = find_side_row(escaped_offsets, offset);
  return k < escaped_ts.size() ? escaped_ts[k] : 0;  // 0: only for a table fits() refuses
}

bool FlowTimes::fits(const FlowPoint* points, size_t n) const {
  if (escaped_ts.size() != escaped_offsets.size() ||
      !std::is_sorted(escaped_offsets.begin(), escaped_offsets.end(), std::less_equal<uint64_t>()))
    return false;
  for (size_t i = 0; i < n; ++i) {
    const uint64_t offset = points[i].offset();
    if ((offset >> kMiBBits) >= bases.size() || (i && offset <= points[i - 1].offset())) return false;
    if (points[i].ts_code == kEscaped && find_side_row(escaped_offsets, offset) == escaped_offsets.size()) return false;
  }
  return true;
}

namespace {

// Counted here, reported once: a large trace can have hundreds of thousands of endpoints without a
// partner, and a call per problem (a map lookup of a fresh name string) would be paid for each.
struct Tally {
  uint64_t count = 0, first = UINT64_MAX;
  void add(uint64_t offset) { ++count, first = std::min(first, offset); }
};

}  // namespace

// Files do not list flow events in time order (Kineto writes a kernel's "f" before its launch's
// "s"), so endpoints are paired after the last event: per (id, cat, name), in time order.
PendingFlows pair_flows_v1(FlowPoints& v1, ImportStats& stats) {
  PodBuffer<FlowPoint>& pts = v1.points;
  // FlowPointLess is a total order (the input offset last), so any sort gives one result. In input
  // order the ids mostly rise (a file lists launches, then kernels, each in id order): a few runs,
  // and neighbours out of place, which sort_runs settles and merges.
  std::vector<uint64_t> lane_keys(v1.lanes.size());
  for (size_t l = 0; l < lane_keys.size(); ++l) lane_keys[l] = v1.keys[v1.lanes[l].key];
  sort_runs(pts.data(), pts.size(), FlowPointLess{lane_keys.data(), &v1.times});
  Tally without_end, without_start;
  PendingFlows out;
  // The endpoints of the points in a flow are written over the front of the block as they pair, as
  // bytes (12 a point, where each point read is 20): `kept` never passes the point being read (a
  // chain's head is written when its first flow closes, after the points before it), and the open
  // point is held by value, its slot possibly written over.
  size_t kept = 0;
  char* const front = reinterpret_cast<char*>(pts.data());
  const auto keep = [&](const FlowEndpoint& e) { std::memcpy(front + kept++ * sizeof e, &e, sizeof e); };
  FlowPoint open{};
  bool has_open = false, open_kept = false;
  for (size_t i = 0; i < pts.size(); ++i) {
    FlowPoint p;
    std::memcpy(&p, front + i * sizeof p, sizeof p);
    if (has_open && (open.id() != p.id() || v1.lanes[open.lane()].key != v1.lanes[p.lane()].key)) {
      without_end.add(open.offset());
      has_open = false;
    }
    if (p.order() == 0) {
      if (has_open) without_end.add(open.offset());
      open = p, has_open = true, open_kept = false;
      continue;
    }
    if (!has_open) {
      without_start.add(p.offset());
      continue;
    }
    if (!open_kept) keep(open);
    keep(p);
    ++out.flows;
    has_open = p.order() == 1;
    open = p, open_kept = true;
  }
  if (has_open) without_end.add(open.offset());
  stats.problem("flow_without_end", without_end.count, without_end.first);
  stats.problem("flow_without_start", without_start.count, without_start.first);
  out.points = std::move(pts).reuse_as<FlowEndpoint>(kept);  // the tail goes back to the heap for the slices' sort
  out.times = std::move(v1.times);
  out.keys = std::move(v1.keys);
  out.lanes = std::move(v1.lanes);
  v1 = FlowPoints();
  return out;
}

void bind_flows_v1(TraceModel& m, PendingFlows& v1, size_t v2_marks, ImportStats& stats) {
  m.flows.reserve(m.flows.size() + v1.flows + v2_marks);
  // Flows come by id, which per track mostly rises with time: each track's cursor moves a few
  // slices per endpoint.
  std::vector<FlowCursor> cursors = flow_cursors(m);
  Tally unbound;
  const PodBuffer<FlowEndpoint>& pts = v1.points;
  for (size_t i = 1; i < pts.size(); ++i) {
    if (pts[i].order() == 0) continue;  // a chain's head: no flow ends here
    const FlowEndpoint &a = pts[i - 1], &b = pts[i];
    const FlowLane &la = v1.lanes[a.lane()], &lb = v1.lanes[b.lane()];
    const uint32_t from = bind_flow_point(m, cursors, la.track, v1.times.at(a), a.enclosing());
    const uint32_t to = bind_flow_point(m, cursors, lb.track, v1.times.at(b), b.enclosing());
    if (from == UINT32_MAX || to == UINT32_MAX) unbound.add((from == UINT32_MAX ? a : b).offset());
    const uint64_t key = v1.keys[lb.key];
    m.flows.push_back(Flow{from, to, static_cast<StringId>(key >> 32), static_cast<StringId>(key & 0xffffffffu)});
  }
  stats.problem("flow_unbound", unbound.count, unbound.first);
  v1 = PendingFlows();  // frees the flows
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
