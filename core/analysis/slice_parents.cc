#include "core/analysis/slice_parents.h"

namespace tw {

std::vector<uint32_t> slice_parents(const TraceModel& m) {
  const SliceTable& s = m.slices;
  std::vector<uint32_t> parent(s.size(), kNoParent);
  struct Open {
    int64_t end;  // kept here so the pops compare without reloading the slice's columns
    uint32_t slice;
  };
  std::vector<Open> open;  // slices still open on the current track, outermost first
  for (const Track& t : m.tracks) {
    open.clear();
    for (uint32_t i = t.slice_begin; i < t.slice_end && i < s.size(); ++i) {
      const int64_t ts = s.ts_ns[i];
      while (!open.empty() && open.back().end <= ts) open.pop_back();
      if (!open.empty()) parent[i] = open.back().slice;
      open.push_back({ts + s.dur_ns[i], i});
    }
  }
  return parent;
}

}  // namespace tw
