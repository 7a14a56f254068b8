#include "core/analysis/memory.h"

#include <algorithm>
#include <numeric>

namespace tw {

std::vector<uint32_t> memory_order(const TraceModel& m) {
  const MemoryTable& t = m.memory;
  std::vector<uint32_t> order(t.size());
  std::iota(order.begin(), order.end(), 0);
  // File order breaks ties: the allocator's state after the last event at a time is the one that holds.
  std::stable_sort(order.begin(), order.end(), [&t](uint32_t a, uint32_t b) {
    if (t.device[a] != t.device[b]) return t.device[a] < t.device[b];
    return t.ts_ns[a] < t.ts_ns[b];
  });
  return order;
}

MemoryResult memory_usage(const TraceModel& m, size_t max_points, const Interval* window,
                          const std::vector<uint32_t>* shared_order) {
  MemoryResult r;
  const MemoryTable& t = m.memory;
  if (t.size() == 0) return r;
  std::vector<uint32_t> own;
  if (!shared_order || shared_order->size() != t.size()) {
    own = memory_order(m);
    shared_order = &own;
  }
  const std::vector<uint32_t>& order = *shared_order;
  if (max_points == 0) max_points = 1;
  size_t i = 0;
  while (i < order.size()) {
    DeviceMemory d;
    d.device = t.device[order[i]];
    size_t begin = i;
    while (i < order.size() && t.device[order[i]] == d.device) ++i;
    size_t end = i;
    bool have = false;  // a state holds (a sample seen, or carried into the window)
    auto take = [&](int64_t ts, int64_t a, int64_t res) {
      if (!have || a > d.peak_allocated) d.peak_allocated = a, d.peak_allocated_ts_ns = ts;
      if (!have || res > d.peak_reserved) d.peak_reserved = res, d.peak_reserved_ts_ns = ts;
      d.final_allocated = a;
      d.final_reserved = res;
      have = true;
    };
    if (window) {
      size_t k = begin;
      while (k < end && t.ts_ns[order[k]] < window->begin) ++k;
      if (k > begin) take(window->begin, t.total_allocated[order[k - 1]], t.total_reserved[order[k - 1]]);
      begin = k;
      while (k < end && t.ts_ns[order[k]] < window->end) ++k;
      end = k;
    }
    d.samples = end - begin;
    if (end > begin) {
      int64_t t0 = t.ts_ns[order[begin]], t1 = t.ts_ns[order[end - 1]];
      int64_t bucket_ns = std::max<int64_t>(1, (t1 - t0) / static_cast<int64_t>(max_points) + 1);
      int64_t current_bucket = -1;
      for (size_t k = begin; k < end; ++k) {
        uint32_t e = order[k];
        int64_t ts = t.ts_ns[e], a = t.total_allocated[e], res = t.total_reserved[e];
        take(ts, a, res);
        int64_t b = (ts - t0) / bucket_ns;
        if (b != current_bucket) {
          d.series.push_back({ts, a, res});
          current_bucket = b;
        } else {
          d.series.back().allocated = std::max(d.series.back().allocated, a);
          d.series.back().reserved = std::max(d.series.back().reserved, res);
        }
      }
    }
    if (!have) continue;
    for (const DeviceInfo& info : m.meta.devices)
      if (info.id == d.device && info.total_global_mem > 0) d.total_global_mem = info.total_global_mem;
    if (d.total_global_mem > 0) {
      d.peak_allocated_share = static_cast<double>(d.peak_allocated) / static_cast<double>(d.total_global_mem);
      d.peak_reserved_share = static_cast<double>(d.peak_reserved) / static_cast<double>(d.total_global_mem);
    }
    r.devices.push_back(std::move(d));
  }
  return r;
}

}  // namespace tw
