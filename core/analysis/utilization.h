// GPU utilisation over time for charts: per device, the fraction of each time bucket during which
// at least one GPU op (kernel, memcpy, memset) runs. Buckets split [first GPU op start, last GPU op
// end] of the whole trace into at most `max_buckets` equal integer-ns widths (the last may be shorter).
#pragma once
#include <cstdint>
#include <vector>

#include "core/model/trace_model.h"

namespace tw {

struct DeviceUtilization {
  int32_t device = -1;
  int64_t busy_ns = 0;
  std::vector<float> busy;  // fraction per bucket, 0..1
};

struct UtilizationResult {
  int64_t begin_ns = 0;
  int64_t end_ns = 0;
  int64_t bucket_ns = 0;
  size_t buckets = 0;
  std::vector<DeviceUtilization> devices;
  std::vector<float> all;  // any device busy (equals the single device's when there is one)
};

UtilizationResult gpu_utilization(const TraceModel& m, size_t max_buckets = 1000);

}  // namespace tw
