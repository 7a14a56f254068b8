#include "core/timeline/search.h"

#include <algorithm>
#include <cmath>

#include "core/timeline/lod_query.h"

namespace tw {

void SearchState::clear() {
  active_ = false;
  names_.clear();
  all_.clear();
  by_track_.clear();
  track_offset_.clear();
}

void SearchState::run(const TimelineIndex& index, const std::vector<uint32_t>& name_ids) {
  clear();
  active_ = true;
  const TraceModel& m = index.model();
  names_.assign(m.strings.size(), 0);
  for (uint32_t id : name_ids)
    if (id < names_.size()) names_[id] = 1;
  const SliceTable& s = m.slices;
  track_offset_.assign(m.tracks.size() + 1, 0);
  for (uint32_t i = 0; i < s.size(); ++i) {
    if (!names_[s.name.at(i)]) continue;
    by_track_.push_back(i);
    ++track_offset_[s.track_at(i) + 1];
  }
  for (size_t t = 0; t < m.tracks.size(); ++t) track_offset_[t + 1] += track_offset_[t];
  all_ = by_track_;
  std::sort(all_.begin(), all_.end(),
            [&s](uint32_t x, uint32_t y) { return s.ts_ns[x] != s.ts_ns[y] ? s.ts_ns[x] < s.ts_ns[y] : x < y; });
}

size_t SearchState::step(const TimelineIndex& index, int64_t ts, uint32_t slice, int dir) const {
  if (all_.empty()) return SIZE_MAX;
  const SliceTable& s = index.model().slices;
  bool from_time = slice == UINT32_MAX;                   // a position in time, not a current match
  auto before = [&s, ts, slice, from_time](uint32_t x) {  // x sorts strictly before (ts, slice)
    return s.ts_ns[x] != ts ? s.ts_ns[x] < ts : (!from_time && x < slice);
  };
  auto it = std::partition_point(all_.begin(), all_.end(), before);  // first >= (ts, slice)
  size_t pos = static_cast<size_t>(it - all_.begin());
  if (dir > 0) {
    // Skip the current match itself.
    if (!from_time && pos < all_.size() && all_[pos] == slice) ++pos;
    return pos < all_.size() ? pos : 0;
  }
  return pos > 0 ? pos - 1 : all_.size() - 1;
}

void SearchState::window_matches(const TimelineIndex& index, uint32_t model_track, int64_t a, int64_t b, double w,
                                 WindowResult& out) const {
  if (!active_ || model_track + 1 >= track_offset_.size()) return;
  const SliceTable& s = index.model().slices;
  const uint32_t* begin = by_track_.data() + track_offset_[model_track];
  const uint32_t* end = by_track_.data() + track_offset_[model_track + 1];
  const uint32_t* p = std::partition_point(begin, end, [&s, a](uint32_t x) { return s.ts_ns[x] < a; });
  // Matches that start before the window and reach into it (a few parents at most).
  const uint32_t* back = p;
  for (int steps = 0; back != begin && steps < 64; ++steps) {
    --back;
    if (s.end_ns(*back) > a) p = back;
  }
  auto emit = [&](uint32_t id) {
    out.match_start_ns.push_back(static_cast<double>(s.ts_ns[id] - index.origin_ns()));
    out.match_dur_ns.push_back(static_cast<double>(s.dur_at(id)));
    out.match_depth.push_back(s.depth[id]);
    out.match_id.push_back(id);
  };
  while (p != end && s.ts_ns[*p] < b) {
    if (s.ts_ns[*p] < a) {  // an early parent: emit it and move on
      if (s.end_ns(*p) > a) emit(*p);
      ++p;
      continue;
    }
    emit(*p);
    double col = std::floor(static_cast<double>(s.ts_ns[*p] - a) / w);
    int64_t boundary = a + static_cast<int64_t>(std::ceil((col + 1) * w));
    if (boundary <= s.ts_ns[*p]) boundary = s.ts_ns[*p] + 1;
    p = std::partition_point(p + 1, end, [&s, boundary](uint32_t x) { return s.ts_ns[x] < boundary; });
  }
}

nlohmann::json search_page(const TimelineIndex& index, const SearchState& search, size_t offset, size_t limit) {
  const TraceModel& m = index.model();
  const SliceTable& s = m.slices;
  nlohmann::json matches = nlohmann::json::array();
  size_t end = std::min(search.count(), offset + std::min<size_t>(limit, 1000));
  for (size_t k = offset; k < end; ++k) {
    uint32_t id = search.match(k);
    matches.push_back({{"id", id},
                       {"name", std::string(m.strings.get(s.name.at(id)))},
                       {"lane", index.lane_of_model_track(s.track_at(id))},
                       {"depth", s.depth[id]},
                       {"startNs", static_cast<double>(s.ts_ns[id] - index.origin_ns())},
                       {"durNs", static_cast<double>(s.dur_at(id))}});
  }
  return {{"count", search.count()}, {"offset", offset}, {"matches", std::move(matches)}};
}

}  // namespace tw
