#include "core/analysis/gpu_rows.h"

#include <algorithm>

namespace tw {

std::vector<std::pair<uint32_t, uint32_t>> gpu_rows_starting_in(const TraceModel& m, const Interval* window) {
  const std::vector<uint32_t>& slice = m.gpu_ops.slice;
  const uint32_t n = static_cast<uint32_t>(slice.size());
  if (!window) return {{0u, n}};
  std::vector<std::pair<uint32_t, uint32_t>> out;
  const std::vector<int64_t>& ts = m.slices.ts_ns;
  for (const Track& t : m.tracks) {
    if (t.slice_begin >= t.slice_end) continue;
    // This track's rows, then the part of them that starts inside the window.
    auto first = std::lower_bound(slice.begin(), slice.end(), t.slice_begin);
    auto last = std::lower_bound(first, slice.end(), t.slice_end);
    auto b = std::lower_bound(first, last, window->begin, [&ts](uint32_t s, int64_t x) { return ts[s] < x; });
    auto e = std::lower_bound(b, last, window->end, [&ts](uint32_t s, int64_t x) { return ts[s] < x; });
    if (b != e) out.emplace_back(static_cast<uint32_t>(b - slice.begin()), static_cast<uint32_t>(e - slice.begin()));
  }
  // Tracks are stored in slice order, but sort anyway: callers rely on ascending rows.
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::pair<uint32_t, uint32_t>> slice_rows_starting_in(const TraceModel& m, const Interval* window) {
  if (!window) return {{0u, static_cast<uint32_t>(m.slices.size())}};
  std::vector<std::pair<uint32_t, uint32_t>> out;
  const std::vector<int64_t>& ts = m.slices.ts_ns;
  for (const Track& t : m.tracks) {
    if (t.slice_begin >= t.slice_end || t.slice_end > ts.size()) continue;
    auto b = std::lower_bound(ts.begin() + t.slice_begin, ts.begin() + t.slice_end, window->begin);
    auto e = std::lower_bound(b, ts.begin() + t.slice_end, window->end);
    if (b != e) out.emplace_back(static_cast<uint32_t>(b - ts.begin()), static_cast<uint32_t>(e - ts.begin()));
  }
  std::sort(out.begin(), out.end());  // as for gpu rows: ascending whatever the track order
  return out;
}

}  // namespace tw
