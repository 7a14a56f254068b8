// Parent links of the slice table: for each slice, the slice it is nested in on its track (the one
// directly below it in the depth rows), or kNoParent. finish() sets them with the depths (the same
// stack, so parent(i) always has depth(i) - 1); analyses take them as a vector.
#pragma once
#include <cstdint>
#include <vector>

#include "core/model/trace_model.h"

namespace tw {

inline const std::vector<uint32_t>& slice_parents(const TraceModel& m) { return m.slices.parent; }

}  // namespace tw
