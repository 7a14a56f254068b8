// Temporal breakdown of the GPU timeline (HTA's definitions, exact in ns):
//   span        = first GPU op start .. last GPU op end
//   idle        = span - |union of all GPU ops|
//   compute     = |union of computation ops|
//   non-compute = span - idle - compute (communication / memory / other not under computation)
// and the exposed view, whose parts add up to the span:
//   compute + exposed communication (not under compute) + exposed memory (not under compute or
//   communication) + exposed other (under none of those) + idle = span.
#pragma once
#include <cstdint>
#include <vector>

#include "core/analysis/intervals.h"
#include "core/analysis/kernel_classes.h"
#include "core/model/trace_model.h"

namespace tw {

// The busy time of a selection of GPU ops, per kernel class.
struct GpuActivity {
  bool any = false;         // at least one selected op (zero-length ones count for the span)
  int64_t first_ns = 0;     // earliest start
  int64_t last_end_ns = 0;  // latest end
  size_t ops = 0;
  IntervalSet by_class[kKernelClassCount];
  const IntervalSet& of(KernelClass c) const { return by_class[static_cast<int>(c)]; }
};

struct ActivityOptions {
  const std::vector<uint8_t>* kept = nullptr;  // one flag per gpu_ops row; null = all rows
  bool round_to_us = false;                    // HTA's default rounding (see hta_compat.h)
  ExtraWork extra;                             // further slices that count as GPU work (HTA mode)
};

// `cls` holds one class per model.gpu_ops row (classify_gpu_ops).
GpuActivity gpu_activity(const TraceModel& m, const std::vector<KernelClass>& cls, const ActivityOptions& opt = {});

struct TemporalBreakdown {
  int64_t begin_ns = 0;
  int64_t end_ns = 0;
  int64_t span_ns = 0;
  int64_t busy_ns = 0;
  int64_t idle_ns = 0;
  int64_t compute_ns = 0;
  int64_t non_compute_ns = 0;
  int64_t class_ns[kKernelClassCount] = {};  // union time of each class (classes may overlap)
  int64_t exposed_communication_ns = 0;
  int64_t exposed_memory_ns = 0;
  int64_t exposed_other_ns = 0;
};

// Over the whole activity (span = first start .. last end). Requires activity.any.
TemporalBreakdown temporal_breakdown(const GpuActivity& a);
// Inside the window [begin, end) (for example one profiler step): span = end - begin.
TemporalBreakdown temporal_breakdown_in(const GpuActivity& a, int64_t begin_ns, int64_t end_ns);

}  // namespace tw
