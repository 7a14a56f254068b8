#include "core/timeline/instants.h"

#include <algorithm>
#include <cmath>

namespace tw {

namespace {

// Counting sort of `ids` by key (keys < n_keys) into (out, offset); `ids` is in time order already,
// so every bucket comes out in time order.
template <typename Key>
void bucket(const std::vector<uint32_t>& ids, size_t n_keys, Key key, std::vector<uint32_t>& out,
            std::vector<uint32_t>& offset) {
  offset.assign(n_keys + 1, 0);
  for (uint32_t i : ids) ++offset[key(i) + 1];
  for (size_t k = 0; k < n_keys; ++k) offset[k + 1] += offset[k];
  out.assign(ids.size(), 0);
  std::vector<uint32_t> fill(offset.begin(), offset.end() - 1);
  for (uint32_t i : ids) out[fill[key(i)]++] = i;
}

}  // namespace

void InstantIndex::build(const TraceModel& m) {
  const InstantTable& t = m.instants;
  const StringId memory = m.strings.find("[memory]");
  std::vector<uint32_t> thread, process;
  global_.clear();
  std::vector<uint32_t> order;
  order.reserve(t.size());
  for (uint32_t i = 0; i < t.size(); ++i) {
    if (memory && t.name[i] == memory) continue;
    if (t.track[i] >= m.tracks.size()) continue;  // defensive: the importer always sets a track
    order.push_back(i);
  }
  // Files need not list events in time order; ties keep file order.
  std::stable_sort(order.begin(), order.end(), [&t](uint32_t a, uint32_t b) { return t.ts_ns[a] < t.ts_ns[b]; });
  for (uint32_t i : order) {
    switch (t.scope[i]) {
      case InstantScope::kThread: thread.push_back(i); break;
      case InstantScope::kProcess: process.push_back(i); break;
      case InstantScope::kGlobal: global_.push_back(i); break;
    }
  }
  bucket(
      thread, m.tracks.size(), [&t](uint32_t i) { return t.track[i]; }, by_track_, track_offset_);
  bucket(
      process, m.processes.size(), [&](uint32_t i) { return m.tracks[t.track[i]].process; }, by_process_,
      process_offset_);
}

size_t InstantIndex::memory_bytes() const {
  return 4 * (by_track_.capacity() + track_offset_.capacity() + by_process_.capacity() + process_offset_.capacity() +
              global_.capacity());
}

void InstantIndex::decimate(const TraceModel& m, Span s, int64_t origin, int64_t a, int64_t b, double w,
                            std::vector<double>& ts, std::vector<uint32_t>& id, std::vector<uint32_t>& name,
                            std::vector<uint32_t>& count) {
  const InstantTable& t = m.instants;
  auto at = [&](uint32_t k) { return t.ts_ns[s.ids[k]]; };
  // First instant at or after a, then one per pixel column: the next column starts at the first
  // instant at or after the column's end (binary search, so a dense column costs log n).
  uint32_t lo = 0, hi = s.size;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (at(mid) < a) lo = mid + 1;
    else hi = mid;
  }
  uint32_t k = lo;
  while (k < s.size && at(k) < b) {
    double col = std::floor(static_cast<double>(at(k) - a) / w);
    int64_t boundary = a + static_cast<int64_t>(std::ceil((col + 1) * w));
    if (boundary <= at(k)) boundary = at(k) + 1;
    uint32_t j_lo = k + 1, j_hi = s.size;
    while (j_lo < j_hi) {
      uint32_t mid = j_lo + (j_hi - j_lo) / 2;
      if (at(mid) < boundary) j_lo = mid + 1;
      else j_hi = mid;
    }
    ts.push_back(static_cast<double>(at(k) - origin));
    id.push_back(s.ids[k]);
    name.push_back(t.name[s.ids[k]]);
    count.push_back(j_lo - k);
    k = j_lo;
  }
}

}  // namespace tw
