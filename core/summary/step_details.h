// Per-step detail sections: for each ProfilerStep window, the idle, kernels, launches, collectives
// and memory sections restricted to [begin_ns, end_ns) by the same analysis functions as the whole
// trace (their window options), written by the same JSON writers with smaller row limits, so a
// step's section has the whole-trace section's shape (docs/summary-detail-sections.md, "Per step").
#pragma once
#include <nlohmann/json.hpp>
#include <vector>

#include "core/analysis/collectives.h"
#include "core/analysis/operators.h"
#include "core/summary/analysis_context.h"

namespace tw {

// Which whole-trace sections exist (are not null): a step's section is null exactly when the
// whole trace's is, and otherwise an object (with zero counts when the step has none of it).
struct StepDetailPresence {
  bool gpu = false;  // idle, kernels
  bool launches = false;
  bool collectives = false;
  bool memory = false;
};

// Only the first kMaxDetailSteps steps get details (the others get null), so summaries of traces
// with very many steps stay small and the per-step passes stay cheap.
constexpr size_t kMaxDetailSteps = 32;
constexpr size_t kStepTopKernels = 10;
constexpr size_t kStepTopOperators = 10;  // operators, modules, operator -> kernel pairs
constexpr size_t kStepTopRows = 3;        // longest gaps, worst delays, short ops, sync sites
constexpr size_t kStepMaxStreams = 16;    // idle rows per step (the streams with most ops)

// One entry per ctx.steps element: `{idle, kernels, launches, collectives, memory}` or null.
// `launch_ops`: launch_operators(*ctx.model), as the whole trace's operator table used it.
std::vector<nlohmann::json> step_details_json(const AnalysisContext& ctx, const CommComputeSets& sets,
                                              const StepDetailPresence& present, const LaunchOperators& launch_ops);

}  // namespace tw
