// The timeline's track list as JSON for the page: groups (one per process, plus "Memory") and
// lanes in display order with names, kinds and row counts. The lanes themselves are built by
// TimelineIndex::build_tracks (track_list.cc).
#pragma once
#include <nlohmann/json.hpp>

#include "core/timeline/timeline_index.h"

namespace tw {

// {"originNs": "<decimal>", "endNs": <float, relative>, "groups": [{name, pid, gpu}],
//  "tracks": [{id, group, kind: "slices"|"counter"|"memory"|"overlap", name, rows}]}
nlohmann::json tracks_json(const TimelineIndex& index);

}  // namespace tw
