// GPU idle time per device, by cause: the times when no op of the device runs (between its first
// op's start and its last op's end), each stretch put down to the op that ends it, the next op the
// device starts (with the same rules as the per-stream breakdown, idle.h):
//   host wait   the op's launch call started after the device went idle: the CPU had not even
//               begun to enqueue the work that ended the stretch;
//   kernel wait otherwise, when the stretch is shorter than the threshold (launch latency);
//   other       otherwise (the op was enqueued in time but waited: on an event, another device,
//               communication, a host synchronisation...).
// The per-stream breakdown (HTA's) counts a stream's gaps while other streams run, so its sums
// exceed the GPU's idle time (a stream that runs a few ops is "idle" for the whole trace). This
// one adds up to the device's idle time exactly, which is what "the GPU is idle, because..." needs.
#pragma once
#include <cstdint>
#include <vector>

#include "core/analysis/idle.h"
#include "core/model/trace_model.h"

namespace tw {

struct DeviceIdle {
  int32_t device = -1;
  uint64_t ops = 0;
  int64_t first_ns = 0;  // first op start
  int64_t last_ns = 0;   // last op end
  int64_t busy_ns = 0;   // union of its ops
  int64_t idle_ns = 0;   // last - first - busy = sum over categories
  int64_t time_ns[kIdleCategoryCount] = {0, 0, 0};
  uint64_t count[kIdleCategoryCount] = {0, 0, 0};
  std::vector<IdleGap> longest;  // longest stretches first
};

// `order` is idle_order() (its rows and launch calls; keep and hta_compat as chosen there), the
// threshold and the number of stretches kept per device as in IdleOptions. By device.
std::vector<DeviceIdle> device_idle(const TraceModel& m, const IdleOrder& order, const IdleOptions& opt);

}  // namespace tw
