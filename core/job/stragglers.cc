// Stragglers with evidence. Step time alone misleads in a synchronous job (the ranks that wait
// have the longest steps), so a rank is flagged by what makes the others wait: it arrives at the
// collectives later than the job by a robust margin, or last far more often than its share; or one
// part of its step (GPU compute, host work, DataLoader, copies, unrecorded time) lies above the
// job's median by a robust margin. The part with the largest excess names the likely cause.
#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "core/analysis/recommendations.h"
#include "core/job/job_analysis.h"

namespace tw {

namespace {

struct Part {
  const char* metric;
  const char* cause;
  const char* words;
  std::vector<StepCategory> categories;
};
const std::vector<Part>& parts() {
  static const std::vector<Part> kParts = {
      {"step_compute_ns", "gpu_compute", "GPU compute", {StepCategory::kKernel}},
      {"step_host_ns",
       "host",
       "host work (CPU ops and runtime calls)",
       {StepCategory::kCpuExec, StepCategory::kRuntime}},
      {"step_data_loader_ns", "data_loader", "DataLoader time", {StepCategory::kDataLoader}},
      {"step_memcpy_ns", "memory_copy", "memory copies", {StepCategory::kMemcpy, StepCategory::kMemset}},
      {"step_unrecorded_ns", "unrecorded", "time with nothing recorded", {StepCategory::kOther}},
  };
  return kParts;
}

// A part's mean per step on one rank, -1 without steps.
int64_t part_mean(const RankRecord& r, const Part& p) {
  if (r.steps.empty()) return -1;
  __int128 sum = 0;  // whatever the steps hold, the sum cannot overflow
  for (const RankStep& s : r.steps)
    for (StepCategory c : p.categories) sum += s.category_ns[static_cast<int>(c)];
  return static_cast<int64_t>(sum / static_cast<__int128>(r.steps.size()));
}

bool far_above(int64_t value, int64_t median, double mad, int64_t floor) {
  return value - median >= floor && static_cast<double>(value) > static_cast<double>(median) + kStragglerK * mad;
}

// Share of the instances a rank must arrive last at to be flagged for that alone: "far more often
// than its share" 1/n, and at least half.
double last_share_needed(size_t ranks) { return std::max(0.5, std::min(0.9, 3.0 / static_cast<double>(ranks))); }

// A slow link shows as process groups that transfer slower than the other groups of the same op
// and message size (transfer after the last arrival, so waits do not count): the ranks that every
// such slow group holds, and that no normal group of theirs clears, are named.
void add_slow_links(const JobAnalysis& job, std::vector<Straggler>& out) {
  struct Group {
    std::set<uint32_t> ranks;
  };
  std::map<std::string, Group> groups;
  for (const CollectiveInstance& in : job.instances)
    if (in.status == CollectiveInstance::kMatched) groups[in.group].ranks.insert(in.ranks.begin(), in.ranks.end());
  // Comparable: the same op and message sizes in the same power of two. The reference is the upper
  // median: of two groups, the faster one is the likelier to be normal.
  std::map<std::pair<std::string, int>, std::vector<const OpGroupStat*>> alike;
  for (const OpGroupStat& s : job.by_op_group) {
    if (s.sized < kSlowLinkMinCalls || s.sized_transfer_ns <= 0) continue;
    const int64_t mean = s.bytes / static_cast<int64_t>(s.sized);
    alike[{s.op, mean > 0 ? 63 - __builtin_clzll(static_cast<uint64_t>(mean)) : -1}].push_back(&s);
  }
  std::map<uint32_t, std::vector<std::pair<const OpGroupStat*, int64_t>>> slow_of_rank;  // with the reference
  std::set<uint32_t> cleared;  // ranks in a group of normal speed
  for (const auto& [key, stats] : alike) {
    if (stats.size() < 2) continue;
    std::vector<int64_t> mbps;
    for (const OpGroupStat* s : stats) mbps.push_back(static_cast<int64_t>(s->busbw_gbps * 1000));
    std::vector<int64_t> sorted = mbps;
    std::sort(sorted.begin(), sorted.end());
    const int64_t reference = sorted[sorted.size() / 2];
    for (size_t i = 0; i < stats.size(); ++i) {
      const bool slow = mbps[i] * 2 < reference;
      for (uint32_t r : groups[stats[i]->group].ranks) {
        if (slow) slow_of_rank[r].push_back({stats[i], reference});
        else cleared.insert(r);
      }
    }
  }
  for (const auto& [rank, slow] : slow_of_rank) {
    if (cleared.count(rank)) continue;
    const auto& [worst, reference] = *std::min_element(slow.begin(), slow.end(), [](const auto& a, const auto& b) {
      return a.first->busbw_gbps < b.first->busbw_gbps;
    });
    Straggler s;
    s.rank = rank;
    s.metric = "group_busbw_mbps";
    s.value = static_cast<int64_t>(worst->busbw_gbps * 1000);
    s.median = reference;
    s.cause = "slow_link";
    char bw[64];
    std::snprintf(bw, sizeof bw, "%.1f GB/s, under half the %.1f GB/s of the groups alike", worst->busbw_gbps,
                  static_cast<double>(s.median) / 1000);
    s.reason = job.ranks[rank].label + " is in " + std::to_string(slow.size()) + " process group" +
               (slow.size() == 1 ? "" : "s") + " that transfer slowly and in none that does not: " + worst->op +
               " in group " + worst->group + " reaches a bus bandwidth of " + bw + ". Likely cause: a slow link.";
    out.push_back(std::move(s));
  }
}

}  // namespace

std::vector<Straggler> find_stragglers(const std::vector<RankRecord>& records, const JobAnalysis& job) {
  const size_t n = job.ranks.size();
  std::vector<Straggler> out;
  if (n < 2) return out;

  // Per rank: lateness per step and the waits it caused.
  std::vector<std::map<int64_t, int64_t>> late_by_step(n);
  std::vector<int64_t> caused_wait(n, 0);
  for (const CollectiveInstance& in : job.instances) {
    if (in.status != CollectiveInstance::kMatched || in.ranks.size() < 2) continue;
    for (size_t k = 0; k < in.ranks.size(); ++k) {
      const JobRank& r = job.ranks[in.ranks[k]];
      const CollectiveCall& c = records[r.record].calls[in.calls[k]];
      const int64_t arrive = c.begin_ns - r.clock_offset_ns;
      if (in.step != kNoStep) late_by_step[in.ranks[k]][in.step] += arrive - in.first_arrival_ns;
      if (in.ranks[k] != in.last_rank)
        caused_wait[in.last_rank] += std::clamp<int64_t>(in.last_arrival_ns - arrive, 0, c.end_ns - c.begin_ns);
    }
  }

  // Step parts against the job's median.
  std::vector<std::vector<int64_t>> part_values(parts().size(), std::vector<int64_t>(n, -1));
  std::vector<int64_t> part_median(parts().size(), 0);
  std::vector<double> part_mad(parts().size(), 0);
  std::vector<int64_t> steps_ns;
  for (const JobRank& r : job.ranks)
    if (r.step_ns >= 0) steps_ns.push_back(r.step_ns);
  const int64_t step_floor =
      std::max<int64_t>(10000, static_cast<int64_t>(kStepMarginShare * static_cast<double>(lower_median(steps_ns))));
  for (size_t p = 0; p < parts().size(); ++p) {
    std::vector<int64_t> known;
    for (size_t i = 0; i < n; ++i) {
      part_values[p][i] = part_mean(records[job.ranks[i].record], parts()[p]);
      if (part_values[p][i] >= 0) known.push_back(part_values[p][i]);
    }
    part_median[p] = lower_median(known);
    part_mad[p] = scaled_mad(known, part_median[p]);
    if (known.size() < 2) part_median[p] = -1;  // nothing to compare with
  }

  // Arrival lateness against the job's median.
  std::vector<int64_t> late;
  for (const JobRank& r : job.ranks)
    if (r.collectives) late.push_back(r.late_ns / static_cast<int64_t>(r.collectives));
  const int64_t late_median = lower_median(late);
  const double late_mad = scaled_mad(late, late_median);

  for (uint32_t i = 0; i < n; ++i) {
    const JobRank& r = job.ranks[i];
    // Arrivals on a clock that does not hold (collective ends scattered) prove nothing.
    const bool clock_holds = r.clock_residual_ns >= 0 && r.clock_residual_ns <= kClockResidualNoteNs;
    if (r.collectives && late.size() >= 2 && clock_holds) {
      const int64_t mean_late = r.late_ns / static_cast<int64_t>(r.collectives);
      const double share = static_cast<double>(r.last_arrivals) / static_cast<double>(r.collectives);
      if (far_above(mean_late, late_median, late_mad, kLateFloorNs) ||
          (share >= last_share_needed(late.size()) && mean_late - late_median >= kLateFloorNs)) {
        Straggler s;
        s.rank = i;
        s.metric = "arrival_late_ns";
        s.value = mean_late;
        s.median = late_median;
        for (const auto& [step, ns] : late_by_step[i]) s.steps.push_back({step, ns});
        std::stable_sort(s.steps.begin(), s.steps.end(),
                         [](const StepLateness& a, const StepLateness& b) { return a.late_ns > b.late_ns; });
        if (s.steps.size() > 5) s.steps.resize(5);
        // Likely cause: the step part with the largest excess, when it explains a quarter of the
        // lateness per step.
        const int64_t late_per_step =
            late_by_step[i].empty() ? r.late_ns : r.late_ns / static_cast<int64_t>(late_by_step[i].size());
        int64_t best_excess = 0;
        s.cause = "unknown";
        std::string cause_words;
        for (size_t p = 0; p < parts().size(); ++p) {
          if (part_median[p] < 0 || part_values[p][i] < 0) continue;
          const int64_t excess = part_values[p][i] - part_median[p];
          if (excess > best_excess && excess * 4 >= late_per_step) {
            best_excess = excess;
            s.cause = parts()[p].cause;
            cause_words =
                std::string(parts()[p].words) + " is " + format_duration(excess) + " per step above the median rank";
          }
        }
        s.reason = r.label + " arrives last at " + std::to_string(r.last_arrivals) + " of " +
                   std::to_string(r.collectives) + " collectives, on average " + format_duration(mean_late) +
                   " after the first rank (median rank: " + format_duration(late_median) + "); the others wait " +
                   format_duration(caused_wait[i]) + " for it in all. " +
                   (cause_words.empty() ? "No part of its steps explains it." : "Likely cause: " + cause_words + ".");
        out.push_back(std::move(s));
      }
    }
    for (size_t p = 0; p < parts().size(); ++p) {
      const int64_t v = part_values[p][i];
      if (part_median[p] < 0 || v < 0 || !far_above(v, part_median[p], part_mad[p], step_floor)) continue;
      Straggler s;
      s.rank = i;
      s.metric = parts()[p].metric;
      s.value = v;
      s.median = part_median[p];
      s.cause = parts()[p].cause;
      std::string words = parts()[p].words;
      words[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(words[0])));
      s.reason = words + " on " + r.label + " is " + format_duration(v) + " per step, " +
                 format_duration(v - part_median[p]) + " above the median rank (" + format_duration(part_median[p]) +
                 ").";
      out.push_back(std::move(s));
    }
  }
  add_slow_links(job, out);
  std::stable_sort(out.begin(), out.end(), [](const Straggler& a, const Straggler& b) { return a.rank < b.rank; });
  return out;
}

}  // namespace tw
