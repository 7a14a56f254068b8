#include "core/analysis/slice_parents.h"

namespace tw {

std::vector<uint32_t> slice_parents(const TraceModel& m) {
  const SliceTable& s = m.slices;
  std::vector<uint32_t> parent(s.size(), kNoParent);
  std::vector<uint32_t> open;  // slices still open on the current track, outermost first
  for (const Track& t : m.tracks) {
    open.clear();
    for (uint32_t i = t.slice_begin; i < t.slice_end && i < s.size(); ++i) {
      while (!open.empty() && s.end_ns(open.back()) <= s.ts_ns[i]) open.pop_back();
      if (!open.empty()) parent[i] = open.back();
      open.push_back(i);
    }
  }
  return parent;
}

}  // namespace tw
