// The job: what the files opened together (one per rank) say as a whole, read from their summaries
// (file_summary) so that the CLI, which has the models, and the page, which has only the summaries,
// compute it the same way: the job's verdict (which limiter the ranks share, which ranks differ,
// which rank is slowest); with the ranks' records (core/job/rank_record.h) also the job analysis
// (collectives matched across ranks, clock offsets, waits, stragglers).
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/job/rank_record.h"

namespace tw {

// {"rank_count": N, "verdict": {...}} and, with `records` (one per file, same order), the job
// analysis' fields; docs/summary-schema.md.
nlohmann::json job_summary(const std::vector<nlohmann::json>& files, const std::vector<RankRecord>* records = nullptr);
// The same from the files' summaries as one JSON array (the page holds them as text) and their rank
// records as another (core/job/rank_record_json.h; "" for none); "null" when the summaries are not
// an array of objects or the records are malformed or not one per file.
std::string job_summary_json(std::string_view files_json, std::string_view records_json = {});

}  // namespace tw
