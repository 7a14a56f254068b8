// The summary's `by_name` section: every kernel and operator per short name, with its time in each
// of the first profiler steps (core/analysis/by_short_name.h), for the run comparison.
#pragma once
#include <nlohmann/json.hpp>

#include "core/analysis/by_short_name.h"

namespace tw {

nlohmann::json by_name_json(const ByShortName& r);

}  // namespace tw
