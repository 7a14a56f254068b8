// HTA compatibility: the event selection Holistic Trace Analysis (0.6.1) makes before its
// breakdowns, so that --hta-compat reproduces its numbers (without its microsecond rounding).
#pragma once
#include <cstdint>
#include <vector>

#include "core/model/trace_model.h"

namespace tw {

struct HtaSelection {
  // One flag per model.gpu_ops row: HTA keeps the op and counts it as GPU work (its own "stream"
  // arg is not -1).
  std::vector<uint8_t> kept;
  // Kept slices that are not GPU ops but that HTA counts as GPU work all the same, because they
  // carry a stream other than -1: cuda_sync events (Stream Sync, Stream Wait Event; Event Sync /
  // Context Sync when their stream is not -1) and e.g. torch.compile's Triton launcher cpu_ops on
  // ROCm ("stream": 0). In slice order.
  std::vector<uint32_t> extra_slices;
  size_t sync_events = 0;  // how many of extra_slices are cuda_sync events
  int step_names = 0;      // distinct ProfilerStep names HTA saw (HtaRows::step_names)
  bool last_step_dropped = false;
  int64_t cutoff_ns = 0;  // 2+ step names: CPU events starting before this are kept (MTIA: ending at or before)
  bool has_cutoff = false;
  bool mtia = false;  // HTA's MTIA path (distributedInfo backend mentions mtia, 2+ step names)
};

// HTA's event selection (TraceCollection._filter_irrelevant_gpu_kernels), over HtaRows:
//  - with fewer than 2 distinct step names HTA filters nothing: every GPU op is kept, also one
//    whose correlation id has no CPU-side launch in the trace;
//  - with 2+: CPU events (every row but HTA's GPU kernels, see HtaRows::kernel_side) that START
//    BEFORE the start of the last step are kept (the last step and what follows it are dropped,
//    what precedes the first step is kept), and a GPU kernel is kept only when a kept CPU event
//    (normally its launch) has its correlation id;
//  - MTIA traces (distributedInfo backend mentions mtia) with 2+ step names take HTA's MTIA path
//    instead (see .cc);
//  - of the kept rows, those whose stream is not -1 are GPU work: GPU ops (kept) and other events
//    such as cpu_ops with a stream (extra_slices).
// Verified against HTA's own numbers on every test trace (tests/core/analysis_hta_reference_test.cc)
// and on hand-made traces (tests/core/hta_selection_test.cc).
HtaSelection hta_select_gpu_ops(const TraceModel& m);

// HTA's default timestamp handling (without HTA_DISABLE_NS_ROUNDING): the start is rounded up and
// the end down to whole microseconds. Used only to check HTA's own test-suite numbers.
// Whether a GPU op row is analysed: every row without a selection (keep null), else the rows the
// selection keeps (HtaSelection::kept).
inline bool row_selected(const std::vector<uint8_t>* keep, size_t row) {
  return !keep || (row < keep->size() && (*keep)[row]);
}

inline void hta_round_to_us(int64_t* begin_ns, int64_t* end_ns) {
  auto ceil_div = [](int64_t a) { return a >= 0 ? (a + 999) / 1000 : -((-a) / 1000); };
  auto floor_div = [](int64_t a) { return a >= 0 ? a / 1000 : -((-a + 999) / 1000); };
  *begin_ns = ceil_div(*begin_ns) * 1000;
  *end_ns = floor_div(*end_ns) * 1000;
  if (*end_ns < *begin_ns) *end_ns = *begin_ns;
}

}  // namespace tw
