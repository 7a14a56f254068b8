// The gpu_ops rows whose op STARTS inside a window [begin, end) (a profiler step), as row ranges in
// ascending row order. gpu_ops is sorted by slice and slices by (track, start), so each track's ops
// are one run of rows in start order: a window costs two binary searches per track, not a pass over
// every op of the trace. Visiting the ranges in order visits the selected rows in row order.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "core/analysis/intervals.h"
#include "core/model/trace_model.h"

namespace tw {

// Null window: one range with every row.
std::vector<std::pair<uint32_t, uint32_t>> gpu_rows_starting_in(const TraceModel& m, const Interval* window);

}  // namespace tw
