// The CPU call tree of a trace: per thread, the slices merged by their name path (the nesting the
// model's slice parents give: cpu_op, python_function, user_annotation, runtime calls, any X or B/E),
// with CPU total and self time, and the GPU time of every kernel, copy and set attributed through its
// launch link to the runtime call that launched it and to all that call's ancestors.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/analysis/intervals.h"
#include "core/model/trace_model.h"

namespace tw {

constexpr uint32_t kNoNode = UINT32_MAX;

struct CallNode {
  StringId name = 0;          // the slice name (for a thread root: the thread's name, maybe empty)
  uint32_t parent = kNoNode;  // kNoNode for a thread root
  uint32_t track = 0;         // the thread track
  uint32_t depth = 0;         // 0 for a thread root
  bool thread = false;        // a thread's frame (a top-down root; bottom-up, the outermost caller)
  uint64_t count = 0;         // slices merged (a root: its top-level slices)
  int64_t total_ns = 0;       // CPU time: summed durations (clipped to the range)
  int64_t self_ns = 0;        // minus the time of the slices directly nested in them (never below 0)
  int64_t gpu_ns = 0;         // GPU time of the ops launched from these slices or below
  int64_t gpu_self_ns = 0;    // GPU time of the ops launched by these slices themselves
};

struct CallTree {
  std::vector<CallNode> nodes;  // parents before children; roots are the nodes without a parent
  // GPU time of ops whose launch link is in range but whose launching call is not on a thread track,
  // and of the GPU ops in range without a launch link (e.g. ops captured in a CUDA graph, NCCL
  // kernels of traces that link none): shown beside the tree, never silently dropped.
  int64_t gpu_unlinked_ns = 0;
  uint64_t gpu_unlinked_ops = 0;
  std::optional<Interval> range;
};

// `range`: CPU time is clipped to it and only slices overlapping it count; GPU time is that of the ops
// whose launching runtime call STARTS in it (the GPU work the code in the range caused), whole.
// Null: the whole trace.
CallTree build_call_tree(const TraceModel& m, const Interval* range = nullptr);

// "thread NAME" / "thread TID" of a root's track, with its process: "python (pid 12) / thread 34".
std::string thread_label(const TraceModel& m, uint32_t track);

}  // namespace tw
