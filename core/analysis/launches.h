// Kernel launches: how long the CPU takes to enqueue GPU work and how long the work waits.
//  - launch delay: GPU op start minus the END of its runtime call (HTA's definition of the term);
//    negative when the op started before the call returned (reported as 0 delay, and counted).
//  - short ops: GPU time below the CPU time of their own launch call (HTA's "short kernels"
//    chart: the launch costs more than the work).
//  - launch-bound verdict: most launched ops are short AND the CPU spends at least as long in
//    launch calls as the GPU spends running what they launched.
//  - queue length per stream (HTA TraceCounters, queue_length.h).
//  - host synchronisations: runtime calls that block the CPU until the GPU catches up
//    (device/stream/event synchronize, blocking cudaMemcpy / hipMemcpy), with their blocked time and
//    the operators they were called from.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "core/analysis/intervals.h"
#include "core/analysis/queue_length.h"
#include "core/model/trace_model.h"

namespace tw {

struct LaunchOptions {
  int64_t runtime_outlier_ns = 50000;  // HTA runtime_cutoff (50 us)
  int64_t delay_outlier_ns = 100000;   // HTA launch_delay_cutoff (100 us)
  size_t top = 10;
  // Restricts to one window [begin, end) (a profiler step): the launches and host syncs whose
  // runtime call STARTS in it, each counted whole. Null = the whole trace.
  const Interval* window = nullptr;
  bool queues = true;                // queue length per stream (whole-trace charts; per step they are not needed)
  size_t queue_chart_points = 1000;  // each queue's chart, at most
  bool queue_changes = false;        // also keep each queue's every change (StreamQueue::series)
  // launch_order(m), when several windows are asked: a window then visits only its own launches.
  const std::vector<uint32_t>* launch_order = nullptr;
};

// Indices into model.launches sorted by launch slice (slices are sorted by track, then start, so a
// window's launch calls are a few runs of this order).
std::vector<uint32_t> launch_order(const TraceModel& m);

// One launch: its runtime call and GPU op. What is measured of it is read from their slices (the
// analysis walks model.launches in place and keeps records only of the worst delays).
struct LaunchRecord {
  uint32_t launch_slice = 0;
  uint32_t gpu_slice = 0;
  int64_t cpu_ns(const SliceTable& s) const { return s.dur_at(launch_slice); }  // runtime call duration
  int64_t gpu_ns(const SliceTable& s) const { return s.dur_at(gpu_slice); }     // GPU op duration
  // From the call's end to the op's start; raw: may be negative.
  int64_t delay_ns(const SliceTable& s) const { return s.ts_ns[gpu_slice] - s.end_ns(launch_slice); }
  int64_t clipped_delay_ns(const SliceTable& s) const { return std::max<int64_t>(delay_ns(s), 0); }
  bool operator==(const LaunchRecord&) const = default;
};

struct Distribution {
  uint64_t count = 0;
  int64_t min_ns = 0, p50_ns = 0, p90_ns = 0, p99_ns = 0, max_ns = 0;
  double mean_ns = 0;
};

struct SyncSite {
  StringId name = 0;  // innermost operator (or other enclosing slice) of the call; 0 = none
  uint64_t count = 0;
  int64_t blocked_ns = 0;
};

// One host-sync call.
struct SyncCall {
  int64_t start_ns = 0;
  int64_t dur_ns = 0;
  uint32_t slice = 0;
  StringId site = 0;  // as SyncSite::name
};

struct SyncKindStat {
  std::string kind;  // "device_synchronize", "stream_synchronize", "event_synchronize", "blocking_memcpy"
  uint64_t count = 0;
  int64_t blocked_ns = 0;
};

struct LaunchesResult {
  uint64_t count = 0;  // launch links visited
  Distribution delay;  // of clipped delays
  uint64_t negative_delays = 0;
  uint64_t delay_outliers = 0;             // delay > delay_outlier_ns
  uint64_t runtime_outliers = 0;           // cpu_ns > runtime_outlier_ns
  std::vector<LaunchRecord> worst_delays;  // at most `top`, longest delay first (then in model.launches order)
  Distribution cpu;                        // launch call durations
  uint64_t short_ops = 0;
  int64_t short_ops_gpu_ns = 0;
  std::vector<std::pair<StringId, uint64_t>> short_op_names;  // most frequent first
  int64_t launch_cpu_ns = 0;                                  // all launch calls
  int64_t launched_gpu_ns = 0;                                // all launched ops
  bool launch_bound = false;
  std::vector<StreamQueue> queues;
  std::vector<SyncKindStat> syncs;
  uint64_t sync_count = 0;
  int64_t sync_blocked_ns = 0;
  std::vector<SyncSite> sync_sites;     // most blocked first
  std::vector<uint32_t> longest_syncs;  // sync call slices, longest first (at most `top`)
  std::vector<SyncCall> sync_calls;     // every sync call, by start (recommendations count those in the steps)
};

// Host-sync call sites walk the model's slice parents (set by finish()).
LaunchesResult launch_stats(const TraceModel& m, const LaunchOptions& opt = {});

// The call sites of `calls`, most blocked first (then by name), at most `top` (launch_stats's
// sync_sites; the host_syncs recommendation's for the syncs inside the steps).
std::vector<SyncSite> sync_sites_of(const std::vector<SyncCall>& calls, size_t top);
// The `top` longest of `calls`, longest first (then by slice).
std::vector<SyncCall> longest_syncs_of(std::vector<SyncCall> calls, size_t top);

// Returns -1 when the name is not a host sync, else an index into the kind names above.
int host_sync_kind(std::string_view runtime_call_name);

}  // namespace tw
