// GPU time by user annotation and by nn.Module: the units users reason in ("attn(F)", "combine(B)",
// "nn.Module: MLP"). For each name: its CPU time, the GPU time of the ops launched while it was open,
// where that GPU time ran (per stream), and the GPU time inside its GPU-side mirror
// (gpu_user_annotation) per stream. Plus, for overlapped micro-batches, which annotation's GPU work
// runs under which (DeepSeek's combine(B) under attn(F)).
//
// A GPU op belongs to the annotations open around its launching runtime call on the launching thread
// (every enclosing one). When that thread has none open, to those open at the launch on the other
// threads of the same process: autograd's backward thread launches the kernels of an annotation the
// main thread opened.
#pragma once
#include <cstdint>
#include <vector>

#include "core/model/trace_model.h"

namespace tw {

struct StreamTime {
  int32_t device = -1;
  int64_t stream = -1;
  int64_t ns = 0;
};

struct AnnotationStat {
  StringId name = 0;
  bool module = false;                    // python_function "nn.Module: X"
  uint64_t count = 0;                     // CPU slices
  int64_t cpu_ns = 0;                     // their summed durations
  uint64_t gpu_ops = 0;                   // GPU ops attributed (each counted once per name)
  int64_t gpu_ns = 0;                     // their summed durations
  uint64_t gpu_ops_other_thread = 0;      // of which launched from another thread while it was open
  std::vector<StreamTime> gpu_by_stream;  // where the attributed ops ran (summed durations)
  std::vector<StreamTime> gpu_side;       // busy time inside the same-named gpu_user_annotation, per stream
};

struct AnnotationOverlap {
  StringId a = 0, b = 0;                 // a's GPU work runs under b's for overlap_ns
  int64_t overlap_ns = 0;                // |union(a's ops) ∩ union(b's ops)|
  int64_t a_busy_ns = 0, b_busy_ns = 0;  // each one's union
};

struct AnnotationsResult {
  std::vector<AnnotationStat> rows;         // by GPU time, then CPU time
  std::vector<AnnotationOverlap> overlaps;  // by overlap, at most kMaxAnnotationOverlaps
};

constexpr size_t kMaxAnnotationOverlaps = 32;

AnnotationsResult annotation_stats(const TraceModel& m);

}  // namespace tw
