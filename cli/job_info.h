// The job of several ranks in words, for `tracewise info FILE... | DIR`: from the summary
// document's `job` object (docs/summary-schema.md).
#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace tw {
std::string job_info_text(const nlohmann::json& document);
}
