// What one rank contributes to the job analysis (core/job/README.md): small, self-contained, and
// the same whether it was computed here, in a page worker, or on another machine.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/analysis/kernel_classes.h"
#include "core/analysis/step_breakdown.h"
#include "core/model/trace_model.h"

namespace tw {

constexpr int64_t kNoStep = INT64_MIN;

// One communication op as the rank ran it, on the rank's own clock.
struct CollectiveCall {
  std::string group;       // "Process Group Name"; "" when the trace does not say
  std::string op;          // collective_type(): "allreduce", "alltoall", "sendrecv", ...
  std::string dtype;       // as written; "" when absent
  int64_t seq = -1;        // "Seq" (the call's number in its group), -1 when absent
  int64_t nelems = -1;     // max("In msg nelems", "Out msg nelems"), -1 when absent
  int64_t bytes = -1;      // nelems x the dtype's size, -1 when either is unknown
  int32_t group_size = 0;  // "Group size", 0 when absent
  int64_t step = kNoStep;  // the profiler step the call was launched in
  int64_t begin_ns = 0;    // the GPU op
  int64_t end_ns = 0;
};

// One profiler step and its time breakdown (core/analysis/step_breakdown.h).
using RankStep = StepTimes;

struct RankRecord {
  std::string file;
  bool has_rank = false;
  int64_t rank = 0;
  int64_t world_size = -1;   // -1 when not written
  int64_t gpu_span_ns = -1;  // first GPU op start to last end, -1 without GPU ops
  std::string limiter;       // the file's verdict, "" when none
  std::vector<RankStep> steps;
  std::vector<CollectiveCall> calls;  // in GPU start order
};

// The record of a loaded trace: the calls from the model (communication-class GPU ops under the
// kernel rules its summary used), the rest from the file's summary (file_summary()).
RankRecord rank_record(const TraceModel& m, const KernelRules& rules, const nlohmann::json& file_summary);

}  // namespace tw
