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

// gpu_op_row for a sequence of slices: walks forward while the slices increase (model.launches is
// in gpu_ops order), so a whole pass is linear; falls back to binary search otherwise.
class GpuRowCursor {
 public:
  explicit GpuRowCursor(const TraceModel& m) : m_(m) {}
  uint32_t row_of(uint32_t slice) {
    const std::vector<uint32_t>& v = m_.gpu_ops.slice;
    if (row_ < v.size() && v[row_] <= slice) {
      for (int steps = 0; row_ < v.size() && v[row_] < slice && steps < 64; ++steps) ++row_;
      if (row_ < v.size() && v[row_] == slice) return row_;
    }
    uint32_t r = gpu_op_row(m_, slice);
    if (r != UINT32_MAX) row_ = r;
    return r;
  }

 private:
  const TraceModel& m_;
  uint32_t row_ = 0;
};

}  // namespace tw
