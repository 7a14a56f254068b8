// The call tree as the page's flame graph reads it: columns of numbers and a names table (a tree of a
// large trace has 100k+ nodes; objects per node would be several times larger).
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "core/calltree/annotations.h"
#include "core/calltree/call_tree.h"

namespace tw {

// {"kind", "range", "gpu_unlinked_ns", "gpu_unlinked_ops", "names": [...], "nodes": {"parent" (-1 for
// roots), "name" (into names), "track", "depth", "count", "total_ns", "self_ns", "gpu_ns", "gpu_self_ns"}}.
// A thread root's name is its thread_label().
std::string call_tree_json(const TraceModel& m, const CallTree& t, bool bottom_up);

// The summary's `annotations` section (docs/summary-detail-sections.md).
nlohmann::json annotations_json(const TraceModel& m, const AnnotationsResult& r);

}  // namespace tw
