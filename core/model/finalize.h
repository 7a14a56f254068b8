// Model finalisation after the last event: sort slices per track, assign nesting depth, bind flow
// endpoints to slices, link CPU launches to GPU ops by correlation id.
#pragma once
#include <vector>

#include "core/model/flows.h"
#include "core/model/import_stats.h"
#include "core/model/trace_model.h"

namespace tw {

struct PendingLinks {
  FlowPoints flows_v1;
  std::vector<FlowV2Mark> flows_v2;
};

// Frees `links`. Extra memory on top of the model: the v1 flow endpoints while they are paired
// (and their sort), then 8 bytes per slice for the sort order and its scratch with the paired flows
// (48 bytes each) waiting for the sorted slices.
void finalize_model(TraceModel& m, PendingLinks& links, ImportStats& stats);

}  // namespace tw
