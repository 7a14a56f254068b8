// The detail sections of a file's summary: idle, kernels, operators, launches, memory,
// collectives, step_breakdown, utilization, recommendations (docs/summary-detail-sections.md).
// Every table is bounded (top rows only) so summaries stay small whatever the trace size.
#pragma once
#include <nlohmann/json.hpp>

#include "core/summary/analysis_context.h"

namespace tw {
void add_detail_sections(nlohmann::json& file, const AnalysisContext& ctx);
// Convenience for callers without a context (tests): builds one first.
void add_detail_sections(nlohmann::json& file, const TraceModel& m, const SummaryOptions& opts);
}
