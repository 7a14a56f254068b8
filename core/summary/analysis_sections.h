// The analysis sections of a file's summary (temporal, overlap, kernels, ...). Each analysis is a
// pure function in core/analysis/; this file only places their results into the summary JSON.
#pragma once
#include <nlohmann/json.hpp>

#include "core/model/trace_model.h"
#include "core/summary/summary.h"

namespace tw {
void add_analysis_sections(nlohmann::json& file, const TraceModel& m, const SummaryOptions& opts);
}
