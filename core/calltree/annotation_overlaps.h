// Which annotation's GPU work runs under which (annotations.h): among the names with most GPU
// time, each pair that shares no launched op (nested annotations share theirs and would overlap
// trivially), with the time the unions of their ops' GPU spans intersect.
#pragma once
#include <cstdint>
#include <vector>

#include "core/calltree/annotations.h"
#include "core/model/trace_model.h"

namespace tw {

// rows: annotation_stats' rows; op_ids[row]: the indices into m.launches of the ops attributed to
// it (any order; module rows' lists are empty). The lists are sorted, then freed as they are used.
// By overlap, at most kMaxAnnotationOverlaps.
std::vector<AnnotationOverlap> annotation_overlaps(const TraceModel& m, const std::vector<AnnotationStat>& rows,
                                                   std::vector<std::vector<uint32_t>>& op_ids);

}  // namespace tw
