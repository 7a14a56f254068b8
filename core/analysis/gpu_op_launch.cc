#include "core/analysis/gpu_op_launch.h"

#include <algorithm>

namespace tw {

uint32_t gpu_op_row(const TraceModel& m, uint32_t slice) {
  const std::vector<uint32_t>& v = m.gpu_ops.slice;
  auto it = std::lower_bound(v.begin(), v.end(), slice);
  return it != v.end() && *it == slice ? static_cast<uint32_t>(it - v.begin()) : UINT32_MAX;
}

std::vector<uint32_t> launch_per_gpu_op(const TraceModel& m) {
  std::vector<uint32_t> out(m.gpu_ops.size(), kNoLaunch);
  GpuRowCursor cursor(m);
  for (const LaunchLink& l : m.launches) {
    uint32_t row = cursor.row_of(l.gpu_slice);
    if (row != UINT32_MAX && l.launch_slice < m.slices.size()) out[row] = l.launch_slice;
  }
  return out;
}

}  // namespace tw
