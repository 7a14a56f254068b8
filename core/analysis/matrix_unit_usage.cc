#include "core/analysis/matrix_unit_usage.h"

namespace tw {

MatrixUnitUsage matrix_unit_usage(const TraceModel& m, const KernelsResult& kernels) {
  MatrixUnitUsage u;
  u.device = busiest_device(m);
  if (u.device) u.family = gpu_family(*u.device);
  for (const KernelStat& k : kernels.by_name) {  // longest total first
    if (k.kind != EventKind::kKernel || k.cls != KernelClass::kComputation) continue;
    const MatrixKernel mk = matrix_kernel(m.strings.get(k.name), u.family.vendor);
    if (mk.op == MatrixOp::kNone) continue;
    switch (mk.use) {
      case MatrixUse::kYes:
        u.on_units += k.count;
        u.on_units_ns += k.total_ns;
        break;
      case MatrixUse::kUnknown:
        u.unknown_units += k.count;
        u.unknown_units_ns += k.total_ns;
        break;
      case MatrixUse::kNo:
        u.off_units += k.count;
        u.off_units_ns += k.total_ns;
        u.misses.push_back({k.name, mk.op, k.count, k.total_ns});
        break;
    }
  }
  return u;
}

}  // namespace tw
