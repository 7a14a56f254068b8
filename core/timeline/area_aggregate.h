// Area aggregate: what a dragged time range contains on a set of lanes, per name: how many slices
// intersect the range, their total duration, total self time and the part of their duration that
// lies inside the range. Cost is linear in the slices found (each row located by binary search).
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "core/timeline/timeline_index.h"

namespace tw {

// {"slices": n, "names": n, "truncated": bool, "rows": [{name, count, totalNs, selfNs, inRangeNs}]}
// sorted by totalNs descending, at most max_rows rows. Non-slice lanes are ignored.
nlohmann::json area_aggregate(const TimelineIndex& index, const std::vector<uint32_t>& lanes, int64_t a_ns,
                              int64_t b_ns, size_t max_rows = 500);

}  // namespace tw
