// Sorting v1 flow points into pairing order ahead of finish(), while the importer waits for input.
//
// finish() pairs the points by (id, cat, name) in time order, which needs them sorted: that sort
// lies in the serial tail after the last byte, while a gzip import's trace worker idles for long
// stretches waiting for the inflater (docs/performance.md, "Work ahead while waiting"). So the
// points that have arrived are sorted in small runs during those waits, and finish() only merges
// the runs with the rest. The points themselves stay in input order: finish() binds them to slices
// in that order, where each track's cursor moves a few slices per point whatever the ids look like.
// The runs hold point indices instead (4 bytes per point), sorted through the points.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/model/flows.h"

namespace tw {

struct PresortLimits {
  size_t min_run = 16384;  // fewer unsorted points than this wait for the next step
  // Points sorted by one step. An input arriving waits for the step, so a step stays well under a
  // millisecond in wasm, merges included.
  size_t max_run = 65536;
  size_t max_merge = 262144;  // the largest run a merge step makes (one step merges two like runs)
};

// One bounded step: merges the last two runs when they are of like size (so that few runs remain
// for finish()), else sorts up to max_run of the points not yet in a run as a new run. Returns false
// when there was nothing to do.
bool presort_flow_points(FlowPoints& v1, const PresortLimits& limits = {});

// Puts the points in FlowPointLess order for pairing. The points not in a run are sorted in place
// (directly, not through indices: a file imported in parts, or read faster than it is parsed, has
// most of its points there). Returns the indices of all points in that order, the runs merged with
// the rest; or nothing when no run was made: then the points themselves are in order (and no
// 4 bytes per point are spent on indices). Call it once the points are bound to slices, when their
// input order is no longer needed. Frees the runs.
std::vector<uint32_t> flow_pairing_order(FlowPoints& v1);

}  // namespace tw
