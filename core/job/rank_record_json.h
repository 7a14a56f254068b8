// A rank record as JSON ("tracewise.rank/1"): how a page worker hands its rank to the job, and how
// ranks read elsewhere can be joined later. Calls and steps are arrays of numbers (a rank may have
// tens of thousands of calls) with their strings in one table:
//   {"schema": "tracewise.rank/1", "file", "rank", "world_size", "gpu_span_ns", "limiter",
//    "steps": [[number, begin_ns, end_ns, <the 8 step categories' ns in StepCategory order>], ...],
//    "strings": [...],
//    "calls": [[group, op, dtype (string indices), seq, nelems, bytes, group_size, step|null, begin_ns, end_ns], ...]}
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/job/rank_record.h"

namespace tw {

nlohmann::json rank_record_json(const RankRecord& r);
// False (with a reason) when `j` is not a well-formed record; never throws.
bool rank_record_from_json(const nlohmann::json& j, RankRecord* out, std::string* error);
// Several records as one JSON array of records (the page's form); false when any is malformed.
bool rank_records_from_json(std::string_view text, std::vector<RankRecord>* out, std::string* error);

}  // namespace tw
