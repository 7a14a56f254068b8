// Parent links of the slice table: for each slice, the slice it is nested in on its track (the one
// directly below it in the depth rows), or kNoParent. Built in one pass with the same stack rule as
// finalize.cc's depths, so parent(i) always has depth(i) - 1. Operators, host syncs and module
// attribution walk these links instead of searching the timeline.
#pragma once
#include <cstdint>
#include <vector>

#include "core/model/trace_model.h"

namespace tw {

constexpr uint32_t kNoParent = UINT32_MAX;

std::vector<uint32_t> slice_parents(const TraceModel& m);

}  // namespace tw
