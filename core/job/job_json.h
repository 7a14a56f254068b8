// The job analysis as the summary document's `job` fields (docs/summary-schema.md).
#pragma once
#include <vector>

#include <nlohmann/json.hpp>

#include "core/job/job_analysis.h"

namespace tw {

// Adds ranks, clock, stragglers, straggler_rule, collectives and notes to `job`.
void add_job_analysis_json(const std::vector<RankRecord>& records, const JobAnalysis& a, nlohmann::json& job);

constexpr size_t kJobWorstInstances = 64;  // the heatmap's columns: the instances with the largest skew
constexpr size_t kJobMismatchesShown = 20;

}  // namespace tw
