// Overlap analyses: how much communication runs under computation (HTA's comm/comp overlap:
// |comm ∩ compute| / |comm|), and how much any two GPU streams run at the same time (for example
// DeepSeek's two micro-batch streams, or a communication stream against the compute stream).
#pragma once
#include <cstdint>
#include <vector>

#include "core/analysis/kernel_classes.h"
#include "core/analysis/temporal.h"
#include "core/model/trace_model.h"

namespace tw {

struct CommOverlap {
  int64_t communication_ns = 0;  // |union of communication|
  int64_t overlapped_ns = 0;     // |communication ∩ computation|
  bool has_communication() const { return communication_ns > 0; }
  double pct() const { return communication_ns > 0 ? 100.0 * double(overlapped_ns) / double(communication_ns) : 0.0; }
};

CommOverlap comm_compute_overlap(const GpuActivity& a);
// Restricted to [begin, end) (one profiler step).
CommOverlap comm_compute_overlap_in(const GpuActivity& a, int64_t begin_ns, int64_t end_ns);

// One GPU stream's busy time (a track of kind kGpuStream with GPU ops).
struct StreamActivity {
  uint32_t track = 0;
  int32_t device = -1;
  int64_t stream = -1;
  size_t ops = 0;
  int64_t busy_ns = 0;
  int64_t class_ns[kKernelClassCount] = {};            // sum of the class's union on this stream
  KernelClass main_class = KernelClass::kComputation;  // the class with the most busy time
};

struct StreamPairOverlap {
  size_t a = 0, b = 0;     // indices into the stream list
  int64_t overlap_ns = 0;  // time both streams are busy
};

struct StreamOverlapResult {
  std::vector<StreamActivity> streams;   // sorted by busy time, longest first
  std::vector<StreamPairOverlap> pairs;  // pairs with overlap > 0, largest first
  bool truncated = false;                // more than max_streams streams: only the busiest compared
};

// Streams are compared pairwise among the `max_streams` busiest (a sweep over all of them would be
// quadratic in streams, and traces have at most a few dozen).
StreamOverlapResult stream_overlaps(const TraceModel& m, const std::vector<KernelClass>& cls,
                                    const std::vector<uint8_t>* kept = nullptr, size_t max_streams = 32);

}  // namespace tw
