#include "core/summary/analysis_sections.h"

#include <algorithm>
#include <optional>

#include "core/analysis/hta_compat.h"
#include "core/analysis/kernel_classes.h"
#include "core/analysis/overlap.h"
#include "core/analysis/steps.h"
#include "core/analysis/temporal.h"
#include "core/summary/analysis_context.h"
#include "core/summary/detail_sections.h"

namespace tw {

namespace {

using nlohmann::json;

json pct_or_null(int64_t part, int64_t whole) {
  return whole > 0 ? json(100.0 * double(part) / double(whole)) : json(nullptr);
}

json temporal_json(const TemporalBreakdown& t) {
  json j = json::object();
  j["begin_ns"] = t.begin_ns;
  j["end_ns"] = t.end_ns;
  j["span_ns"] = t.span_ns;
  j["busy_ns"] = t.busy_ns;
  j["idle_ns"] = t.idle_ns;
  j["compute_ns"] = t.compute_ns;
  j["non_compute_ns"] = t.non_compute_ns;
  j["idle_pct"] = pct_or_null(t.idle_ns, t.span_ns);
  j["compute_pct"] = pct_or_null(t.compute_ns, t.span_ns);
  j["non_compute_pct"] = pct_or_null(t.non_compute_ns, t.span_ns);
  j["exposed"] = {{"computation_ns", t.compute_ns},
                  {"communication_ns", t.exposed_communication_ns},
                  {"memory_ns", t.exposed_memory_ns},
                  {"other_ns", t.exposed_other_ns},
                  {"idle_ns", t.idle_ns}};
  return j;
}

json classes_json(const int64_t (&ns)[kKernelClassCount]) {
  json j = json::object();
  for (int c = 0; c < kKernelClassCount; ++c) j[kernel_class_name(static_cast<KernelClass>(c))] = ns[c];
  return j;
}

json overlap_json(const CommOverlap& o) {
  return {{"communication_ns", o.communication_ns},
          {"overlapped_ns", o.overlapped_ns},
          {"exposed_ns", o.communication_ns - o.overlapped_ns},
          {"pct", o.has_communication() ? json(o.pct()) : json(nullptr)}};
}

// Per class: op count and summed durations (the union times are in kernel_classes_ns), the extra
// GPU work included (as HTA's kernel breakdown has it).
json class_counts_json(const TraceModel& m, const std::vector<KernelClass>& cls, const std::vector<uint8_t>* kept,
                       const ExtraWork& extra) {
  int64_t count[kKernelClassCount] = {}, sum[kKernelClassCount] = {};
  auto add = [&](KernelClass c, uint32_t slice) {
    ++count[static_cast<int>(c)];
    sum[static_cast<int>(c)] += m.slices.dur_at(slice);
  };
  for (size_t row = 0; row < cls.size(); ++row)
    if (!kept || (*kept)[row]) add(cls[row], m.gpu_ops.slice[row]);
  for (size_t i = 0; i < extra.size(); ++i) add((*extra.classes)[i], (*extra.slices)[i]);
  json j = json::object();
  for (int c = 0; c < kKernelClassCount; ++c)
    j[kernel_class_name(static_cast<KernelClass>(c))] = {{"ops", count[c]}, {"sum_ns", sum[c]}};
  return j;
}

json memory_ops_json(const TraceModel& m, const std::vector<MemoryOpKind>& kinds, const std::vector<uint8_t>* kept) {
  int64_t count[kMemoryKindCount] = {}, sum[kMemoryKindCount] = {}, bytes[kMemoryKindCount] = {};
  int64_t host_count[3] = {}, host_sum[3] = {};
  for (size_t row = 0; row < kinds.size(); ++row) {
    if (kept && !(*kept)[row]) continue;
    const MemoryOpKind k = kinds[row];
    if (k.kind == MemoryKind::kNone) continue;
    const int i = static_cast<int>(k.kind);
    const int64_t dur = m.slices.dur_at(m.gpu_ops.slice[row]);
    ++count[i];
    sum[i] += dur;
    if (const int64_t b = m.gpu_ops.bytes_at(row); b > 0) bytes[i] += b;
    if (k.kind == MemoryKind::kMemcpyHtoD || k.kind == MemoryKind::kMemcpyDtoH) {
      ++host_count[static_cast<int>(k.host)];
      host_sum[static_cast<int>(k.host)] += dur;
    }
  }
  json j = json::object();
  for (int i = 1; i < kMemoryKindCount; ++i)
    j[memory_kind_name(static_cast<MemoryKind>(i))] = {{"ops", count[i]}, {"sum_ns", sum[i]}, {"bytes", bytes[i]}};
  json host = json::object();
  for (int h = 0; h < 3; ++h)
    host[host_memory_name(static_cast<HostMemory>(h))] = {{"ops", host_count[h]}, {"sum_ns", host_sum[h]}};
  j["host_side"] = host;
  return j;
}

json stream_overlap_json(const StreamOverlapResult& r) {
  json streams = json::array();
  for (const StreamActivity& s : r.streams) {
    streams.push_back({{"device", s.device},
                       {"stream", s.stream},
                       {"ops", s.ops},
                       {"busy_ns", s.busy_ns},
                       {"main_class", kernel_class_name(s.main_class)},
                       {"classes_ns", classes_json(s.class_ns)}});
  }
  json pairs = json::array();
  for (const StreamPairOverlap& p : r.pairs) {
    const int64_t smaller = std::min(r.streams[p.a].busy_ns, r.streams[p.b].busy_ns);
    pairs.push_back(
        {{"a", p.a}, {"b", p.b}, {"overlap_ns", p.overlap_ns}, {"pct_of_smaller", pct_or_null(p.overlap_ns, smaller)}});
  }
  return {{"streams", streams}, {"pairs", pairs}, {"truncated", r.truncated}};
}

}  // namespace

void add_analysis_sections(json& file, const TraceModel& m, const SummaryOptions& opts) {
  const bool hta = opts.hta_compat;
  // The tables that need no context (the recommendations use them too), beside the context and the
  // GPU activity, which need none of them. One after the other, the early tables come first and
  // drop their bulk before the context is built.
  EarlyDetails early;
  json early_sections = json::object();
  std::optional<AnalysisContext> context;
  ActivityOptions aopt;
  GpuActivity act;
  run_both(
      opts,
      [&] {
        early = early_details(m);
        add_early_sections(early_sections, m, early);
      },
      [&] {
        context.emplace(make_analysis_context(m, opts));
        aopt.kept = context->kept();
        aopt.extra = context->extra();
        act = gpu_activity(m, context->classes, aopt);
      });
  for (auto& [key, value] : early_sections.items()) file[key] = std::move(value);
  const AnalysisContext& ctx = *context;
  const KernelRules& rules = ctx.rules;
  const std::vector<KernelClass>& cls = ctx.classes;
  const HtaSelection& sel = ctx.selection;
  const std::vector<uint8_t>* kept = ctx.kept();

  json mode = {{"name", hta ? "hta_compat" : "default"}, {"kernel_rules", rules.name}};
  if (hta) {
    size_t n_kept = 0;
    for (uint8_t k : sel.kept) n_kept += k;
    mode["hta_selection"] = {{"step_names", sel.step_names},
                             {"last_step_dropped", sel.last_step_dropped},
                             {"cutoff_ns", sel.has_cutoff ? json(sel.cutoff_ns) : json(nullptr)},
                             {"kept_gpu_ops", n_kept},
                             {"dropped_gpu_ops", sel.kept.size() - n_kept},
                             {"sync_events", sel.sync_events},
                             {"stream_events", sel.extra_slices.size() - sel.sync_events}};
  }
  file["analysis_mode"] = mode;

  // Steps are listed whether or not there is GPU work.
  const std::vector<ProfilerStep>& steps = ctx.steps;
  const bool gpu_steps = ctx.gpu_steps;

  TemporalBreakdown whole;
  if (!act.any) {
    file["temporal"] = nullptr;
    file["kernel_classes_ns"] = nullptr;
    file["kernel_classes"] = nullptr;
    file["memory_ops"] = nullptr;
    file["overlap"] = nullptr;
    file["stream_overlap"] = nullptr;
  } else {
    whole = temporal_breakdown(act);
    const TemporalBreakdown& t = whole;
    json tj = temporal_json(t);
    tj["gpu_ops"] = act.ops;
    file["temporal"] = tj;
    file["kernel_classes_ns"] = classes_json(t.class_ns);
    file["kernel_classes"] = class_counts_json(m, cls, kept, aopt.extra);
    file["memory_ops"] = memory_ops_json(m, ctx.memory_kinds, kept);
    file["overlap"] = overlap_json(comm_compute_overlap(act));
    file["stream_overlap"] = stream_overlap_json(ctx.streams);
  }

  json sj = json::array();
  for (const ProfilerStep& st : steps) {
    json s = {
        {"number", st.number}, {"begin_ns", st.begin_ns}, {"end_ns", st.end_ns}, {"duration_ns", st.duration_ns()}};
    if (act.any) {
      const TemporalBreakdown t = temporal_breakdown_in(act, st.begin_ns, st.end_ns);
      json tj = temporal_json(t);
      tj["classes_ns"] = classes_json(t.class_ns);
      s["temporal"] = tj;
      s["overlap"] = overlap_json(comm_compute_overlap_in(act, st.begin_ns, st.end_ns));
    } else {
      s["temporal"] = nullptr;
      s["overlap"] = nullptr;
    }
    sj.push_back(std::move(s));
  }
  file["steps"] = sj;
  file["steps_source"] = steps.empty() ? json(nullptr) : json(gpu_steps ? "gpu_user_annotation" : "cpu");
  // idle, kernels, collectives, ..., the verdict (detail_sections.h), without the activity's
  // interval sets: in wasm the heap never shrinks, and the detail sections' temporaries set its peak.
  const bool any_activity = act.any;
  act = GpuActivity();
  add_detail_sections(file, ctx, early, any_activity ? &whole : nullptr);
}

}  // namespace tw
