#include "core/timeline/track_columns.h"

#include <algorithm>

namespace tw {

TrackColumns track_columns(const TimelineIndex& index) {
  TrackColumns c;
  const auto& groups = index.groups();
  const auto& tracks = index.tracks();
  c.group_first_track.assign(groups.size() + 1, 0);
  c.group_pid.reserve(groups.size());
  c.group_gpu.reserve(groups.size());
  for (const TimelineGroup& g : groups) {
    c.group_pid.push_back(static_cast<double>(g.pid));
    c.group_gpu.push_back(g.gpu ? 1 : 0);
  }
  c.track_group.reserve(tracks.size());
  c.track_kind.reserve(tracks.size());
  c.track_rows.reserve(tracks.size());
  // build_tracks appends a group's tracks together, groups in order: count, then prefix sums.
  for (const TimelineTrack& t : tracks) {
    c.track_group.push_back(t.group);
    c.track_kind.push_back(static_cast<uint8_t>(t.kind));
    c.track_rows.push_back(t.rows);
    if (t.group < groups.size()) ++c.group_first_track[t.group + 1];
  }
  for (size_t g = 0; g < groups.size(); ++g) c.group_first_track[g + 1] += c.group_first_track[g];
  return c;
}

nlohmann::json track_head_json(const TimelineIndex& index) {
  return {{"originNs", std::to_string(index.origin_ns())},
          {"endNs", static_cast<double>(index.end_ns() - index.origin_ns())},
          {"groups", index.groups().size()},
          {"tracks", index.tracks().size()}};
}

nlohmann::json track_names_json(const TimelineIndex& index, bool groups, uint32_t first, uint32_t count,
                                size_t max_bytes) {
  const size_t n = groups ? index.groups().size() : index.tracks().size();
  nlohmann::json out = nlohmann::json::array();
  const size_t end = std::min<size_t>(n, static_cast<size_t>(first) + std::min(count, kMaxTrackNames));
  for (size_t i = first; i < end; ++i)
    out.push_back(utf8_prefix(groups ? index.groups()[i].name : index.tracks()[i].name, max_bytes));
  return out;
}

std::string utf8_prefix(std::string_view s, size_t max_bytes) {
  if (s.size() <= max_bytes) return std::string(s);
  size_t cut = max_bytes;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;  // a continuation byte
  return std::string(s.substr(0, cut)) + "\xE2\x80\xA6";
}

}  // namespace tw
