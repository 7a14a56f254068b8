// Flow endpoints collected during import and bound to slices after the slices are sorted: v1 flow
// events (s/t/f) are paired per (id, cat, name) in time order before the slices are sorted (only
// the flows are kept then, not every endpoint), v2 marks (bind_id + flow_in/out) are resolved in
// time order.
#pragma once
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "core/base/pod_buffer.h"
#include "core/model/import_stats.h"
#include "core/model/trace_model.h"

namespace tw {

// One v1 flow event, 24 bytes: a 1 GB Kineto trace holds ~1.6 M of them until finish(), and with
// the model they set the import's peak. Its (cat, name) and track are one lane (FlowPoints::lanes),
// packed with the input offset: an endpoint past 1 TiB into the input, or on a 2^21st lane (a
// hostile file: Kineto's have a few per thread), is not kept but counted (flow_endpoint_skipped).
struct FlowPoint {
  static constexpr int kLaneBits = 21;
  static constexpr uint32_t kLaneLimit = uint32_t(1) << kLaneBits;
  static constexpr uint64_t kOffsetLimit = uint64_t(1) << (64 - 3 - kLaneBits);
  uint64_t id;  // the id (number, or 1 << 63 | interned text)
  int64_t ts_ns;
  uint64_t bits;  // input offset << 24 | lane << 3 | order (s = 0, t = 1, f = 2) << 1 | enclosing
  static uint64_t bits_of(uint64_t offset, uint32_t lane, uint32_t order, bool enclosing) {
    return offset << (3 + kLaneBits) | uint64_t(lane) << 3 | uint64_t(order) << 1 | uint64_t(enclosing);
  }
  uint64_t offset() const { return bits >> (3 + kLaneBits); }
  uint32_t lane() const { return static_cast<uint32_t>(bits >> 3) & (kLaneLimit - 1); }
  void set_lane(uint32_t lane) { bits = (bits & ~(uint64_t(kLaneLimit - 1) << 3)) | uint64_t(lane) << 3; }
  uint32_t order() const { return static_cast<uint32_t>(bits >> 1) & 3; }
  // Binds to the enclosing slice on its track, or for a terminating endpoint without bp="e" to the
  // next slice that starts at or after ts (trace-event spec).
  bool enclosing() const { return bits & 1; }
};

// A lane: the (cat, name) pair of FlowPoints::keys and the track its endpoints are on.
struct FlowLane {
  uint32_t key, track;
};

// The order points are paired in: per (id, cat, name), by time. The s/t/f order and then the input
// offset make it total (no two events share an offset).
struct FlowPointLess {
  const uint64_t* lane_keys;  // per lane, its (cat, name) pair as FlowPoints::keys holds it
  bool operator()(const FlowPoint& a, const FlowPoint& b) const {
    if (a.id != b.id) return a.id < b.id;
    const uint64_t ka = lane_keys[a.lane()], kb = lane_keys[b.lane()];
    if (ka != kb) return ka < kb;
    if (a.ts_ns != b.ts_ns) return a.ts_ns < b.ts_ns;
    if (a.order() != b.order()) return a.order() < b.order();
    return a.offset() < b.offset();
  }
};

struct FlowPoints {
  PodBuffer<FlowPoint> points;  // in input order (points are only ever appended)
  std::vector<uint64_t> keys;   // (cat << 32) | name, by key index
  std::unordered_map<uint64_t, uint32_t> key_index;
  std::vector<FlowLane> lanes;                        // by lane index
  std::unordered_map<uint64_t, uint32_t> lane_index;  // key << 32 | track

  // False when the point is not kept (past the offset or lane limit: FlowPoint).
  bool add(uint64_t id, StringId cat, StringId name, uint32_t track, int64_t ts, uint8_t order, bool enclosing,
           uint64_t offset);
  uint32_t key_of(StringId cat, StringId name);
  // The lane's index, or kLaneLimit when there is no room for a new one.
  uint32_t lane_of(uint32_t key, uint32_t track);
  size_t size() const { return points.size(); }
  size_t capacity() const { return points.capacity(); }
  void reserve(size_t n) { points.reserve(n); }
};

// The v1 flows paired by pair_flows_v1, their endpoints not bound to slices yet: the endpoints that
// are in a flow, compacted in place into the front of the endpoints' own block, which then gives
// its tail back (no second block beside it). Each chain of flows on one (id, cat, name) is its
// points in pairing order, its head the only one with order 0 (s): a point with order t or f is the
// end of a flow from the point before it.
struct PendingFlows {
  PodBuffer<FlowPoint> points;
  size_t flows = 0;             // points that end a flow
  std::vector<uint64_t> keys;   // FlowPoints::keys
  std::vector<FlowLane> lanes;  // FlowPoints::lanes
};

// Flow v2: slices carrying bind_id with flow_out / flow_in (indices before sorting).
struct FlowV2Mark {
  StringId bind_id;  // interned id text
  uint32_t slice;
  bool out;
};

// Binding one endpoint to a slice of its track, with a cursor per track that remembers where the
// last search on that track ended (queries close in time cost a few steps).
struct FlowCursor {
  uint32_t begin, end;  // the track's slices in the sorted table
  uint32_t hint;
};
std::vector<FlowCursor> flow_cursors(const TraceModel& m);  // needs the slices sorted, depths assigned
// The deepest slice containing ts (start <= ts < end, or ts == start; looked for among the 256 slices
// starting last at or before ts) when `enclosing`, else the first slice starting at or after ts;
// UINT32_MAX if none (or the track does not exist).
uint32_t bind_flow_point(const TraceModel& m, std::vector<FlowCursor>& cursors, uint32_t track, int64_t ts,
                         bool enclosing);

// Pairs the v1 endpoints (no slices needed) and reports those without a partner; frees `v1`. Run
// before the slices are sorted, so that the endpoints and the sort's order and scratch are never
// held together.
PendingFlows pair_flows_v1(FlowPoints& v1, ImportStats& stats);
// Both need the slices sorted with depths assigned (and v2 marks renumbered to sorted slices).
// Each frees its input. v1 flows are appended to m.flows first, then v2 flows.
void bind_flows_v1(TraceModel& m, PendingFlows& v1, size_t v2_marks, ImportStats& stats);
void resolve_flows_v2(TraceModel& m, std::vector<FlowV2Mark>& marks, ImportStats& stats);

}  // namespace tw
