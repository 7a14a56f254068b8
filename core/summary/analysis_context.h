// What every summary section shares, computed once per file: the kernel rules in force, one class
// and one memory kind per GPU op, HTA's event selection (in --hta-compat mode), the profiler steps,
// the stream-pair overlaps and the idle walk order. Sections read it; none recomputes it.
#pragma once
#include <cstdint>
#include <vector>

#include "core/analysis/hta_compat.h"
#include "core/analysis/idle.h"
#include "core/analysis/kernel_classes.h"
#include "core/analysis/overlap.h"
#include "core/analysis/steps.h"
#include "core/model/trace_model.h"
#include "core/summary/summary.h"

namespace tw {

struct AnalysisContext {
  const TraceModel* model = nullptr;
  const SummaryOptions* opts = nullptr;
  KernelRules rules;
  std::vector<KernelClass> classes;        // one per model.gpu_ops row
  std::vector<MemoryOpKind> memory_kinds;  // one per model.gpu_ops row
  HtaSelection selection;                  // filled in --hta-compat mode only
  // &selection.kept in --hta-compat mode, else null (a method, not a member: the context moves).
  const std::vector<uint8_t>* kept() const { return opts && opts->hta_compat ? &selection.kept : nullptr; }
  std::vector<KernelClass> extra_classes;  // one per selection.extra_slices
  // The slices besides the GPU ops that HTA counts as GPU work (none in the default mode).
  ExtraWork extra() const { return {&selection.extra_slices, &extra_classes}; }
  std::vector<ProfilerStep> steps;
  bool gpu_steps = false;  // steps came from gpu_user_annotation
  StreamOverlapResult streams;
  IdleOrder idle_order;  // the GPU ops the idle breakdowns walk (whole trace and steps)
};

AnalysisContext make_analysis_context(const TraceModel& m, const SummaryOptions& opts);

}  // namespace tw
