#include "core/analysis/gpu_rows.h"

#include <algorithm>

namespace tw {

std::vector<std::pair<uint32_t, uint32_t>> gpu_rows_starting_in(const TraceModel& m, const Interval* window) {
  const std::vector<uint32_t>& slice = m.gpu_ops.slice;
  const uint32_t n = static_cast<uint32_t>(slice.size());
  if (!window) return {{0u, n}};
  std::vector<std::pair<uint32_t, uint32_t>> out;
  const TimeColumn& ts = m.slices.ts_ns;
  for (size_t t = 0; t < m.tracks.size(); ++t) {
    const SliceTable::Rows rows = m.slices.rows_of(t);
    if (rows.empty()) continue;
    // This track's rows, then the part of them that starts inside the window.
    auto first = std::lower_bound(slice.begin(), slice.end(), rows.begin);
    auto last = std::lower_bound(first, slice.end(), rows.end);
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
  const TimeColumn& ts = m.slices.ts_ns;
  for (size_t t = 0; t < m.tracks.size(); ++t) {
    const SliceTable::Rows rows = m.slices.rows_of(t);
    if (rows.empty()) continue;
    auto b = std::lower_bound(ts.begin() + rows.begin, ts.begin() + rows.end, window->begin);
    auto e = std::lower_bound(b, ts.begin() + rows.end, window->end);
    if (b != e) out.emplace_back(static_cast<uint32_t>(b - ts.begin()), static_cast<uint32_t>(e - ts.begin()));
  }
  std::sort(out.begin(), out.end());  // as for gpu rows: ascending whatever the track order
  return out;
}

}  // namespace tw
