#include "core/analysis/utilization.h"

#include <algorithm>
#include <map>

#include "core/analysis/intervals.h"

namespace tw {

namespace {

// Adds the busy time of `set` into per-bucket fractions (each interval touches only its buckets).
std::vector<float> bucketize(const IntervalSet& set, int64_t begin, int64_t end, int64_t width, size_t n) {
  std::vector<int64_t> busy(n, 0);
  for (const Interval& iv : set.intervals()) {
    int64_t a = std::max(iv.begin, begin), b = std::min(iv.end, end);
    while (a < b) {
      size_t k = static_cast<size_t>((a - begin) / width);
      if (k >= n) break;
      int64_t bucket_end = std::min(end, begin + static_cast<int64_t>(k + 1) * width);
      int64_t e = std::min(b, bucket_end);
      busy[k] += e - a;
      a = e;
    }
  }
  std::vector<float> out(n, 0.f);
  for (size_t k = 0; k < n; ++k) {
    int64_t w = std::min(end, begin + static_cast<int64_t>(k + 1) * width) - (begin + static_cast<int64_t>(k) * width);
    out[k] = w > 0 ? static_cast<float>(static_cast<double>(busy[k]) / static_cast<double>(w)) : 0.f;
  }
  return out;
}

}  // namespace

UtilizationResult gpu_utilization(const TraceModel& m, size_t max_buckets) {
  UtilizationResult r;
  const SliceTable& s = m.slices;
  const GpuOpTable& g = m.gpu_ops;
  if (g.size() == 0) return r;
  // United as they come (intervals.h): the ops are in few ascending runs (one per stream).
  std::map<int32_t, size_t> ops_of;
  for (uint32_t i = 0; i < g.size(); ++i) ++ops_of[g.device_at(i)];
  std::map<int32_t, IntervalUnion> per_device;  // each in room for its device's ops
  for (const auto& [dev, n] : ops_of) per_device.emplace(dev, IntervalUnion(n));
  r.begin_ns = INT64_MAX;
  r.end_ns = INT64_MIN;
  for (uint32_t i = 0; i < g.size(); ++i) {
    uint32_t sl = g.slice[i];
    Interval iv{s.ts_ns[sl], s.end_ns(sl)};
    r.begin_ns = std::min(r.begin_ns, iv.begin);
    r.end_ns = std::max(r.end_ns, iv.end);
    per_device[g.device_at(i)].add(iv);
  }
  if (max_buckets == 0) max_buckets = 1;
  int64_t span = r.end_ns - r.begin_ns;
  r.bucket_ns =
      std::max<int64_t>(1, (span + static_cast<int64_t>(max_buckets) - 1) / static_cast<int64_t>(max_buckets));
  r.buckets = span > 0 ? static_cast<size_t>((span + r.bucket_ns - 1) / r.bucket_ns) : 0;
  IntervalUnion all;  // of the devices' unions, when there are several
  for (auto& [dev, ivs] : per_device) {
    DeviceUtilization d;
    d.device = dev;
    IntervalSet set = ivs.take();
    if (per_device.size() > 1)
      for (const Interval& iv : set.intervals()) all.add(iv);
    d.busy_ns = set.total();
    d.busy = bucketize(set, r.begin_ns, r.end_ns, r.bucket_ns, r.buckets);
    r.devices.push_back(std::move(d));
  }
  r.all =
      r.devices.size() == 1 ? r.devices[0].busy : bucketize(all.take(), r.begin_ns, r.end_ns, r.bucket_ns, r.buckets);
  return r;
}

}  // namespace tw
