// The verdict: one sentence on what limits the run, with the numbers behind it. It is judged over
// the profiler steps when there are any (the step is what the user waits for: a GPU busy 99% of its
// own span can still idle for half of every step while the CPU prepares the next batch), otherwise
// over the GPU's span, otherwise over the trace (no GPU work).
//
// The step time splits into bins that add up to it (step_breakdown.h's categories): GPU computation,
// exposed communication, memory copies and sets, and the GPU-idle bins: the DataLoader, CUDA runtime
// calls (launches, synchronisations), other CPU work, and nothing recorded. Without steps the GPU
// span splits the same way on the GPU side (temporal.h) and its idle time by cause (device_idle.h).
// The limiter, in this order:
//   host family   GPU idle >= 30% of the basis: data_loader (the largest idle part), launch (the
//                 launch-bound rule holds, or runtime calls / kernel wait are the largest idle part),
//                 host (other CPU work, nothing recorded, host wait),
//                 gpu_wait (no steps: ops queued in time but waiting on events or other devices)
//   communication exposed communication >= 20% of the basis
//   memory_copy   copies and sets >= 20% of the basis
//   compute       otherwise: the kernels dominate; the top computation kernels are named
//   cpu_only      no GPU work at all
// A second bin of at least 10% of the basis is named as well. The thresholds are the page's and the
// recommendations' (recommendations.h): the verdict and the rules never disagree on a trace.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/analysis/collectives.h"
#include "core/analysis/device_idle.h"
#include "core/analysis/kernels.h"
#include "core/analysis/launches.h"
#include "core/analysis/operators.h"
#include "core/analysis/recommendations.h"
#include "core/analysis/step_breakdown.h"
#include "core/analysis/temporal.h"
#include "core/model/trace_model.h"

namespace tw {

enum class Limiter : uint8_t { kCompute, kCommunication, kMemoryCopy, kDataLoader, kLaunch, kHost, kGpuWait, kCpuOnly };
const char* limiter_name(Limiter l);  // "compute", "communication", ..., "cpu_only"
// The words for a limiter's name in a sentence: "GPU compute-bound", "host-bound", ... (the name
// itself when unknown).
std::string limiter_phrase(std::string_view name);

enum class VerdictBasis : uint8_t { kSteps, kGpuSpan, kTrace };
const char* verdict_basis_name(VerdictBasis b);  // "steps", "gpu_span", "trace"

// One part of the basis time: "gpu_compute", "exposed_communication", "memory_copy", "data_loader",
// "runtime", "cpu", "untraced", "gpu_idle_host_wait", ... Shares are of basis_ns.
struct VerdictPart {
  std::string id;
  int64_t ns = 0;
  double share = 0;
};

// A name behind the limiter (a kernel, a collective type, an operator) and its share of what
// `top_of` says.
struct VerdictName {
  std::string name;
  int64_t ns = 0;
  double share = 0;
};

struct Verdict {
  Limiter limiter = Limiter::kCpuOnly;
  VerdictBasis basis = VerdictBasis::kTrace;
  int64_t basis_ns = 0;
  size_t steps = 0;
  std::string sentence;
  std::vector<VerdictPart> parts;            // the basis split, largest first (zero parts left out)
  std::string gpu_idle_part;                 // empty, or the id of the part that made the host-family call
  std::vector<VerdictName> top;              // at most 3
  std::string top_of;                        // what top[].share is a share of (e.g. "computation_kernel_sum")
  std::vector<std::string> recommendations;  // ids of the fired rules that back the verdict
};

struct VerdictInputs {
  const TraceModel* model = nullptr;
  const StepBreakdown* steps = nullptr;         // may hold no steps
  const TemporalBreakdown* temporal = nullptr;  // null: no GPU work
  const KernelsResult* kernels = nullptr;
  const CollectivesResult* collectives = nullptr;
  const LaunchesResult* launches = nullptr;
  const OperatorsResult* operators = nullptr;
  const std::vector<DeviceIdle>* device_idle = nullptr;
  const std::vector<Recommendation>* recommendations = nullptr;
};

constexpr double kVerdictGpuIdle = 0.30;        // host family at or above this share of the basis
constexpr double kVerdictCommunication = 0.20;  // communication-bound at or above
constexpr double kVerdictMemoryCopy = 0.20;     // memory-copy-bound at or above
constexpr double kVerdictSecondary = 0.10;      // a second bin worth naming

Verdict verdict(const VerdictInputs& in);

}  // namespace tw
