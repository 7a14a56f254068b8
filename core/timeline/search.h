// Search by name. name_match.h decides which names match (substring or a linear-time regex, in the
// core: the string table never leaves the wasm heap); SearchState collects the matching slices once,
// so next / previous and highlighting are binary searches, and the page fetches matches in pages.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "core/timeline/timeline_index.h"

namespace tw {

struct WindowResult;

class SearchState {
 public:
  // `name_ids`: the matching StringIds (out-of-range ids are ignored).
  void run(const TimelineIndex& index, const std::vector<uint32_t>& name_ids);
  void clear();
  bool active() const { return active_; }
  size_t count() const { return all_.size(); }
  bool name_matches(StringId id) const { return id < names_.size() && names_[id]; }
  // The k-th match in time order (slice id).
  uint32_t match(size_t k) const { return all_[k]; }
  // Position in time order of the first match after (ts_abs_ns, slice) when dir > 0, of the last
  // one before it when dir < 0, wrapping around; the first / last match when slice == UINT32_MAX
  // and nothing is at or beyond ts. SIZE_MAX when there are no matches.
  size_t step(const TimelineIndex& index, int64_t ts_abs_ns, uint32_t slice, int dir) const;
  // Appends the matches of one model track inside [a, b), one per pixel column of width w.
  void window_matches(const TimelineIndex& index, uint32_t model_track, int64_t a, int64_t b, double w,
                      WindowResult& out) const;

 private:
  bool active_ = false;
  std::vector<uint8_t> names_;
  std::vector<uint32_t> all_;           // matching slice ids by (ts, id)
  std::vector<uint32_t> by_track_;      // matching slice ids by (track, ts): slice table order
  std::vector<uint32_t> track_offset_;  // per model track: begin in by_track_ (size tracks + 1)
};

// Matches [offset, offset + limit) in time order (limit capped at 1000):
// {"count", "offset", "matches": [{"id", "name", "lane", "depth", "startNs", "durNs"}, ...]}.
nlohmann::json search_page(const TimelineIndex& index, const SearchState& search, size_t offset, size_t limit);

}  // namespace tw
