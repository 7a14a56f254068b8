// Per-name statistics of GPU ops (kernels, memcpy, memset): count, total, mean, min, max, p50, p95
// (nearest rank), class and share of all GPU op time. Sorted by total time, longest first.
#pragma once
#include <cstdint>
#include <vector>

#include "core/analysis/intervals.h"
#include "core/analysis/kernel_classes.h"
#include "core/model/trace_model.h"

namespace tw {

struct KernelStat {
  StringId name = 0;
  EventKind kind = EventKind::kKernel;
  KernelClass cls = KernelClass::kComputation;  // the class of the first op with this name
  uint64_t count = 0;
  int64_t total_ns = 0;
  int64_t min_ns = 0;
  int64_t max_ns = 0;
  int64_t p50_ns = 0;
  int64_t p95_ns = 0;
  double mean_ns = 0;
  double share = 0;  // total_ns / all GPU op time
};

struct KernelsResult {
  uint64_t count = 0;
  int64_t total_ns = 0;
  int64_t class_ns[kKernelClassCount] = {0, 0, 0, 0};  // summed durations (not a union)
  std::vector<KernelStat> by_name;
};

// `classes` has one entry per model.gpu_ops row (classify_gpu_ops). `keep`, when given, selects rows.
// `window`, when given, restricts to the ops that START in [begin, end) (one profiler step): each op
// is counted whole, in the one window where it starts, so per-op statistics (min, p50...) stay real
// durations and disjoint windows never count an op twice. `extra` slices count as ops too (HTA's
// kernel breakdown has every event with a stream: cuda_sync events, cpu_ops with a stream).
KernelsResult kernel_stats(const TraceModel& m, const std::vector<KernelClass>& classes,
                           const std::vector<uint8_t>* keep = nullptr, const Interval* window = nullptr,
                           const ExtraWork& extra = {});

}  // namespace tw
