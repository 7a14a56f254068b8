// HTA compatibility: the event selection Holistic Trace Analysis (0.6.1) makes before its
// breakdowns, so that --hta-compat reproduces its numbers (without its microsecond rounding).
#pragma once
#include <cstdint>
#include <vector>

#include "core/model/trace_model.h"

namespace tw {

struct HtaSelection {
  std::vector<uint8_t> kept;  // one flag per model.gpu_ops row
  // Kept cuda_sync slices that sit on a GPU stream (Stream Sync, Stream Wait Event): HTA counts
  // every event with a stream >= 0 and a correlation as GPU work.
  std::vector<uint32_t> extra_slices;
  int step_names = 0;  // distinct "ProfilerStep" names HTA saw
  bool last_step_dropped = false;
  int64_t cutoff_ns = 0;  // CPU events starting before (2+ steps) / at or before this are kept
  bool has_cutoff = false;
  bool mtia = false;  // HTA's MTIA path (distributedInfo backend mentions mtia)
};

// HTA's event selection (TraceCollection._filter_irrelevant_gpu_kernels):
//  - "step names" are the DISTINCT names containing "ProfilerStep" among the CPU events;
//  - with 2+ step names: CPU events (all but GPU ops / stream-bound syncs) that START BEFORE the
//    start of the last step are kept: the last step and what follows it are dropped, what precedes
//    the first step is kept; with 0 or 1 step names: those starting at or before the end of the
//    last step (all of them without steps);
//  - a GPU op with a correlation id is kept only when a kept CPU event (normally its launch) has
//    that id, so GPU ops without a CPU-side launch are dropped even without steps;
//  - events with a stream but no correlation (cuda_sync Stream Sync / Stream Wait Event, GPU ops on
//    a stream without a correlation id) count as CPU events for the cutoff, yet as GPU work after;
//  - MTIA traces (distributedInfo backend mentions mtia) take HTA's MTIA path instead (see .cc).
// Verified against HTA's own numbers on every test trace (tests/core/analysis_hta_reference_test.cc).
HtaSelection hta_select_gpu_ops(const TraceModel& m);

// HTA's default timestamp handling (without HTA_DISABLE_NS_ROUNDING): the start is rounded up and
// the end down to whole microseconds. Used only to check HTA's own test-suite numbers.
inline void hta_round_to_us(int64_t* begin_ns, int64_t* end_ns) {
  auto ceil_div = [](int64_t a) { return a >= 0 ? (a + 999) / 1000 : -((-a) / 1000); };
  auto floor_div = [](int64_t a) { return a >= 0 ? a / 1000 : -((-a + 999) / 1000); };
  *begin_ns = ceil_div(*begin_ns) * 1000;
  *end_ns = floor_div(*end_ns) * 1000;
  if (*end_ns < *begin_ns) *end_ns = *begin_ns;
}

}  // namespace tw
