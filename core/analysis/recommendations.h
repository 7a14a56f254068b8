// Recommendations: explicit rules with fixed thresholds over the other analyses' results. Each one
// that fires says what was measured, why it matters and what to try, in plain sentences, with its
// evidence: the numbers, the top offenders and the worst time ranges.
// Shares are of the step time when the trace has profiler steps, else of the GPU span (or the trace).
//   data_loading            DataLoader time > 5% of step time
//   exposed_communication   communication not hidden under computation > 5% of the GPU span (low;
//                           medium from 10%, high from 25%: the page's exposed-communication card
//                           turns amber at 5% and red at 10%)
//   gpu_idle                GPU idle > 20% of the step time (no steps: of its span), with the main
//                           cause (host wait / kernel wait / other)
//   launch_bound            most launched ops are shorter than their launch call, and launch calls
//                           take at least as long on the CPU as their ops on the GPU
//   host_syncs              host synchronisations block >= 5% of the step time, or >= 10 per step
//                           blocking >= 1% of it (with profiler steps only those inside a step count:
//                           the others are the profiler's start-up and shut-down); without steps, of
//                           the trace
//   pageable_memcpy         HtoD/DtoH copies from / to pageable host memory taking >= 1% of the step
//                           time (no steps: of the GPU span)
//   memory_peak             reserved memory peak > 90% of a device's memory
//   no_tensor_cores         GEMM / convolution kernels off the matrix units of a device that has them
//                           (NVIDIA tensor cores from 7.0, AMD MFMA / WMMA: gpu_family.h) take >= 5% of
//                           GPU busy time, named even when other GEMMs use the units (matrix_unit_usage.h
//                           says why); words and advice follow the vendor and generation
//   unbalanced_micro_batches two busy computation streams (micro-batches) whose busy times differ by
//                           more than 30%: overlapping them can hide at most the shorter one
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/analysis/collectives.h"
#include "core/analysis/device_idle.h"
#include "core/analysis/intervals.h"
#include "core/analysis/kernels.h"
#include "core/analysis/launches.h"
#include "core/analysis/memory.h"
#include "core/analysis/overlap.h"
#include "core/analysis/step_breakdown.h"
#include "core/model/trace_model.h"

namespace tw {

// The thresholds the page's cards and the verdict (verdict.h) share with the rules.
constexpr double kExposedCommunicationLow = 0.05;
constexpr double kExposedCommunicationMedium = 0.10;
constexpr double kExposedCommunicationHigh = 0.25;
constexpr double kGpuIdleLow = 0.20;
constexpr double kGpuIdleMedium = 0.35;
constexpr double kGpuIdleHigh = 0.50;
constexpr double kHostSyncsShare = 0.05;
constexpr double kHostSyncsFrequentShare = 0.01;
constexpr double kPageableCopyShare = 0.01;

struct Recommendation {
  std::string id;
  std::string severity;  // "high", "medium", "low"
  std::string title;
  std::string text;
  std::vector<std::pair<std::string, double>> numbers;  // name (with unit suffix) -> value
  // e.g. operator or kernel names; nullopt where the offender has no name (a host sync called from
  // no operator), so that no reader takes a sentence for an event name.
  std::vector<std::optional<std::string>> offenders;
  std::vector<Interval> ranges;  // worst time ranges, ns
};

struct RecommendationInputs {
  const TraceModel* model = nullptr;
  int64_t gpu_span_ns = 0;                               // first GPU op start to last end (0: no GPU work)
  int64_t gpu_busy_ns = 0;                               // union of all GPU ops
  const std::vector<DeviceIdle>* device_idle = nullptr;  // the causes of GPU idle time
  const LaunchesResult* launches = nullptr;
  const MemoryResult* memory = nullptr;
  const CollectivesResult* collectives = nullptr;
  const StepBreakdown* steps = nullptr;
  const KernelsResult* kernels = nullptr;
  const StreamOverlapResult* streams = nullptr;
  int64_t pageable_copies = 0;
  int64_t pageable_copy_ns = 0;
  int64_t pageable_copy_bytes = 0;
};

std::vector<Recommendation> recommend(const RecommendationInputs& in);

// "1.234 ms" / "56.7 us" / "890 ns": how durations are written in the sentences.
std::string format_duration(int64_t ns);
// A fraction as the sentences write it: 0.1234 -> "12.3%".
std::string format_percent(double fraction);

}  // namespace tw
