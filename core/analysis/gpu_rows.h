// The rows whose op or slice STARTS inside a window [begin, end) (a profiler step), as row ranges in
// ascending row order. Slices are sorted by (track, start) and gpu_ops by slice, so each track's rows
// are one run in start order: a window costs two binary searches per track, not a pass over every
// row of the trace (a summary asks once per step, for up to 32 steps). Visiting the ranges in order
// visits the selected rows in row order, as a filtered pass over all rows would.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "core/analysis/intervals.h"
#include "core/model/trace_model.h"

namespace tw {

// Null window: one range with every row.
std::vector<std::pair<uint32_t, uint32_t>> gpu_rows_starting_in(const TraceModel& m, const Interval* window);
std::vector<std::pair<uint32_t, uint32_t>> slice_rows_starting_in(const TraceModel& m, const Interval* window);

}  // namespace tw
