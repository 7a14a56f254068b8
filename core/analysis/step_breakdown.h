// Step time breakdown, as the TensorBoard PyTorch profiler plugin's overview did: every instant of
// a ProfilerStep window gets the highest-priority activity running at that instant, in the order
//   Kernel > Memcpy > Memset > Communication > Runtime > DataLoader > CPU Exec > Other
// where Kernel = GPU kernels that are not communication, Memcpy / Memset = GPU memory ops,
// Communication = communication-class GPU ops, Runtime = CUDA runtime / driver calls on the CPU,
// DataLoader = CPU slices under "enumerate(DataLoader)..." (the DataLoader's __next__), CPU Exec =
// any other CPU slice (operators, annotations, Python functions; the ProfilerStep slices themselves
// excluded), Other = nothing recorded. The categories therefore add up to the step duration.
#pragma once
#include <cstdint>
#include <vector>

#include "core/analysis/kernel_classes.h"
#include "core/analysis/steps.h"
#include "core/model/trace_model.h"

namespace tw {

enum class StepCategory : uint8_t {
  kKernel = 0,
  kMemcpy,
  kMemset,
  kCommunication,
  kRuntime,
  kDataLoader,
  kCpuExec,
  kOther
};
constexpr int kStepCategoryCount = 8;
const char* step_category_name(StepCategory c);  // "kernel", "memcpy", ..., "cpu_exec", "other"

struct StepTimes {
  int64_t number = 0;
  int64_t begin_ns = 0;
  int64_t end_ns = 0;
  int64_t category_ns[kStepCategoryCount] = {};
};

struct StepBreakdown {
  std::vector<StepTimes> steps;  // in step order
  int64_t mean_ns = 0;           // step duration statistics (integer mean, floor)
  int64_t p50_ns = 0;
  int64_t min_ns = 0;
  int64_t max_ns = 0;
  int64_t total_ns = 0;
  int64_t category_ns[kStepCategoryCount] = {};  // summed over steps
};

StepBreakdown step_breakdown(const TraceModel& m, const std::vector<ProfilerStep>& steps,
                             const std::vector<KernelClass>& classes);

}  // namespace tw
