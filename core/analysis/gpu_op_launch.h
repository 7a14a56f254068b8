// For each GPU op (model.gpu_ops row), the CPU runtime call that launched it (model.launches,
// matched by correlation id at import), or kNoLaunch.
#pragma once
#include <cstdint>
#include <vector>

#include "core/model/trace_model.h"

namespace tw {

constexpr uint32_t kNoLaunch = UINT32_MAX;

std::vector<uint32_t> launch_per_gpu_op(const TraceModel& m);

// The gpu_ops row of a slice, or UINT32_MAX when the slice is not a GPU op (gpu_ops is sorted by slice).
uint32_t gpu_op_row(const TraceModel& m, uint32_t slice);

}  // namespace tw
