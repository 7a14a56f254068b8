// Allocator memory over time per device, from Kineto's "[memory]" instants (profile_memory=True):
// each sample holds the allocator's totals after one allocation or free. Peak allocated / reserved,
// their share of the device's totalGlobalMem (deviceProperties), and a chart series of at most
// `max_points` buckets (the maximum of each bucket, so peaks survive downsampling).
#pragma once
#include <cstdint>
#include <vector>

#include "core/analysis/intervals.h"
#include "core/model/trace_model.h"

namespace tw {

struct MemoryPoint {
  int64_t ts_ns;
  int64_t allocated;
  int64_t reserved;
};

struct DeviceMemory {
  int32_t device = -1;  // -1 = CPU
  uint64_t samples = 0;
  int64_t peak_allocated = 0;
  int64_t peak_allocated_ts_ns = 0;
  int64_t peak_reserved = 0;
  int64_t peak_reserved_ts_ns = 0;
  int64_t final_allocated = 0;
  int64_t final_reserved = 0;
  int64_t total_global_mem = 0;     // 0 when deviceProperties does not list the device
  double peak_allocated_share = 0;  // of total_global_mem (0 when unknown)
  double peak_reserved_share = 0;
  std::vector<MemoryPoint> series;  // bucket maxima, time order
};

struct MemoryResult {
  std::vector<DeviceMemory> devices;  // by device id
};

// `window` (optional, e.g. one profiler step): only the state during [begin, end) counts. The
// allocator state left by the last sample before `begin` holds at `begin` (a peak there is dated
// `begin`); `samples` counts the samples inside; devices with no sample before `end` are left out.
MemoryResult memory_usage(const TraceModel& m, size_t max_points = 1000, const Interval* window = nullptr,
                          const std::vector<uint32_t>* order = nullptr);
// The memory samples in (device, time, file) order: what memory_usage sorts first; callers with one
// call per step compute it once and pass it.
std::vector<uint32_t> memory_order(const TraceModel& m);

}  // namespace tw
