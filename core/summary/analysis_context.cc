#include "core/summary/analysis_context.h"

#include "core/summary/summary_rules.h"

namespace tw {

AnalysisContext make_analysis_context(const TraceModel& m, const SummaryOptions& opts) {
  AnalysisContext c;
  c.model = &m;
  c.opts = &opts;
  c.rules = summary_kernel_rules(opts);
  c.classes = classify_gpu_ops(m, c.rules);
  c.memory_kinds = memory_op_kinds(m);
  if (opts.hta_compat) {
    c.selection = hta_select_gpu_ops(m);
    c.extra_classes = classify_slices(m, c.rules, c.selection.extra_slices);
  }
  c.steps = find_profiler_steps(m);
  if (c.steps.empty()) {
    c.steps = find_gpu_profiler_steps(m);
    c.gpu_steps = !c.steps.empty();
  }
  c.streams = stream_overlaps(m, c.classes, c.kept());
  IdleOptions idle;
  idle.hta_compat = opts.hta_compat;
  idle.keep = c.kept();
  c.idle_order = idle_order(m, idle);
  return c;
}

}  // namespace tw
