#include "core/summary/detail_sections.h"

#include <cmath>

#include "core/analysis/collectives.h"
#include "core/analysis/device_idle.h"
#include "core/analysis/hta_compat.h"
#include "core/analysis/idle.h"
#include "core/analysis/intervals.h"
#include "core/analysis/kernel_classes.h"
#include "core/analysis/kernels.h"
#include "core/analysis/launches.h"
#include "core/analysis/memory.h"
#include "core/analysis/operators.h"
#include "core/analysis/overlap.h"
#include "core/analysis/recommendations.h"
#include "core/analysis/step_breakdown.h"
#include "core/analysis/steps.h"
#include "core/analysis/utilization.h"
#include "core/analysis/verdict.h"
#include "core/calltree/annotations.h"
#include "core/calltree/call_tree_json.h"
#include "core/summary/by_name_json.h"
#include "core/summary/detail_json.h"
#include "core/summary/step_details.h"

namespace tw {

namespace {

using nlohmann::json;
constexpr size_t kTopRows = 50;

json categories_json(const int64_t (&ns)[kStepCategoryCount]) {
  json j = json::object();
  for (int c = 0; c < kStepCategoryCount; ++c) j[step_category_name(static_cast<StepCategory>(c))] = ns[c];
  return j;
}

json step_breakdown_json(const StepBreakdown& r) {
  if (r.steps.empty()) return nullptr;
  json steps = json::array();
  for (size_t i = 0; i < r.steps.size() && i < kMaxChartPoints; ++i) {
    const StepTimes& t = r.steps[i];
    steps.push_back({{"number", t.number},
                     {"begin_ns", t.begin_ns},
                     {"end_ns", t.end_ns},
                     {"duration_ns", t.end_ns - t.begin_ns},
                     {"categories_ns", categories_json(t.category_ns)}});
  }
  return {{"count", r.steps.size()},
          {"mean_ns", r.mean_ns},
          {"p50_ns", r.p50_ns},
          {"min_ns", r.min_ns},
          {"max_ns", r.max_ns},
          {"total_ns", r.total_ns},
          {"categories_ns", categories_json(r.category_ns)},
          {"steps", steps}};
}

json fractions_json(const std::vector<float>& v) {
  json a = json::array();
  for (float x : v) a.push_back(round4(x));
  return a;
}

json utilization_json(const UtilizationResult& r) {
  if (r.devices.empty()) return nullptr;
  json devs = json::array();
  for (const DeviceUtilization& d : r.devices)
    devs.push_back({{"device", d.device}, {"busy_ns", d.busy_ns}, {"busy", fractions_json(d.busy)}});
  return {{"begin_ns", r.begin_ns}, {"end_ns", r.end_ns},           {"bucket_ns", r.bucket_ns},
          {"buckets", r.buckets},   {"all", fractions_json(r.all)}, {"devices", devs}};
}

json recommendations_json(const std::vector<Recommendation>& v) {
  json a = json::array();
  for (const Recommendation& r : v) {
    json numbers = json::object();
    for (const auto& [k, x] : r.numbers)
      numbers[k] = std::floor(x) == x && std::fabs(x) < 9e15 ? json(int64_t(x)) : json(round4(x));
    json offenders = json::array();
    for (const std::optional<std::string>& o : r.offenders) offenders.push_back(o ? json(*o) : json(nullptr));
    json ranges = json::array();
    for (const Interval& iv : r.ranges) ranges.push_back(range_json(iv.begin, iv.end));
    a.push_back({{"id", r.id},
                 {"severity", r.severity},
                 {"title", r.title},
                 {"text", r.text},
                 {"evidence", {{"numbers", numbers}, {"offenders", offenders}, {"ranges", ranges}}}});
  }
  return a;
}

json verdict_json(const Verdict& v) {
  json parts = json::array();
  for (const VerdictPart& p : v.parts) parts.push_back({{"id", p.id}, {"ns", p.ns}, {"share", round4(p.share)}});
  json top = json::array();
  for (const VerdictName& t : v.top) top.push_back({{"name", t.name}, {"ns", t.ns}, {"share", round4(t.share)}});
  return {{"limiter", limiter_name(v.limiter)},
          {"basis", verdict_basis_name(v.basis)},
          {"basis_ns", v.basis_ns},
          {"steps", v.steps},
          {"sentence", v.sentence},
          {"parts", parts},
          {"gpu_idle_part", v.gpu_idle_part.empty() ? json(nullptr) : json(v.gpu_idle_part)},
          {"top", top},
          {"top_of", v.top_of.empty() ? json(nullptr) : json(v.top_of)},
          {"recommendations", v.recommendations}};
}

}  // namespace

EarlyDetails early_details(const TraceModel& m) {
  EarlyDetails e;
  e.launch_ops = launch_operators(m);
  e.ops = operator_stats(m, nullptr, &e.launch_ops);
  e.launches = launch_stats(m, e.launch_options);
  e.memory = memory_usage(m, kMaxChartPoints);
  return e;
}

void add_early_sections(json& out, const TraceModel& m, const EarlyDetails& e) {
  out["operators"] = operators_json(m, e.ops, kTopRows);
  out["launches"] =
      m.launches.empty() && e.launches.sync_count == 0 ? json(nullptr) : launches_json(m, e.launches, e.launch_options);
  out["memory"] = e.memory.devices.empty() ? json(nullptr) : memory_json(e.memory, true);
}

void add_detail_sections(json& file, const AnalysisContext& ctx, const EarlyDetails& early,
                         const TemporalBreakdown* temporal) {
  const TraceModel& m = *ctx.model;
  const bool hta = ctx.opts->hta_compat;
  const std::vector<KernelClass>& cls = ctx.classes;
  const std::vector<uint8_t>* kept = ctx.kept();
  const bool any_gpu = m.gpu_ops.size() > 0;

  // First the two passes with the largest temporaries (annotations: every annotation's GPU spans;
  // utilization: every device's busy intervals), before the tables the later sections keep are
  // built beside them: in wasm the heap never shrinks, and the summary's peak is the sum. The two
  // need the model only, so the CLI runs them beside the tables that need the context.
  json annotations;
  UtilizationResult util;
  KernelsResult kernels;
  CommComputeSets comm_sets;
  CollectivesResult coll;
  json tables = json::object();
  IdleOptions iopt;
  iopt.hta_compat = hta;
  iopt.keep = kept;
  iopt.order = &ctx.idle_order;
  IdleResult idle;
  std::vector<DeviceIdle> device_idles;
  StepBreakdown sb;
  run_both(
      *ctx.opts,
      [&] {
        annotations = annotations_json(m, annotation_stats(m));
        util = gpu_utilization(m, kMaxChartPoints);
      },
      [&] {
        // The two tables that need the kernel classes only.
        kernels = kernel_stats(m, cls, kept, nullptr, ctx.extra());
        comm_sets = comm_compute_sets(m, cls, kept);
        coll = collective_stats(m, cls, kept, comm_sets);
        tables["kernels"] = any_gpu ? kernels_json(m, kernels, kTopRows) : json(nullptr);
        tables["by_name"] = by_name_json(by_short_name(m, kernels, early.ops, ctx.steps, kept, ctx.extra()));
        tables["collectives"] = coll.count ? collectives_json(coll) : json(nullptr);
        idle = idle_breakdown(m, iopt);
        device_idles = device_idle(m, ctx.idle_order, iopt);
        sb = step_breakdown(m, ctx.steps, cls);
      });
  file["annotations"] = std::move(annotations);
  for (auto& [key, value] : tables.items()) file[key] = std::move(value);
  const StreamOverlapResult& streams = ctx.streams;

  file["idle"] = any_gpu ? idle_json(idle, &device_idles) : json(nullptr);
  file["step_breakdown"] = step_breakdown_json(sb);
  if (file.contains("steps") && file["steps"].is_array() && file["steps"].size() == ctx.steps.size()) {
    StepDetailPresence present;
    present.gpu = any_gpu;
    present.launches = !file["launches"].is_null();
    present.collectives = coll.count > 0;
    present.memory = !early.memory.devices.empty();
    std::vector<json> details = step_details_json(ctx, comm_sets, present, early.launch_ops);
    for (size_t i = 0; i < details.size(); ++i) file["steps"][i]["sections"] = std::move(details[i]);
  }
  file["utilization"] = utilization_json(util);

  RecommendationInputs in;
  in.model = &m;
  in.gpu_span_ns = util.end_ns - util.begin_ns;
  // Several devices in one file: the busiest device's view (the span is shared).
  for (const DeviceUtilization& d : util.devices) in.gpu_busy_ns = std::max(in.gpu_busy_ns, d.busy_ns);
  in.device_idle = &device_idles;
  in.launches = &early.launches;
  in.memory = &early.memory;
  in.collectives = &coll;
  in.steps = &sb;
  in.kernels = &kernels;
  in.streams = &streams;
  const std::vector<MemoryOpKind>& mk = ctx.memory_kinds;
  for (size_t row = 0; row < mk.size(); ++row) {
    if (mk[row].host != HostMemory::kPageable) continue;
    in.pageable_copies++;
    in.pageable_copy_ns += m.slices.dur_at(m.gpu_ops.slice[row]);
    if (const int64_t b = m.gpu_ops.bytes_at(row); b > 0) in.pageable_copy_bytes += b;
  }
  const std::vector<Recommendation> recs = recommend(in);
  file["recommendations"] = recommendations_json(recs);

  VerdictInputs vin;
  vin.model = &m;
  vin.steps = &sb;
  vin.temporal = temporal;
  vin.kernels = &kernels;
  vin.collectives = &coll;
  vin.launches = &early.launches;
  vin.operators = &early.ops;
  vin.device_idle = &device_idles;
  vin.recommendations = &recs;
  file["verdict"] = verdict_json(verdict(vin));
}

void add_detail_sections(json& file, const TraceModel& m, const SummaryOptions& opts) {
  EarlyDetails early = early_details(m);
  add_early_sections(file, m, early);
  const AnalysisContext ctx = make_analysis_context(m, opts);
  ActivityOptions aopt;
  aopt.kept = ctx.kept();  // the activity add_analysis_sections measures, HTA's extra rows included
  aopt.extra = ctx.extra();
  const GpuActivity act = gpu_activity(m, ctx.classes, aopt);
  const TemporalBreakdown t = act.any ? temporal_breakdown(act) : TemporalBreakdown{};
  add_detail_sections(file, ctx, early, act.any ? &t : nullptr);
}

}  // namespace tw
