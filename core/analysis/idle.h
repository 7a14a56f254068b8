// Idle time per GPU stream, broken down the way HTA does (BreakdownAnalysis.
// _analyze_idle_time_for_stream, HTA 0.6.1): ops of a stream in start order; the gap before an op
// is its start minus the end of the op before it, and is
//   host wait   when the op's launch (its runtime call, by correlation) STARTED after that end:
//               the CPU had not even begun to enqueue it;
//   kernel wait otherwise, when the gap is below a threshold (30 us, HTA's consecutive_kernel_delay):
//               the cost of launching back-to-back ops;
//   other       otherwise (waiting on another stream, an event, a host sync...).
// Default mode measures real gaps: "the op before" is the latest end so far, and gaps <= 0 (ops that
// overlap on a stream) are not idle. hta_compat reproduces HTA exactly: previous op's end, negative
// gaps included (HTA reports negative kernel-wait totals on such streams), and only the ops HTA keeps.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "core/analysis/intervals.h"
#include "core/model/trace_model.h"

namespace tw {

enum class IdleCategory : uint8_t { kHostWait = 0, kKernelWait = 1, kOther = 2 };
constexpr int kIdleCategoryCount = 3;
const char* idle_category_name(IdleCategory c);  // "host_wait", "kernel_wait", "other"

// The rule above for one gap [gap_begin, gap_end) that ends at an op whose launch (runtime call)
// started at launch_ts_ns (nullopt: no launch known). Shared by the per-stream and per-device walks.
IdleCategory categorize_gap(int64_t gap_begin_ns, int64_t gap_end_ns, std::optional<int64_t> launch_ts_ns,
                            int64_t kernel_wait_threshold_ns);

struct IdleOrder;

struct IdleOptions {
  int64_t kernel_wait_threshold_ns = 30000;
  size_t longest_gaps = 10;  // per stream
  bool hta_compat = false;
  // One flag per model.gpu_ops row; ops with 0 are ignored. Null = every op.
  const std::vector<uint8_t>* keep = nullptr;
  // The walk order from idle_order() with the same keep and hta_compat, when several breakdowns
  // (the whole trace, the steps) share it; null = computed by the call.
  const IdleOrder* order = nullptr;
};

// The ops a breakdown walks, sorted by (device, stream, start), and each op's launch call.
struct IdleOrder {
  std::vector<uint32_t> rows;    // model.gpu_ops rows
  std::vector<uint32_t> launch;  // per gpu_ops row: launch_per_gpu_op()
};
IdleOrder idle_order(const TraceModel& m, const IdleOptions& opt);

struct IdleGap {
  int64_t begin_ns = 0;
  int64_t end_ns = 0;
  IdleCategory category = IdleCategory::kOther;
  uint32_t next_slice = 0;  // the op that ended the gap
  int64_t length_ns() const { return end_ns - begin_ns; }
};

struct StreamIdle {
  int32_t device = -1;
  int64_t stream = -1;
  uint64_t ops = 0;
  int64_t first_ns = 0;  // first op start
  int64_t last_ns = 0;   // last op end
  int64_t idle_ns = 0;   // sum over categories
  int64_t time_ns[kIdleCategoryCount] = {0, 0, 0};
  uint64_t count[kIdleCategoryCount] = {0, 0, 0};
  std::vector<IdleGap> longest;  // longest gaps first
};

struct IdleResult {
  int64_t threshold_ns = 0;
  std::vector<StreamIdle> streams;  // by (device, stream)
};

IdleResult idle_breakdown(const TraceModel& m, const IdleOptions& opt = {});

// The same breakdown for each window [begin, end) (e.g. the profiler steps), in one pass: each gap
// is categorised on the whole stream exactly as above, then CLIPPED to every window it reaches
// (its clipped part counts there, once per window); `ops`, `first_ns`, `last_ns` are over the ops
// that start in the window. Streams with neither ops nor gaps in a window are left out of it. In
// hta_compat mode a gap <= 0 counts in the windows that contain the start of the op ending it.
// Result i belongs to windows[i]; windows may come in any order and may overlap.
std::vector<IdleResult> idle_breakdown_in(const TraceModel& m, const IdleOptions& opt,
                                          const std::vector<Interval>& windows);

}  // namespace tw
