// The detail sections of a file's summary: idle, kernels, operators, launches, memory,
// collectives, step_breakdown, utilization, recommendations, verdict (docs/summary-detail-sections.md).
// Every table is bounded (top rows only) so summaries stay small whatever the trace size.
#pragma once
#include <nlohmann/json.hpp>

#include "core/analysis/launches.h"
#include "core/analysis/memory.h"
#include "core/analysis/operators.h"
#include "core/analysis/temporal.h"
#include "core/summary/analysis_context.h"
#include "core/summary/detail_json.h"

namespace tw {

// The detail sections that need no analysis context (no kernel classes): computed before it. The
// recommendations use them.
struct EarlyDetails {
  LaunchOperators launch_ops;  // shared with the steps' operator tables
  OperatorsResult ops;
  LaunchOptions launch_options{.queue_chart_points = kMaxChartPoints};
  LaunchesResult launches;
  MemoryResult memory;
};
EarlyDetails early_details(const TraceModel& m);
// Sets the "operators", "launches" and "memory" keys of `out` (the later sections and the
// recommendations read `early` too).
void add_early_sections(nlohmann::json& out, const TraceModel& m, const EarlyDetails& early);

// The other detail sections (the early ones must be in `file` already). `temporal` is the whole
// trace's GPU breakdown as the "temporal" section holds it (null: no GPU work); the verdict reads it.
void add_detail_sections(nlohmann::json& file, const AnalysisContext& ctx, const EarlyDetails& early,
                         const TemporalBreakdown* temporal);
// Convenience for callers without a context (tests): builds one first, and the early sections too.
void add_detail_sections(nlohmann::json& file, const TraceModel& m, const SummaryOptions& opts);

}  // namespace tw
