#include "core/analysis/hta_compat.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

namespace tw {

namespace {

bool contains_icase(std::string_view text, std::string_view needle) {
  std::string t(text);
  for (char& c : t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return t.find(needle) != std::string::npos;
}

// The events HTA reads with a stream >= 0 but without a correlation id. HTA's GPU-kernel filter
// wants both, so it files these among the CPU events (kept by the time cutoff alone), and then its
// breakdowns, which select "stream != -1", count them as GPU work anyway. Kineto writes the stream
// on "Stream Sync" / "Stream Wait Event" (not on the device-wide "Event Sync" / "Context Sync"),
// and HTA's parser reads no correlation for cuda_sync events. For GPU ops the stream counts when
// the op's track got a stream from the args (ops without one have stream -1 in HTA).
void streamed_uncorrelated(const TraceModel& m, std::vector<uint32_t>* sync, std::vector<uint8_t>* op_flag) {
  const SliceTable& s = m.slices;
  const StringId event_sync = m.strings.find("Event Sync");
  const StringId context_sync = m.strings.find("Context Sync");
  for (uint32_t i = 0; i < s.size(); ++i) {
    if (s.kind[i] != EventKind::kCudaSync) continue;
    if (s.name[i] != 0 && (s.name[i] == event_sync || s.name[i] == context_sync)) continue;
    const Track& t = m.tracks[s.track[i]];
    if (t.kind != TrackKind::kGpuStream || (t.stream < 0 && t.tid < 0)) continue;
    sync->push_back(i);
  }
  const GpuOpTable& g = m.gpu_ops;
  op_flag->assign(g.size(), 0);
  for (size_t row = 0; row < g.size(); ++row) {
    const uint32_t i = g.slice[row];
    if (s.correlation[i] < 0 && m.tracks[s.track[i]].stream >= 0) (*op_flag)[row] = 1;
  }
}

// Sorted, unique correlation ids of the slices `keep` accepts: the CPU side HTA keeps, whose GPU
// ops it then keeps too.
template <typename Keep>
std::vector<int64_t> kept_correlations(const SliceTable& s, Keep keep) {
  std::vector<int64_t> corr;
  for (uint32_t i = 0; i < s.size(); ++i)
    if (s.correlation[i] >= 0 && keep(i)) corr.push_back(s.correlation[i]);
  std::sort(corr.begin(), corr.end());
  corr.erase(std::unique(corr.begin(), corr.end()), corr.end());
  return corr;
}

// MTIA traces (HTA's filter_mtia_kernels_for_one_rank): CPU events lying wholly inside
// [first step start, last step end] give the correlation ids; device ops with one of them are
// kept, and so are the memory ops (names ^dma / ^Memcpy / ^Memset) starting inside a step.
void select_mtia(const TraceModel& m, HtaSelection& sel) {
  const SliceTable& s = m.slices;
  const GpuOpTable& g = m.gpu_ops;
  auto is_cpu = [&](uint32_t i) {
    const EventKind k = s.kind[i];
    return k == EventKind::kCpuOp || k == EventKind::kUserAnnotation || k == EventKind::kCudaRuntime;
  };
  std::vector<std::pair<int64_t, int64_t>> steps;
  for (uint32_t i = 0; i < s.size(); ++i) {
    if (is_cpu(i) && m.strings.get(s.name[i]).find("ProfilerStep") != std::string_view::npos)
      steps.push_back({s.ts_ns[i], s.end_ns(i)});
  }
  sel.mtia = true;
  if (steps.empty()) return;  // HTA finds nothing to keep
  std::sort(steps.begin(), steps.end());
  int64_t t_start = steps.front().first, t_end = steps.front().second;
  for (const auto& st : steps) t_end = std::max(t_end, st.second);
  sel.has_cutoff = true;
  sel.cutoff_ns = t_end;
  const std::vector<int64_t> corr =
      kept_correlations(s, [&](uint32_t i) { return is_cpu(i) && s.ts_ns[i] >= t_start && s.end_ns(i) <= t_end; });
  for (size_t row = 0; row < g.size(); ++row) {
    const uint32_t i = g.slice[row];
    const int64_t c = s.correlation[i];
    if (c >= 0 && std::binary_search(corr.begin(), corr.end(), c)) {
      sel.kept[row] = 1;
      continue;
    }
    const std::string_view name = m.strings.get(s.name[i]);
    const bool memory = name.rfind("dma", 0) == 0 || name.rfind("Memcpy", 0) == 0 || name.rfind("Memset", 0) == 0;
    if (!memory) continue;
    // Inside some step [ts, ts + dur] (steps are few: a linear scan is fine).
    for (const auto& st : steps) {
      if (s.ts_ns[i] >= st.first && s.ts_ns[i] <= st.second) {
        sel.kept[row] = 1;
        break;
      }
    }
  }
}

}  // namespace

HtaSelection hta_select_gpu_ops(const TraceModel& m) {
  HtaSelection sel;
  const SliceTable& s = m.slices;
  const GpuOpTable& g = m.gpu_ops;
  sel.kept.assign(g.size(), 0);
  if (contains_icase(m.meta.backend, "mtia")) {
    select_mtia(m, sel);
    return sel;
  }

  std::vector<uint32_t> sync;
  std::vector<uint8_t> op_uncorrelated;
  streamed_uncorrelated(m, &sync, &op_uncorrelated);

  // HTA's GPU kernels (stream >= 0 and correlation >= 0) and the sync events are not CPU events.
  std::vector<uint8_t> not_cpu(s.size(), 0);
  for (size_t row = 0; row < g.size(); ++row) not_cpu[g.slice[row]] = 1;
  for (uint32_t i : sync) not_cpu[i] = 1;

  // Distinct step names among the CPU events, and the last step's start / end.
  std::vector<uint8_t> name_is_step(m.strings.size(), 0);
  for (StringId id = 0; id < m.strings.size(); ++id) {
    if (m.strings.get(id).find("ProfilerStep") != std::string_view::npos) name_is_step[id] = 1;
  }
  std::vector<uint8_t> step_name_seen(m.strings.size(), 0);
  bool any_step = false;
  int64_t last_start = 0, last_end = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const StringId n = s.name[i];
    if (not_cpu[i] || n >= name_is_step.size() || !name_is_step[n]) continue;
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
  auto before_cutoff = [&](int64_t ts) { return !any_step || (strict ? ts < sel.cutoff_ns : ts <= sel.cutoff_ns); };

  // Correlation ids of the kept CPU events.
  const std::vector<int64_t> corr =
      kept_correlations(s, [&](uint32_t i) { return !not_cpu[i] && before_cutoff(s.ts_ns[i]); });
  for (size_t row = 0; row < g.size(); ++row) {
    const uint32_t i = g.slice[row];
    const int64_t c = s.correlation[i];
    if (c >= 0) {
      if (std::binary_search(corr.begin(), corr.end(), c)) sel.kept[row] = 1;
    } else if (op_uncorrelated[row] && before_cutoff(s.ts_ns[i])) {
      sel.kept[row] = 1;
    }
  }
  for (uint32_t i : sync) {
    if (before_cutoff(s.ts_ns[i])) sel.extra_slices.push_back(i);
  }
  return sel;
}

}  // namespace tw
