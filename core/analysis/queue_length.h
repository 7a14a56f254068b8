// A GPU stream's queue length (HTA TraceCounters): +1 when a runtime call that has a GPU op on the
// stream starts, -1 when that op starts; a step function that changes at every such time. What the
// summary shows of it is a few statistics and a chart of bounded size, so the queue is walked once
// and its changes are kept only when asked (they are two points a launch).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tw {

struct QueuePoint {
  int64_t ts_ns;
  int32_t length;
};

struct StreamQueue {
  int32_t device = -1;
  int64_t stream = -1;
  uint64_t changes = 0;  // change points: one per enqueue and one per dequeue
  int32_t max_length = 0;
  double mean = 0;  // over change points, as HTA's describe()
  double time_weighted_mean = 0;
  int64_t time_at_max_ns = 0;  // time spent at max_length
  // At most the chart size asked (2 at least): per time bucket, the queue's maximum (at the bucket's first
  // change) and, when the queue ended the bucket at another length, that length at its last change
  // (with the maximum alone, a queue that went 0 -> 1 -> 0 within a bucket would stay at 1 until the
  // next bucket, over idle stretches). Drawn as steps.
  std::vector<QueuePoint> chart;
  std::vector<QueuePoint> series;  // every change, in time order (only when asked)
};

// One stream's queue from its enqueue times (launch call starts) and dequeue times (op starts),
// both sorted here (they arrive nearly sorted: a stream runs its work in launch order). Enqueues
// come before dequeues at equal times, so the length never dips below zero.
StreamQueue queue_of(int32_t device, int64_t stream, std::vector<int64_t>& enq, std::vector<int64_t>& deq,
                     size_t chart_points, bool keep_changes);

// HTA's get_time_spent_blocked_on_full_queue over a queue's changes (keep_changes): time during
// which the length is >= limit (each change holds until the next one; the last holds for nothing).
int64_t queue_time_at_least(const StreamQueue& q, int32_t limit);

}  // namespace tw
