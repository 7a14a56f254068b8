#include "core/analysis/hta_rows.h"

#include "core/analysis/steps.h"

namespace tw {

HtaRows::HtaRows(const TraceModel& m) : s_(m.slices) {
  // find() gives 0 for a string the trace lacks; row() and kernel_side() never match id 0.
  trace_cat_ = m.strings.find("Trace");
  event_sync_ = m.strings.find("Event Sync");
  context_sync_ = m.strings.find("Context Sync");
  is_step_.assign(m.strings.size(), 0);
  int64_t number = 0;
  for (StringId id = 1; id < m.strings.size(); ++id)
    is_step_[id] = parse_profiler_step_name(m.strings.get(id), &number);
  // HTA's symbol table holds the names and categories of its rows only.
  std::vector<uint8_t> seen(m.strings.size(), 0);
  for (uint32_t i = 0; i < s_.size(); ++i) {
    if (!row(i)) continue;
    for (StringId id : {s_.name.at(i), s_.cat.at(i)}) {
      if (!is_step_[id] || seen[id]) continue;
      seen[id] = 1;
      ++step_names_;
    }
  }
}

}  // namespace tw
