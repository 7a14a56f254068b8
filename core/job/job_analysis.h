// The job analysis (core/job/README.md): a pure function over the ranks' records.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/job/rank_record.h"

namespace tw {

// One rank of the job, in rank order (files without a rank after the ranked ones, as opened).
struct JobRank {
  size_t record = 0;  // index into the records
  std::string label;  // "rank 3", or the file's name when it has no rank
  // Clock: this rank's timestamps minus clock_offset_ns are on the reference rank's clock.
  int64_t clock_offset_ns = 0;
  int64_t clock_residual_ns = -1;  // median |aligned end - the instance's end| over its collectives, -1 unknown
  bool aligned = false;            // the offset was estimated (else 0: timestamps as written)
  // Over the matched collectives it took part in:
  uint64_t collectives = 0;
  uint64_t last_arrivals = 0;  // times it arrived last (by more than kJobTieNs)
  int64_t late_ns = 0;         // summed arrival after the first rank's
  int64_t wait_ns = 0;         // summed wait for the last rank (capped at its own op's duration)
  int64_t transfer_ns = 0;     // summed transfer time after the last arrival
  int64_t step_ns = -1;        // mean profiler step, -1 without steps
};

// The n-th collective of a process group, across ranks.
struct CollectiveInstance {
  std::string group, op;
  int64_t step = kNoStep;
  int64_t n = 0;  // its Seq when matched by sequence number, else its ordinal among the group's op in the step
  bool by_seq = false;
  std::vector<uint32_t> ranks;  // JobRank indices that ran it, ascending
  std::vector<uint32_t> calls;  // the call in each rank's record
  enum Status : uint8_t { kMatched, kMismatched, kPartial } status = kMatched;
  std::string problem;  // for kMismatched: what disagrees or is missing
  int64_t bytes = -1;
  int32_t group_size = 0;  // as written, else the ranks that ran it
  // On the reference clock (matched instances only):
  int64_t first_arrival_ns = 0, last_arrival_ns = 0, end_ns = 0;
  uint32_t last_rank = 0;
  int64_t skew_ns = 0, transfer_ns = 0;
};

struct OpGroupStat {
  std::string group, op;
  uint64_t count = 0;
  int32_t group_size = 0;
  int64_t bytes = 0;   // summed over the instances whose size is known
  uint64_t sized = 0;  // those instances
  int64_t sized_transfer_ns = 0;
  int64_t transfer_ns = 0, skew_ns = 0, max_skew_ns = 0;
  double algbw_gbps = 0, busbw_gbps = 0;  // from the transfer time (GB/s == bytes/ns)
};

struct StepLateness {
  int64_t number = 0;
  int64_t late_ns = 0;
};

struct Straggler {
  uint32_t rank = 0;              // JobRank index
  std::string metric;             // "arrival_late_ns", "step_compute_ns", "step_host_ns", ..., "group_busbw_mbps"
  int64_t value = 0, median = 0;  // in the metric's unit (its suffix)
  std::string cause;   // "gpu_compute", "host", "data_loader", "memory_copy", "unrecorded", "slow_link", "unknown"
  std::string reason;  // one sentence with the evidence
  std::vector<StepLateness> steps;  // the steps where it arrived latest (most first, at most 5)
};

// Robust margin: a value is far above the job when it exceeds median + k x 1.4826 x MAD (the
// scaled MAD estimates one standard deviation) and lies above the median by a floor.
constexpr double kStragglerK = 3.0;
// Arrivals closer than this are a tie: nobody is last.
constexpr int64_t kJobTieNs = 1000;
// Mean lateness below this is noise.
constexpr int64_t kLateFloorNs = 5000;
// A step part must exceed the median by this share of the median step (and by 10 us).
constexpr double kStepMarginShare = 0.05;
// Ranks leave one collective within microseconds: ends scattered wider mean the clock does not hold.
constexpr int64_t kClockResidualNoteNs = 100000;
// Sized calls a process group needs before its bandwidth is compared with the others'.
constexpr uint64_t kSlowLinkMinCalls = 3;
// Bounds that keep every difference and sum in int64 whatever a record holds (records may come
// from elsewhere): calls beyond +-2^61 ns (73 years) are left out, clocks are not aligned across a
// range of ends wider than 2^60 ns, and an instance spanning more than 2^40 ns (18 minutes) from
// its first arrival to its last end is not one collective: it is not measured.
constexpr int64_t kJobTimeLimitNs = int64_t(1) << 61;
constexpr int64_t kJobAlignRangeNs = int64_t(1) << 60;
constexpr int64_t kJobInstanceSpanNs = int64_t(1) << 40;
// The value / median units follow the metric: *_ns in ns, group_busbw_mbps in MB/s.

struct JobAnalysis {
  std::vector<JobRank> ranks;
  std::vector<CollectiveInstance> instances;  // by group, then first appearance
  std::vector<OpGroupStat> by_op_group;       // by summed transfer + skew, largest first
  std::vector<Straggler> stragglers;          // by rank, then metric
  std::vector<std::string> notes;             // missing / duplicate ranks, alignment fallbacks, ...
  bool aligned = false;                       // clocks estimated from collectives
  uint64_t matched = 0, mismatched = 0, partial = 0;
};

JobAnalysis analyze_job(const std::vector<RankRecord>& records);

// Parts, exposed for tests.
std::vector<JobRank> order_ranks(const std::vector<RankRecord>& records, std::vector<std::string>* notes);
std::vector<CollectiveInstance> match_collectives(const std::vector<RankRecord>& records,
                                                  const std::vector<JobRank>& ranks);
// Sets clock_offset_ns / clock_residual_ns / aligned of the ranks; false when no instance ties two ranks.
bool align_clocks(const std::vector<RankRecord>& records, const std::vector<CollectiveInstance>& instances,
                  std::vector<JobRank>& ranks, std::vector<std::string>* notes);
std::vector<Straggler> find_stragglers(const std::vector<RankRecord>& records, const JobAnalysis& job);

// Order statistics shared by the job's parts: the lower median (a value that occurred) and the
// scaled MAD around it. Both 0 for an empty list.
int64_t lower_median(std::vector<int64_t> v);
double scaled_mad(const std::vector<int64_t>& v, int64_t median);

}  // namespace tw
