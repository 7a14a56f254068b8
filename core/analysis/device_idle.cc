#include "core/analysis/device_idle.h"

#include <algorithm>

#include "core/analysis/gpu_op_launch.h"
#include "core/base/run_sort.h"

namespace tw {

namespace {

bool longer(const IdleGap& a, const IdleGap& b) {
  return a.length_ns() != b.length_ns() ? a.length_ns() > b.length_ns() : a.begin_ns < b.begin_ns;
}

// One device's ops, all streams, in start order (`rows` of it are in (stream, start) order).
DeviceIdle walk_device(const TraceModel& m, std::vector<uint32_t>& rows, const std::vector<uint32_t>& launch,
                       const IdleOptions& opt) {
  const SliceTable& s = m.slices;
  const GpuOpTable& g = m.gpu_ops;
  sort_runs(rows, [&](uint32_t a, uint32_t b) {
    int64_t ta = s.ts_ns[g.slice[a]], tb = s.ts_ns[g.slice[b]];
    return ta != tb ? ta < tb : a < b;
  });
  DeviceIdle d;
  d.device = g.device_at(rows.front());
  int64_t covered = 0;  // the latest end so far
  for (uint32_t row : rows) {
    const uint32_t slice = g.slice[row];
    const int64_t ts = s.ts_ns[slice], end = s.end_ns(slice);
    if (d.ops++ == 0) {
      d.first_ns = ts;
      covered = end;
      d.busy_ns = end - ts;
      continue;
    }
    if (ts > covered) {
      const uint32_t l = launch[row];
      const std::optional<int64_t> launched = l != kNoLaunch ? std::optional<int64_t>(s.ts_ns[l]) : std::nullopt;
      const IdleGap gap{covered, ts, categorize_gap(covered, ts, launched, opt.kernel_wait_threshold_ns), slice};
      const int c = static_cast<int>(gap.category);
      d.time_ns[c] += gap.length_ns();
      d.count[c]++;
      d.longest.push_back(gap);
      if (d.longest.size() > 4 * opt.longest_gaps + 64) {  // keep memory O(longest_gaps)
        std::nth_element(d.longest.begin(), d.longest.begin() + opt.longest_gaps, d.longest.end(), longer);
        d.longest.resize(opt.longest_gaps);
      }
    }
    if (end > covered) {
      d.busy_ns += end - std::max(ts, covered);
      covered = end;
    }
  }
  d.last_ns = covered;
  d.idle_ns = d.time_ns[0] + d.time_ns[1] + d.time_ns[2];
  std::sort(d.longest.begin(), d.longest.end(), longer);
  if (d.longest.size() > opt.longest_gaps) d.longest.resize(opt.longest_gaps);
  return d;
}

}  // namespace

std::vector<DeviceIdle> device_idle(const TraceModel& m, const IdleOrder& order, const IdleOptions& opt) {
  std::vector<DeviceIdle> out;
  const GpuOpTable& g = m.gpu_ops;
  std::vector<uint32_t> rows;
  for (size_t i = 0; i < order.rows.size();) {
    const int32_t device = g.device_at(order.rows[i]);
    rows.clear();
    for (; i < order.rows.size() && g.device_at(order.rows[i]) == device; ++i) rows.push_back(order.rows[i]);
    out.push_back(walk_device(m, rows, order.launch, opt));
  }
  return out;
}

}  // namespace tw
