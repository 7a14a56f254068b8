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

// Where and when one v1 flow event is, 12 bytes: all that binding it to a slice needs once it is
// paired (PendingFlows). Its (cat, name) and track are one lane (FlowPoints::lanes), packed with
// the input offset: an endpoint past 1 TiB into the input, or on a 2^21st lane (a hostile file:
// Kineto's have a few per thread), is not kept but counted (flow_endpoint_skipped). Its time is 4
// bytes against its MiB of input (FlowTimes). 32-bit halves: 4-byte alignment, so arrays of these
// have no padding.
struct FlowEndpoint {
  static constexpr int kLaneBits = 21;
  static constexpr uint32_t kLaneLimit = uint32_t(1) << kLaneBits;
  static constexpr uint64_t kOffsetLimit = uint64_t(1) << (64 - 3 - kLaneBits);
  uint32_t bits_lo, bits_hi;  // input offset << 24 | lane << 3 | order (s = 0, t = 1, f = 2) << 1 | enclosing
  uint32_t ts_code;           // FlowTimes
  static uint64_t bits_of(uint64_t offset, uint32_t lane, uint32_t order, bool enclosing) {
    return offset << (3 + kLaneBits) | uint64_t(lane) << 3 | uint64_t(order) << 1 | uint64_t(enclosing);
  }
  uint64_t bits() const { return uint64_t(bits_hi) << 32 | bits_lo; }
  uint64_t offset() const { return bits() >> (3 + kLaneBits); }
  uint32_t lane() const { return (bits_lo >> 3) & (kLaneLimit - 1); }
  void set_lane(uint32_t lane) { bits_lo = (bits_lo & ~((kLaneLimit - 1) << 3)) | lane << 3; }
  uint32_t order() const { return (bits_lo >> 1) & 3; }
  // Binds to the enclosing slice on its track, or for a terminating endpoint without bp="e" to the
  // next slice that starts at or after ts (trace-event spec).
  bool enclosing() const { return bits_lo & 1; }
};
static_assert(sizeof(FlowEndpoint) == 12);

// One v1 flow event as imported, 20 bytes: a 1 GB Kineto trace holds ~1.6 M of them until
// finish(), and with the model they set the import's peak. The id pairs it; then it is dropped.
struct FlowPoint : FlowEndpoint {
  uint32_t id_lo, id_hi;  // the id (number, or 1 << 63 | interned text)
  static FlowPoint make(uint64_t id, uint64_t bits, uint32_t ts_code) {
    return FlowPoint{{static_cast<uint32_t>(bits), static_cast<uint32_t>(bits >> 32), ts_code},
                     static_cast<uint32_t>(id),
                     static_cast<uint32_t>(id >> 32)};
  }
  uint64_t id() const { return uint64_t(id_hi) << 32 | id_lo; }
  void set_id(uint64_t id) { id_lo = static_cast<uint32_t>(id), id_hi = static_cast<uint32_t>(id >> 32); }
};
static_assert(sizeof(FlowPoint) == 20);

// The endpoints' times: each MiB of input offset has a 64-bit base, set by its first endpoint (half
// the code range below it, as TimeColumn's blocks), and a point's code is its time minus its MiB's
// base. A file's events lie close in time within a MiB, so nearly every code fits; a time that does
// not (any int64 must read back exactly) is coded kEscaped and kept in a side table by input
// offset, which is unique per event and travels with the point through the sort.
struct FlowTimes {
  static constexpr int kMiBBits = 20;
  static constexpr uint32_t kEscaped = UINT32_MAX;
  std::vector<int64_t> bases;             // per MiB of input offset, up to the last point's
  std::vector<uint64_t> escaped_offsets;  // ascending
  std::vector<int64_t> escaped_ts;
  // The code of a point at `offset`, not before any point kept so far (points come in input order).
  uint32_t code(uint64_t offset, int64_t ts);
  int64_t at(const FlowEndpoint& p) const {
    return p.ts_code != kEscaped ? bases[p.offset() >> kMiBBits] + int64_t(p.ts_code) : escaped_at(p.offset());
  }
  // True when every one of `points` (in input order) reads a time here: its MiB has a base, and its
  // escape a side row.
  bool fits(const FlowPoint* points, size_t n) const;
  int64_t escaped_at(uint64_t offset) const;
};

// A lane: the (cat, name) pair of FlowPoints::keys and the track its endpoints are on.
struct FlowLane {
  uint32_t key, track;
};

// The order points are paired in: per (id, cat, name), by time. The s/t/f order and then the input
// offset make it total (no two events share an offset).
struct FlowPointLess {
  const uint64_t* lane_keys;  // per lane, its (cat, name) pair as FlowPoints::keys holds it
  const FlowTimes* times;
  bool operator()(const FlowPoint& a, const FlowPoint& b) const {
    if (a.id() != b.id()) return a.id() < b.id();
    const uint64_t ka = lane_keys[a.lane()], kb = lane_keys[b.lane()];
    if (ka != kb) return ka < kb;
    const int64_t ta = times->at(a), tb = times->at(b);
    if (ta != tb) return ta < tb;
    if (a.order() != b.order()) return a.order() < b.order();
    return a.offset() < b.offset();
  }
};

struct FlowPoints {
  PodBuffer<FlowPoint> points;  // in input order (points are only ever appended)
  FlowTimes times;
  std::vector<uint64_t> keys;  // (cat << 32) | name, by key index
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
// are in a flow, their FlowEndpoint compacted in place into the front of the FlowPoints' own block,
// which then gives its tail back (no second block beside it; that tail takes the slices' sort order
// and scratch). Each chain of flows on one (id, cat, name) is its
// points in pairing order, its head the only one with order 0 (s): a point with order t or f is the
// end of a flow from the point before it.
struct PendingFlows {
  PodBuffer<FlowEndpoint> points;
  FlowTimes times;              // FlowPoints::times
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
