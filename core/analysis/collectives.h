// Collectives: the communication-class GPU ops grouped by collective type. The type comes from
// Kineto's "Collective name" arg when present, else from the kernel name (ncclDevKernel_AllGather_*,
// DeepEP dispatch / combine, ...). Message size = max(In, Out msg nelems) x dtype size, which is
// the size NCCL's perf tests use for every collective (allgather: the gathered output;
// reducescatter: the input). Bandwidths follow NCCL's PERFORMANCE.md:
//   algbw = size / time;  busbw = algbw x factor(n ranks):
//   allreduce 2(n-1)/n; allgather, reducescatter, alltoall (n-1)/n; broadcast, reduce, send/recv 1.
// Exposed time = the part of each op not overlapped by any computation op (on any stream).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/analysis/intervals.h"
#include "core/analysis/kernel_classes.h"
#include "core/model/trace_model.h"

namespace tw {

struct CollectiveStat {
  std::string type;  // "allreduce", "allgather", "reducescatter", "alltoall", "broadcast", ...
  uint64_t count = 0;
  int64_t total_ns = 0;
  double mean_ns = 0;
  int64_t exposed_ns = 0;
  uint64_t sized = 0;      // ops whose message size is known
  int64_t bytes = 0;       // total message bytes of those ops
  int64_t sized_ns = 0;    // their total time
  int32_t group_size = 0;  // largest seen (0 = unknown)
  double algbw_gbps = 0;   // bytes / sized_ns (GB/s == bytes/ns)
  double busbw_gbps = 0;
};

struct CollectivesResult {
  uint64_t count = 0;
  int64_t total_ns = 0;                 // summed durations
  int64_t union_ns = 0;                 // time any communication op runs
  int64_t exposed_ns = 0;               // union not under computation
  std::vector<CollectiveStat> by_type;  // by total_ns
  std::vector<Interval> worst_exposed;  // longest exposed stretches, longest first (at most 5)
};

// The unions of the selected computation and communication ops (exposed time is measured against
// the first). Built once and shared by the whole-trace and the per-window statistics.
struct CommComputeSets {
  IntervalSet computation;
  IntervalSet communication;
};
CommComputeSets comm_compute_sets(const TraceModel& m, const std::vector<KernelClass>& classes,
                                  const std::vector<uint8_t>* keep = nullptr);

CollectivesResult collective_stats(const TraceModel& m, const std::vector<KernelClass>& classes,
                                   const std::vector<uint8_t>* keep = nullptr);

// With the sets given, and optionally one window [begin, end) (a profiler step): then only the ops
// that START in it count, each whole (its exposed time, measured against all computation, equals its
// whole-trace value), and union_ns / exposed_ns / worst_exposed are clipped to the window. A window
// costs one pass over the ops plus what lies inside it.
CollectivesResult collective_stats(const TraceModel& m, const std::vector<KernelClass>& classes,
                                   const std::vector<uint8_t>* keep, const CommComputeSets& sets,
                                   const Interval* window = nullptr);

// Exposed for tests.
int dtype_size_bytes(std::string_view dtype);  // 0 when unknown
std::string collective_type(std::string_view collective_arg, std::string_view kernel_name);
double bus_factor(std::string_view type, int32_t ranks);

}  // namespace tw
