// Profiler steps: the "ProfilerStep#N" slices that torch.profiler's schedule writes around each
// training iteration (category user_annotation on the CPU thread, and since PyTorch 2.x a
// gpu_user_annotation mirror on the GPU stream). Per-step analyses use these windows.
#pragma once
#include <cstdint>
#include <vector>

#include "core/model/trace_model.h"

namespace tw {

struct ProfilerStep {
  int64_t number = 0;  // N of "ProfilerStep#N"
  int64_t begin_ns = 0;
  int64_t end_ns = 0;
  uint32_t slice = 0;  // row in model.slices
  int64_t duration_ns() const { return end_ns - begin_ns; }
};

// The name test shared by every caller: "ProfilerStep#" followed by decimal digits (anything after
// the digits is ignored, as HTA's ^ProfilerStep#(\d+) does). Returns false otherwise.
bool parse_profiler_step_name(std::string_view name, int64_t* number);

// CPU steps: ProfilerStep#N slices on thread tracks (any category but gpu_user_annotation), sorted
// by begin (then number). When the same N appears several times (several threads), the first
// (earliest, longest) one is kept.
std::vector<ProfilerStep> find_profiler_steps(const TraceModel& m);
// GPU steps: the gpu_user_annotation "ProfilerStep#N" variants, same order and dedup rule.
std::vector<ProfilerStep> find_gpu_profiler_steps(const TraceModel& m);

// HTA's trimming rule (drop the last step when 2+ steps exist, keep GPU ops by launch correlation)
// lives in core/analysis/hta_compat.h.

}  // namespace tw
