#include "core/analysis/hta_compat.h"

#include <algorithm>
#include <string_view>

namespace tw {

HtaSelection hta_select_gpu_ops(const TraceModel& m) {
  HtaSelection sel;
  const SliceTable& s = m.slices;
  const GpuOpTable& g = m.gpu_ops;
  sel.kept.assign(g.size(), 0);

  // Which slices are HTA "GPU kernels" (stream >= 0 and correlation >= 0).
  std::vector<uint8_t> is_gpu(s.size(), 0);
  for (size_t row = 0; row < g.size(); ++row) {
    const uint32_t i = g.slice[row];
    if (s.correlation[i] >= 0) is_gpu[i] = 1;
  }
  // Kineto writes stream -1 on the device-wide syncs ("Event Sync", "Context Sync") and the
  // stream on the others ("Stream Sync", "Stream Wait Event"); HTA keeps only stream >= 0.
  const StringId event_sync = m.strings.find("Event Sync");
  const StringId context_sync = m.strings.find("Context Sync");
  std::vector<uint32_t> sync;
  for (uint32_t i = 0; i < s.size(); ++i) {
    if (s.kind[i] != EventKind::kCudaSync) continue;
    if (s.name[i] != 0 && (s.name[i] == event_sync || s.name[i] == context_sync)) continue;
    const Track& t = m.tracks[s.track[i]];
    if (t.kind != TrackKind::kGpuStream || (t.stream < 0 && t.tid < 0)) continue;
    is_gpu[i] = 1;  // not a CPU event, and its correlation does not select GPU ops
    sync.push_back(i);
  }

  // Distinct step names among the events HTA reads, and the last step's start / end.
  std::vector<uint8_t> name_is_step(m.strings.size(), 0);
  for (StringId id = 0; id < m.strings.size(); ++id) {
    if (m.strings.get(id).find("ProfilerStep") != std::string_view::npos) name_is_step[id] = 1;
  }
  std::vector<uint8_t> step_name_seen(m.strings.size(), 0);
  bool any_step = false;
  int64_t last_start = 0, last_end = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const StringId n = s.name[i];
    if (is_gpu[i] || n >= name_is_step.size() || !name_is_step[n]) continue;
    if (!step_name_seen[n]) {
      step_name_seen[n] = 1;
      ++sel.step_names;
    }
    if (!any_step || s.ts_ns[i] > last_start) last_start = s.ts_ns[i];
    if (!any_step || s.end_ns(i) > last_end) last_end = s.end_ns(i);
    any_step = true;
  }
  const bool strict = sel.step_names >= 2;
  sel.last_step_dropped = strict;
  sel.has_cutoff = any_step;
  sel.cutoff_ns = strict ? last_start : last_end;

  // Correlation ids of the kept non-GPU events.
  std::vector<int64_t> corr;
  for (size_t i = 0; i < s.size(); ++i) {
    if (is_gpu[i] || s.correlation[i] < 0) continue;
    if (any_step && (strict ? s.ts_ns[i] >= sel.cutoff_ns : s.ts_ns[i] > sel.cutoff_ns)) continue;
    corr.push_back(s.correlation[i]);
  }
  std::sort(corr.begin(), corr.end());
  corr.erase(std::unique(corr.begin(), corr.end()), corr.end());
  for (size_t row = 0; row < g.size(); ++row) {
    const int64_t c = s.correlation[g.slice[row]];
    if (c >= 0 && std::binary_search(corr.begin(), corr.end(), c)) sel.kept[row] = 1;
  }
  // HTA does not read a correlation for cuda_sync events, so it treats them as CPU-side events
  // that happen to carry a stream: kept by the time cutoff, then counted as GPU work (stream >= 0).
  for (uint32_t i : sync) {
    if (any_step && (strict ? s.ts_ns[i] >= sel.cutoff_ns : s.ts_ns[i] > sel.cutoff_ns)) continue;
    sel.extra_slices.push_back(i);
  }
  return sel;
}

}  // namespace tw
