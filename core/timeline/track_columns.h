// The timeline's track list for the page as columns, so that a trace of a million processes crosses
// to the page as a few typed arrays instead of a JSON document of a million objects (slow to write,
// parse and clone, and the clone lands on the page's main thread). Names travel apart, a page at a
// time for the rows on screen, each cut to a length a row can show (a name of 50 MB is never copied
// out whole).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/timeline/timeline_index.h"

namespace tw {

// Groups (processes, then the derived / memory group) and their tracks, in display order. A group's
// tracks are contiguous: tracks [group_first_track[g], group_first_track[g + 1]).
struct TrackColumns {
  std::vector<uint32_t> group_first_track;  // groups + 1 entries
  std::vector<double> group_pid;            // -1 for the derived / memory group
  std::vector<uint8_t> group_gpu;           // 1: the group holds GPU streams
  std::vector<uint32_t> track_group;
  std::vector<uint8_t> track_kind;  // LaneKind
  std::vector<uint32_t> track_rows;
};

TrackColumns track_columns(const TimelineIndex& index);

// Calls f(name, column) for each column, under the names the page reads them by
// (web/timeline/track_columns.ts lists the same; tests/wasm/track_columns.test.mjs holds the two).
template <class F>
void for_each_track_column(const TrackColumns& c, F&& f) {
  f("groupFirstTrack", c.group_first_track);
  f("groupPid", c.group_pid);
  f("groupGpu", c.group_gpu);
  f("trackGroup", c.track_group);
  f("trackKind", c.track_kind);
  f("trackRows", c.track_rows);
}

// {"originNs": "<decimal>", "endNs": <float, relative>, "groups": count, "tracks": count}
nlohmann::json track_head_json(const TimelineIndex& index);

// The names of groups (groups = true) or tracks [first, first + count) as a JSON array, each cut to
// at most `max_bytes` bytes of UTF-8 (at a character boundary, then "…"); count is capped at
// kMaxTrackNames and at the end of the list.
constexpr uint32_t kMaxTrackNames = 4096;
nlohmann::json track_names_json(const TimelineIndex& index, bool groups, uint32_t first, uint32_t count,
                                size_t max_bytes);

// `s` cut to at most `max_bytes` bytes (never inside a UTF-8 sequence) followed by "…", or `s`
// whole when it fits.
std::string utf8_prefix(std::string_view s, size_t max_bytes);

}  // namespace tw
