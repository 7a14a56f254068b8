// The job: what the files opened together (one per rank) say as a whole, read from their summaries
// (file_summary) so that the CLI, which has the models, and the page, which has only the summaries,
// compute it the same way. Today: the job's verdict (which limiter the ranks share, which ranks
// differ, which rank is slowest).
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace tw {

// {"ranks": N, "verdict": {limiter, agree, by_limiter, slowest, sentence}}; docs/summary-schema.md.
nlohmann::json job_summary(const std::vector<nlohmann::json>& files);
// The same from the files' summaries as one JSON array (the page holds them as text); "null" when
// the text is not an array of objects.
std::string job_summary_json(std::string_view files_json);

}  // namespace tw
