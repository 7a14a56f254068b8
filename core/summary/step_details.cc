#include "core/summary/step_details.h"

#include <algorithm>

#include "core/analysis/idle.h"
#include "core/analysis/intervals.h"
#include "core/analysis/kernels.h"
#include "core/analysis/launches.h"
#include "core/analysis/memory.h"
#include "core/analysis/operators.h"
#include "core/summary/detail_json.h"

namespace tw {

namespace {

using nlohmann::json;

// At most kStepMaxStreams rows: the streams with most ops in the step, in (device, stream) order.
void bound_streams(IdleResult& r) {
  if (r.streams.size() <= kStepMaxStreams) return;
  std::vector<size_t> idx(r.streams.size());
  for (size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  std::stable_sort(idx.begin(), idx.end(), [&r](size_t a, size_t b) { return r.streams[a].ops > r.streams[b].ops; });
  idx.resize(kStepMaxStreams);
  std::sort(idx.begin(), idx.end());
  std::vector<StreamIdle> kept;
  for (size_t i : idx) kept.push_back(std::move(r.streams[i]));
  r.streams = std::move(kept);
}

}  // namespace

std::vector<json> step_details_json(const AnalysisContext& ctx, const CommComputeSets& sets,
                                    const StepDetailPresence& present, const LaunchOperators& launch_ops) {
  const TraceModel& m = *ctx.model;
  const size_t n = std::min(ctx.steps.size(), kMaxDetailSteps);
  std::vector<json> out(ctx.steps.size(), json(nullptr));
  std::vector<Interval> windows;
  for (size_t i = 0; i < n; ++i)
    windows.push_back({ctx.steps[i].begin_ns, std::max(ctx.steps[i].begin_ns, ctx.steps[i].end_ns)});

  // Idle needs every stream's ops in order: one pass serves all windows.
  IdleOptions iopt;
  iopt.hta_compat = ctx.opts->hta_compat;
  iopt.keep = ctx.kept();
  iopt.longest_gaps = kStepTopRows;
  iopt.order = &ctx.idle_order;
  std::vector<IdleResult> idle;
  if (present.gpu) idle = idle_breakdown_in(m, iopt, windows);

  LaunchOptions lopt;
  lopt.top = kStepTopRows;
  lopt.queues = false;
  std::vector<uint32_t> by_launch_slice;
  if (present.launches && n > 0) {
    by_launch_slice = launch_order(m);
    lopt.launch_order = &by_launch_slice;
  }
  // Shared by the windows: what each call would otherwise build from the whole trace again.
  std::vector<uint32_t> mem_order;
  if (present.memory && n > 0) mem_order = memory_order(m);
  for (size_t i = 0; i < n; ++i) {
    const Interval& w = windows[i];
    json d = json::object();
    if (present.gpu) {
      bound_streams(idle[i]);
      d["idle"] = idle_json(idle[i]);
      d["kernels"] = kernels_json(m, kernel_stats(m, ctx.classes, ctx.kept(), &w, ctx.extra()), kStepTopKernels);
    } else {
      d["idle"] = nullptr;
      d["kernels"] = nullptr;
    }
    lopt.window = &w;
    d["launches"] = present.launches ? launches_json(m, launch_stats(m, lopt), lopt) : json(nullptr);
    d["collectives"] =
        present.collectives ? collectives_json(collective_stats(m, ctx.classes, ctx.kept(), sets, &w)) : json(nullptr);
    d["memory"] = present.memory ? memory_json(memory_usage(m, 1, &w, &mem_order), false) : json(nullptr);
    // CPU operators are always a section (like the whole trace's): operators that start in the step.
    d["operators"] = operators_json(m, operator_stats(m, &w, &launch_ops), kStepTopOperators);
    out[i] = std::move(d);
  }
  return out;
}

}  // namespace tw
