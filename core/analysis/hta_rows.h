// HTA's view of the imported trace (HTA 0.6.1's parser, hta/common/trace_parser.py): the rows of
// its data frame and the two args it reads from each, "stream" and "correlation". The selection in
// hta_compat.h is written in these terms.
#pragma once
#include <cstdint>
#include <vector>

#include "core/model/trace_model.h"

namespace tw {

class HtaRows {
 public:
  explicit HtaRows(const TraceModel& m);

  // HTA keeps the events that have a "dur" and a "cat": X events with dur, but not cat "Trace"
  // (B/E pairs and X events without dur are dropped).
  bool row(uint32_t i) const {
    if (s_.flags[i] & (kSliceFromBE | kSliceNoDur)) return false;
    const StringId cat = s_.cat.at(i);
    return cat != 0 && cat != trace_cat_;
  }
  // Every HTA breakdown (temporal, kernel, comm/comp overlap) takes the rows whose stream is not -1
  // as GPU work, whatever their category (flags from the event's own "stream" arg).
  bool gpu_work(uint32_t i) const { return (s_.flags[i] & kSliceStreamArg) != 0; }
  // The "correlation" arg, -1 when absent (HTA's default).
  int64_t correlation(uint32_t i) const {
    const int64_t c = s_.correlation_at(i);
    return c == kNoId ? -1 : c;
  }
  // HTA's GPUKernelFilter: a stream >= 0 and a correlation >= 0, or named "Event Sync" /
  // "Context Sync" (device-wide syncs, which Kineto writes on stream -1). Its CPUOperatorFilter
  // takes every other row.
  bool kernel_side(uint32_t i) const {
    if ((s_.flags[i] & kSliceStreamArgNonNeg) && correlation(i) >= 0) return true;
    return s_.name.at(i) != 0 && (s_.name.at(i) == event_sync_ || s_.name.at(i) == context_sync_);
  }
  // HTA's profiler step names: ^ProfilerStep#\d (parse_profiler_step_name).
  bool step_name(StringId id) const { return id < is_step_.size() && is_step_[id]; }
  // How many distinct step names HTA's symbol table holds: the names and categories of its rows.
  int step_names() const { return step_names_; }

 private:
  const SliceTable& s_;
  StringId trace_cat_ = 0, event_sync_ = 0, context_sync_ = 0;
  std::vector<uint8_t> is_step_;  // per string id
  int step_names_ = 0;
};

}  // namespace tw
