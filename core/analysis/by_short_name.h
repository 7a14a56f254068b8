// Kernels and operators per short name (core/base/short_name.h), with their time in each of the
// first profiler steps: what the run comparison matches and tests (docs/diff-schema.md). Every name
// is listed, not a top few, so a comparison read from a summary misses nothing its trace had.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/analysis/kernel_classes.h"
#include "core/analysis/kernels.h"
#include "core/analysis/operators.h"
#include "core/analysis/steps.h"
#include "core/model/trace_model.h"

namespace tw {

// Per-step columns for the first this many steps: enough samples for a rank test, bounded size.
constexpr size_t kByNameStepColumns = 64;

struct ShortNameRow {
  std::string name;                             // short name
  StringId example = 0;                         // the full name with the largest total among those merged
  uint32_t variants = 0;                        // distinct full names merged
  EventKind kind = EventKind::kKernel;          // kernels: of `example`
  KernelClass cls = KernelClass::kComputation;  // kernels: of `example`
  uint64_t count = 0;                           // ops (kernels) or calls (operators)
  int64_t total_ns = 0;                         // summed durations
  int64_t self_ns = 0;                          // operators: minus directly nested operators
  std::vector<int64_t> steps_ns;                // summed durations of those that START in each step column
};

struct ByShortName {
  size_t step_columns = 0;              // min(steps, kByNameStepColumns)
  std::vector<ShortNameRow> kernels;    // by total, longest first (ties by name)
  std::vector<ShortNameRow> operators;  // idem
};

// `kernels` and `ops` are the whole trace's tables (kernel_stats, operator_stats); the step columns
// select the same GPU ops (`keep`, `extra`) and cpu_op slices.
ByShortName by_short_name(const TraceModel& m, const KernelsResult& kernels, const OperatorsResult& ops,
                          const std::vector<ProfilerStep>& steps, const std::vector<uint8_t>* keep,
                          const ExtraWork& extra);

}  // namespace tw
