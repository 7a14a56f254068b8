// Matrix-unit usage: the GEMM and convolution kernels of a trace (matrix_kernels.h), split by
// whether they run on the matrix units of the device they ran on (gpu_family.h), with the time of
// each part and the kernels that miss the units, longest first.
//
// The no_tensor_cores rule (recommendations.h) reads this. It names the kernels that miss the units
// whenever they take a real share of the GPU's busy time, also when other GEMMs do use them: a
// mixed-precision model whose LM head or loss still runs an FP32 sgemm, a cuDNN convolution that
// fell back to an FFMA kernel, are what a profiler user looks for, and "some GEMM uses tensor
// cores" says nothing about them. The share of GPU busy time (not of GEMM time) is what bounds the
// gain, so that is what the threshold and the severity read.
#pragma once
#include <cstdint>
#include <vector>

#include "core/analysis/gpu_family.h"
#include "core/analysis/kernels.h"
#include "core/analysis/matrix_kernels.h"
#include "core/model/trace_model.h"

namespace tw {

struct MatrixKernelStat {
  StringId name = 0;
  MatrixOp op = MatrixOp::kGemm;
  uint64_t count = 0;
  int64_t total_ns = 0;
};

struct MatrixUnitUsage {
  const DeviceInfo* device = nullptr;  // the busiest device (nullptr when the trace lists none)
  GpuFamily family;                    // its family (unknown without a device)
  // Computation kernels that are GEMMs or convolutions: launches and summed durations, by whether
  // their names show the matrix units (yes / no / cannot tell).
  uint64_t on_units = 0, off_units = 0, unknown_units = 0;
  int64_t on_units_ns = 0, off_units_ns = 0, unknown_units_ns = 0;
  std::vector<MatrixKernelStat> misses;  // the kernels off the units, longest total first
};

MatrixUnitUsage matrix_unit_usage(const TraceModel& m, const KernelsResult& kernels);

}  // namespace tw
