#include "core/analysis/hta_compat.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

#include "core/analysis/hta_rows.h"

namespace tw {

namespace {

bool contains_icase(std::string_view text, std::string_view needle) {
  std::string t(text);
  for (char& c : t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return t.find(needle) != std::string::npos;
}

bool keep_all(uint32_t) { return true; }

void add_extra(const TraceModel& m, uint32_t i, HtaSelection& sel) {
  sel.extra_slices.push_back(i);
  if (m.slices.kind_at(i) == EventKind::kCudaSync) ++sel.sync_events;
}

// The rows `keep` accepts that count as GPU work: GPU ops into sel.kept, the others (cuda_sync
// events, cpu_ops with a stream) into sel.extra_slices.
template <typename Keep>
void keep_gpu_work(const TraceModel& m, const HtaRows& rows, Keep keep, HtaSelection& sel) {
  const GpuOpTable& g = m.gpu_ops;
  std::vector<uint8_t> is_op(m.slices.size(), 0);
  for (size_t row = 0; row < g.size(); ++row) {
    const uint32_t i = g.slice[row];
    is_op[i] = 1;
    sel.kept[row] = rows.row(i) && rows.gpu_work(i) && keep(i);
  }
  for (uint32_t i = 0; i < m.slices.size(); ++i)
    if (!is_op[i] && rows.row(i) && rows.gpu_work(i) && keep(i)) add_extra(m, i, sel);
}

// Sorted, unique correlation ids (-1 for none, as HTA fills them) of the rows `keep` accepts.
template <typename Keep>
std::vector<int64_t> kept_correlations(const TraceModel& m, const HtaRows& rows, Keep keep) {
  std::vector<int64_t> corr;
  for (uint32_t i = 0; i < m.slices.size(); ++i)
    if (rows.row(i) && keep(i)) corr.push_back(rows.correlation(i));
  std::sort(corr.begin(), corr.end());
  corr.erase(std::unique(corr.begin(), corr.end()), corr.end());
  return corr;
}

// HTA's filter_gpu_kernels_with_cpu_correlation (2+ step names, not MTIA). Its "CPU operators" are
// all rows but its GPU kernels (HtaRows::kernel_side); those starting before the start of the last
// step are kept (the last step and what follows it are dropped, what precedes the first step is
// kept). A GPU kernel is kept when a kept CPU operator has its correlation id (normally its
// launch), so a GPU op without a CPU-side launch is dropped, and so is a cpu_op that carries both a
// stream and a correlation whose owner is dropped. A row that is neither, such as a cpu_op with a
// stream but no correlation, is a CPU operator: kept by time alone, then counted as GPU work.
void select_by_launch(const TraceModel& m, const HtaRows& rows, HtaSelection& sel) {
  const SliceTable& s = m.slices;
  bool any_cpu = false, any_step = false;
  int64_t first_ts = 0, last_step_ts = 0;
  for (uint32_t i = 0; i < s.size(); ++i) {
    if (!rows.row(i) || rows.kernel_side(i)) continue;
    first_ts = any_cpu ? std::min(first_ts, s.ts_ns[i]) : s.ts_ns[i];
    any_cpu = true;
    if (!rows.step_name(s.name.at(i))) continue;
    last_step_ts = any_step ? std::max(last_step_ts, s.ts_ns[i]) : s.ts_ns[i];
    any_step = true;
  }
  if (!any_cpu) return keep_gpu_work(m, rows, keep_all, sel);  // HTA returns the trace as is
  // Without a step among the CPU operators HTA cuts at the first of them, which keeps none.
  sel.has_cutoff = true;
  sel.cutoff_ns = any_step ? last_step_ts : first_ts;
  sel.last_step_dropped = true;
  auto cpu_kept = [&](uint32_t i) { return !rows.kernel_side(i) && s.ts_ns[i] < sel.cutoff_ns; };
  const std::vector<int64_t> corr = kept_correlations(m, rows, cpu_kept);
  keep_gpu_work(
      m, rows,
      [&](uint32_t i) {
        return rows.kernel_side(i) ? std::binary_search(corr.begin(), corr.end(), rows.correlation(i)) : cpu_kept(i);
      },
      sel);
}

// HTA's filter_mtia_kernels_for_one_rank (MTIA traces with 2+ step names): CPU events lying wholly
// inside [first step start, last step end] are kept and give the correlation ids that select
// device ops; memory ops (names ^dma / ^Memcpy / ^Memset) starting inside a step are kept too, and
// count as GPU work even without a stream (HTA gives them their tid as stream).
void select_mtia(const TraceModel& m, const HtaRows& rows, HtaSelection& sel) {
  const SliceTable& s = m.slices;
  auto is_cpu = [&](uint32_t i) {
    const EventKind k = s.kind_at(i);
    return k == EventKind::kCpuOp || k == EventKind::kUserAnnotation || k == EventKind::kCudaRuntime;
  };
  std::vector<std::pair<int64_t, int64_t>> steps;
  for (uint32_t i = 0; i < s.size(); ++i) {
    if (rows.row(i) && is_cpu(i) && rows.step_name(s.name.at(i))) steps.push_back({s.ts_ns[i], s.end_ns(i)});
  }
  sel.mtia = true;
  if (steps.empty()) return;  // HTA finds nothing to keep
  std::sort(steps.begin(), steps.end());
  int64_t t_start = steps.front().first, t_end = steps.front().second;
  for (const auto& st : steps) t_end = std::max(t_end, st.second);
  sel.has_cutoff = true;
  sel.cutoff_ns = t_end;
  auto cpu_kept = [&](uint32_t i) { return is_cpu(i) && s.ts_ns[i] >= t_start && s.end_ns(i) <= t_end; };
  std::vector<int64_t> corr = kept_correlations(m, rows, cpu_kept);
  corr.erase(std::remove(corr.begin(), corr.end(), -1), corr.end());
  std::vector<uint8_t> is_op(s.size(), 0);
  for (uint32_t i : m.gpu_ops.slice) is_op[i] = 1;
  auto memory_in_step = [&](uint32_t i) {
    const std::string_view name = m.strings.get(s.name.at(i));
    if (name.rfind("dma", 0) != 0 && name.rfind("Memcpy", 0) != 0 && name.rfind("Memset", 0) != 0) return false;
    // Inside some step [ts, ts + dur] (steps are few: a linear scan is fine).
    for (const auto& st : steps)
      if (s.ts_ns[i] >= st.first && s.ts_ns[i] <= st.second) return true;
    return false;
  };
  auto kept = [&](uint32_t i) {
    if (is_op[i] && rows.correlation(i) >= 0 && std::binary_search(corr.begin(), corr.end(), rows.correlation(i)))
      return true;
    return cpu_kept(i);
  };
  for (size_t row = 0; row < m.gpu_ops.size(); ++row) {
    const uint32_t i = m.gpu_ops.slice[row];
    sel.kept[row] = rows.row(i) && ((rows.gpu_work(i) && kept(i)) || memory_in_step(i));
  }
  for (uint32_t i = 0; i < s.size(); ++i) {
    if (!is_op[i] && rows.row(i) && ((rows.gpu_work(i) && kept(i)) || memory_in_step(i))) add_extra(m, i, sel);
  }
}

}  // namespace

HtaSelection hta_select_gpu_ops(const TraceModel& m) {
  HtaSelection sel;
  sel.kept.assign(m.gpu_ops.size(), 0);
  const HtaRows rows(m);
  sel.step_names = rows.step_names();
  // With fewer than two step names HTA filters nothing (MTIA traces too): every row is kept.
  if (sel.step_names < 2) keep_gpu_work(m, rows, keep_all, sel);
  else if (contains_icase(m.meta.backend, "mtia")) select_mtia(m, rows, sel);
  else select_by_launch(m, rows, sel);
  return sel;
}

}  // namespace tw
