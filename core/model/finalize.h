// Model finalisation after the last event: sort slices per track, assign nesting depth, bind flow
// endpoints to slices, link CPU launches to GPU ops by correlation id.
#pragma once
#include <cstdint>
#include <vector>

#include "core/import/import_stats.h"
#include "core/model/trace_model.h"

namespace tw {

// A v1 flow endpoint (s/t/f): binds to the enclosing slice on its track, or for a terminating
// endpoint without bp="e" to the next slice that starts at or after ts (trace-event spec).
struct FlowEndpoint {  // 16 bytes: ts first, so track and the flag share the second word
  int64_t ts_ns = 0;
  uint32_t track = 0;
  bool enclosing = true;
};

struct PendingFlow {
  FlowEndpoint from, to;
  StringId cat = 0, name = 0;
};

// Flow v2: slices carrying bind_id with flow_out / flow_in (indices before sorting).
struct FlowV2Mark {
  StringId bind_id;  // interned id text
  uint32_t slice;
  bool out;
};

struct PendingLinks {
  std::vector<PendingFlow> flows_v1;
  std::vector<FlowV2Mark> flows_v2;
};

void finalize_model(TraceModel& m, PendingLinks& links, ImportStats& stats);

}  // namespace tw
