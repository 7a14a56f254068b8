// The level-of-detail window query: for a set of lanes, a time window and a pixel width, at most
// about one item per pixel column per row. Slices wider than a pixel are returned as they are;
// consecutive narrower slices that start in the same pixel column are merged into one item that
// spans them, represented by the longest of them (its name, class and id). Cost per row is
// O(columns * (log n + MaxIndex::kFanout * levels)), independent of the number of slices inside.
// Counter and memory lanes return per-column min / max / last samples (uPlot-style decimation).
// Times are float64 ns relative to the trace origin (exact below 2^53 ns, 104 days).
#pragma once
#include <cstdint>
#include <vector>

#include "core/timeline/search.h"
#include "core/timeline/timeline_index.h"

namespace tw {

struct WindowQuery {
  std::vector<uint32_t> lanes;  // timeline track ids
  double t0_ns = 0;             // relative to the origin
  double t1_ns = 0;
  uint32_t px = 1000;                   // pixel columns across [t0, t1)
  const SearchState* search = nullptr;  // when set, matches in the window are returned too
};

enum : uint8_t { kItemMerged = 1, kItemMatch = 2 };

struct WindowResult {
  // Items of slice and overlap lanes; lane i owns [item_offset[i], item_offset[i+1]).
  std::vector<uint32_t> item_offset;
  std::vector<double> start_ns, dur_ns;
  std::vector<uint16_t> depth;
  std::vector<uint32_t> name;   // StringId of the representative (0 in overlap lanes)
  std::vector<uint8_t> cls;     // SliceClass
  std::vector<uint32_t> id;     // slice id of the representative (UINT32_MAX in overlap lanes)
  std::vector<uint32_t> count;  // slices merged into the item
  std::vector<uint8_t> flags;   // kItemMerged | kItemMatch
  // Samples of counter and memory lanes; lane i owns [point_offset[i], point_offset[i+1]).
  std::vector<uint32_t> point_offset;
  std::vector<double> point_ns, point_min, point_max, point_last;
  // Search matches (one per pixel column per lane), lane i owns [match_offset[i], match_offset[i+1]).
  std::vector<uint32_t> match_offset;
  std::vector<double> match_start_ns, match_dur_ns;
  std::vector<uint16_t> match_depth;
  std::vector<uint32_t> match_id;
  // Thread-scope instants of slice lanes (one per pixel column per lane; the first instant of the
  // column represents `instant_count` of them), lane i owns [instant_offset[i], instant_offset[i+1]).
  std::vector<uint32_t> instant_offset;
  std::vector<double> instant_ns;
  std::vector<uint32_t> instant_id, instant_name, instant_count;  // model.instants row, StringId
  // Process-scope instants of the groups of the queried lanes (mark_group = group index) and global
  // ones (mark_group = UINT32_MAX, also process ones whose process has no lanes), one per column each.
  std::vector<uint32_t> mark_group;
  std::vector<double> mark_ns;
  std::vector<uint32_t> mark_id, mark_name, mark_count;
  // Slice-table reads the query made: a complexity witness for tests (not a time).
  uint64_t probes = 0;
  void clear();
  size_t items() const { return start_ns.size(); }
};

void query_window(const TimelineIndex& index, const WindowQuery& q, WindowResult& out);

// Converts a relative float64 time to absolute ns, saturating (NaN -> origin).
int64_t to_abs_ns(const TimelineIndex& index, double rel_ns);

}  // namespace tw
