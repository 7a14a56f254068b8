// CPU operators (Kineto cpu_op slices) per name: calls, total and self host time, and the device
// time of the GPU ops they launched. A GPU op is attributed through its launching runtime call
// (correlation id): to the innermost enclosing operator ("device self", as the TensorBoard plugin's
// device self duration) and to every enclosing operator ("device total"). When the runtime call
// sits under no operator on its thread, Kineto's "External id" of the call names the operator.
// Modules: python_function slices named "nn.Module: X" (with_modules / with_stack profiles), the
// same numbers per module name, plus their nesting depth.
#pragma once
#include <cstdint>
#include <vector>

#include "core/analysis/flat_id_map.h"
#include "core/analysis/intervals.h"
#include "core/model/trace_model.h"

namespace tw {

struct OperatorStat {
  StringId name = 0;
  uint64_t calls = 0;
  int64_t total_ns = 0;         // sum of durations (nested calls of the same name count twice)
  int64_t self_ns = 0;          // minus the time of directly nested operators
  int64_t device_self_ns = 0;   // GPU ops launched directly by this operator
  int64_t device_total_ns = 0;  // GPU ops launched by it or by anything under it
  uint64_t gpu_ops = 0;         // GPU ops launched directly
  uint16_t min_depth = 0;       // modules: shallowest nesting among module slices
};

// One (operator, GPU op name) pair: the ops launched directly by that operator, and HTA's two launch
// delays (get_aten_op_kernels_and_delay): operator start -> runtime call start, and runtime call
// start -> GPU op start. HTA groups by the operator's whole kernel sequence; we group by pair.
struct OperatorKernel {
  StringId op = 0;
  StringId kernel = 0;
  uint64_t count = 0;
  int64_t gpu_ns = 0;
  int64_t op_to_launch_ns = 0;     // summed; divide by count for the mean
  int64_t launch_to_start_ns = 0;  // summed
};

struct OperatorsResult {
  std::vector<OperatorStat> ops;           // by total_ns, longest first
  std::vector<OperatorStat> modules;       // by total_ns
  std::vector<OperatorKernel> op_kernels;  // by count, most frequent first
  uint64_t launches = 0;
  uint64_t launches_attributed = 0;  // reached an operator
  uint64_t launches_by_external_id = 0;
};

// The CPU operator each launch (m.launches row) is attributed to, whatever the window: its nearest
// enclosing operator slice, else (a runtime call under no operator) the first operator slice, in
// table order, carrying its Kineto "External id". Built once per summary: the whole trace's table
// and every step's share it instead of each walking and hashing every launch again.
struct LaunchOperators {
  std::vector<uint32_t> op;          // kNoParent: none
  std::vector<uint8_t> by_external;  // 1: found through its External id
};
LaunchOperators launch_operators(const TraceModel& m);

// Operators and modules are attributed through the model's slice parents. `window`, when given,
// restricts to one profiler step: operator and module slices count (whole) in the window where they
// START, and GPU ops by their launching runtime call's start, as per-step kernels and launches do.
// An enclosing operator that started before the window is not a row of the window: it gets no
// self-time correction and no device time.
// `attributed`: launch_operators(m), shared across calls on one model (null: built for this call).
OperatorsResult operator_stats(const TraceModel& m, const Interval* window = nullptr,
                               const LaunchOperators* attributed = nullptr);

}  // namespace tw
