// The job on one clock: each matched collective's arrival skew, the ranks' waits and the transfer
// after the last arrival, then per rank and per (op, group) sums, then stragglers.
#include "core/job/job_analysis.h"

#include <algorithm>
#include <map>

#include "core/analysis/collectives.h"

namespace tw {

namespace {

// Arrival, end and wait of each rank at one matched instance, on the reference clock.
void measure(const std::vector<RankRecord>& records, JobAnalysis& job, CollectiveInstance& in) {
  const size_t n = in.ranks.size();
  std::vector<int64_t> arrive(n), ends(n), dur(n);
  for (size_t k = 0; k < n; ++k) {
    const JobRank& r = job.ranks[in.ranks[k]];
    const CollectiveCall& c = records[r.record].calls[in.calls[k]];
    arrive[k] = c.begin_ns - r.clock_offset_ns;
    ends[k] = c.end_ns - r.clock_offset_ns;
    dur[k] = c.end_ns - c.begin_ns;
  }
  const size_t last = static_cast<size_t>(std::max_element(arrive.begin(), arrive.end()) - arrive.begin());
  in.first_arrival_ns = *std::min_element(arrive.begin(), arrive.end());
  in.last_arrival_ns = arrive[last];
  in.last_rank = in.ranks[last];
  in.skew_ns = in.last_arrival_ns - in.first_arrival_ns;
  std::vector<int64_t> sorted = ends;
  std::sort(sorted.begin(), sorted.end());
  in.end_ns = sorted[(n - 1) / 2];
  in.transfer_ns = std::max<int64_t>(0, in.end_ns - in.last_arrival_ns);
  // Nobody is last when every rank arrived within a tie: there was no one to wait for.
  size_t before_last = 0;
  for (size_t k = 0; k < n; ++k)
    if (k != last && in.last_arrival_ns - arrive[k] <= kJobTieNs) ++before_last;
  const bool someone_last = in.skew_ns > kJobTieNs && before_last == 0;
  for (size_t k = 0; k < n; ++k) {
    JobRank& r = job.ranks[in.ranks[k]];
    ++r.collectives;
    r.late_ns += arrive[k] - in.first_arrival_ns;
    r.wait_ns += std::clamp<int64_t>(in.last_arrival_ns - arrive[k], 0, dur[k]);
    r.transfer_ns += in.transfer_ns;
    if (k == last && someone_last) ++r.last_arrivals;
  }
}

// From the first arrival to the last end on the reference clock, within kJobInstanceSpanNs.
bool within_span(const std::vector<RankRecord>& records, const JobAnalysis& job, const CollectiveInstance& in) {
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  for (size_t k = 0; k < in.ranks.size(); ++k) {
    const JobRank& r = job.ranks[in.ranks[k]];
    const CollectiveCall& c = records[r.record].calls[in.calls[k]];
    lo = std::min(lo, c.begin_ns - r.clock_offset_ns);
    hi = std::max(hi, c.end_ns - r.clock_offset_ns);
  }
  return hi - lo <= kJobInstanceSpanNs;
}

void op_group_stats(JobAnalysis& job) {
  std::map<std::pair<std::string, std::string>, OpGroupStat> by;
  for (const CollectiveInstance& in : job.instances) {
    if (in.status != CollectiveInstance::kMatched || in.ranks.size() < 2) continue;
    OpGroupStat& s = by[{in.op, in.group}];
    s.group = in.group;
    s.op = in.op;
    ++s.count;
    s.group_size = std::max(s.group_size, in.group_size);
    s.transfer_ns += in.transfer_ns;
    s.skew_ns += in.skew_ns;
    s.max_skew_ns = std::max(s.max_skew_ns, in.skew_ns);
    if (in.bytes >= 0) {
      ++s.sized;
      s.bytes += in.bytes;
      s.sized_transfer_ns += in.transfer_ns;
    }
  }
  for (auto& [key, s] : by) {
    if (s.sized_transfer_ns > 0) {
      s.algbw_gbps = static_cast<double>(s.bytes) / static_cast<double>(s.sized_transfer_ns);
      s.busbw_gbps = s.algbw_gbps * bus_factor(s.op, s.group_size);
    }
    job.by_op_group.push_back(std::move(s));
  }
  std::stable_sort(job.by_op_group.begin(), job.by_op_group.end(), [](const OpGroupStat& a, const OpGroupStat& b) {
    return a.transfer_ns + a.skew_ns > b.transfer_ns + b.skew_ns;
  });
}

}  // namespace

JobAnalysis analyze_job(const std::vector<RankRecord>& records) {
  JobAnalysis job;
  job.ranks = order_ranks(records, &job.notes);
  job.instances = match_collectives(records, job.ranks);
  job.aligned = align_clocks(records, job.instances, job.ranks, &job.notes);
  for (CollectiveInstance& in : job.instances) {
    if (in.status == CollectiveInstance::kMatched && !within_span(records, job, in))
      in.status = CollectiveInstance::kPartial;
    if (in.status == CollectiveInstance::kMatched && in.ranks.size() >= 2) {
      ++job.matched;
      measure(records, job, in);
    } else if (in.status == CollectiveInstance::kMismatched) {
      ++job.mismatched;
    } else {
      ++job.partial;
    }
  }
  op_group_stats(job);
  job.stragglers = find_stragglers(records, job);
  return job;
}

}  // namespace tw
