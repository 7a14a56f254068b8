// Clock offsets between ranks. Ranks leave a collective nearly together (its last step completes
// on all of them), while they arrive whenever they are ready; so the ends of matched collectives
// tie the clocks together. Each rank's offset is the median of (its end - the instance's end)
// over its instances, where an instance's end is the median of its ranks' aligned ends; a few
// rounds settle both. Ranks that share no collective with the reference rank form their own
// group, aligned to its first rank.
#include <algorithm>
#include <numeric>

#include "core/analysis/recommendations.h"
#include "core/job/job_analysis.h"

namespace tw {

int64_t lower_median(std::vector<int64_t> v) {
  if (v.empty()) return 0;
  const size_t k = (v.size() - 1) / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k];
}

double scaled_mad(const std::vector<int64_t>& v, int64_t median) {
  std::vector<int64_t> dev;
  dev.reserve(v.size());
  for (int64_t x : v) dev.push_back(x > median ? x - median : median - x);
  return 1.4826 * static_cast<double>(lower_median(std::move(dev)));
}

namespace {

int64_t end_of(const std::vector<RankRecord>& records, const std::vector<JobRank>& ranks, const CollectiveInstance& in,
               size_t k) {
  return records[ranks[in.ranks[k]].record].calls[in.calls[k]].end_ns;
}

// The true median (mean of the middle two), so that two ranks meet halfway.
int64_t middle(std::vector<int64_t>& v) {
  const size_t n = v.size();
  std::sort(v.begin(), v.end());
  return n % 2 ? v[n / 2] : v[n / 2 - 1] + (v[n / 2] - v[n / 2 - 1]) / 2;
}

size_t find(std::vector<size_t>& parent, size_t x) {
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

}  // namespace

bool align_clocks(const std::vector<RankRecord>& records, const std::vector<CollectiveInstance>& instances,
                  std::vector<JobRank>& ranks, std::vector<std::string>* notes) {
  std::vector<const CollectiveInstance*> ties;
  for (const CollectiveInstance& in : instances)
    if (in.status == CollectiveInstance::kMatched && in.ranks.size() >= 2) ties.push_back(&in);
  if (ties.empty()) {
    if (ranks.size() >= 2)
      notes->push_back("No collective could be matched across ranks: the ranks' timestamps are used as written.");
    return false;
  }
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  for (const CollectiveInstance* in : ties)
    for (size_t k = 0; k < in->ranks.size(); ++k) {
      lo = std::min(lo, end_of(records, ranks, *in, k));
      hi = std::max(hi, end_of(records, ranks, *in, k));
    }
  if (hi - lo > kJobAlignRangeNs) {
    notes->push_back("The ranks' collectives end more than 36 years apart: the timestamps are used as written.");
    return false;
  }
  std::vector<size_t> parent(ranks.size());
  std::iota(parent.begin(), parent.end(), 0);
  for (const CollectiveInstance* in : ties)
    for (uint32_t r : in->ranks) parent[find(parent, r)] = find(parent, in->ranks[0]);

  std::vector<int64_t> offset(ranks.size(), 0), consensus(ties.size(), 0);
  std::vector<std::vector<int64_t>> diffs(ranks.size());
  std::vector<int64_t> scratch;
  for (int round = 0; round < 12; ++round) {
    for (size_t t = 0; t < ties.size(); ++t) {
      scratch.clear();
      for (size_t k = 0; k < ties[t]->ranks.size(); ++k)
        scratch.push_back(end_of(records, ranks, *ties[t], k) - offset[ties[t]->ranks[k]]);
      consensus[t] = middle(scratch);
    }
    for (auto& d : diffs) d.clear();
    for (size_t t = 0; t < ties.size(); ++t)
      for (size_t k = 0; k < ties[t]->ranks.size(); ++k)
        diffs[ties[t]->ranks[k]].push_back(end_of(records, ranks, *ties[t], k) - consensus[t]);
    std::vector<int64_t> next(ranks.size(), 0);
    for (size_t r = 0; r < ranks.size(); ++r)
      if (!diffs[r].empty()) next[r] = middle(diffs[r]);
    // Each connected group of ranks is measured against its first rank (rank order).
    std::vector<int64_t> base(ranks.size(), INT64_MIN);
    for (size_t r = 0; r < ranks.size(); ++r) {
      int64_t& b = base[find(parent, r)];
      if (b == INT64_MIN) b = next[r];
      next[r] -= b;
    }
    const bool settled = next == offset;
    offset = std::move(next);
    if (settled) break;
  }
  std::vector<size_t> unaligned;
  size_t roots = 0;
  for (size_t r = 0; r < ranks.size(); ++r) {
    if (find(parent, r) == r && !diffs[r].empty()) ++roots;
    if (diffs[r].empty()) {
      unaligned.push_back(r);
      continue;
    }
    ranks[r].aligned = true;
    ranks[r].clock_offset_ns = offset[r];
  }
  // Residual: how far a rank's aligned ends lie from its instances' (median) ends.
  std::vector<std::vector<int64_t>> residual(ranks.size());
  for (const CollectiveInstance* in : ties) {
    scratch.clear();
    for (size_t k = 0; k < in->ranks.size(); ++k)
      scratch.push_back(end_of(records, ranks, *in, k) - offset[in->ranks[k]]);
    std::vector<int64_t> aligned = scratch;
    const int64_t c = middle(scratch);
    for (size_t k = 0; k < in->ranks.size(); ++k) residual[in->ranks[k]].push_back(std::llabs(aligned[k] - c));
  }
  std::vector<uint32_t> scattered;
  for (size_t r = 0; r < ranks.size(); ++r) {
    if (!ranks[r].aligned) continue;
    ranks[r].clock_residual_ns = lower_median(std::move(residual[r]));
    if (ranks[r].clock_residual_ns > kClockResidualNoteNs) scattered.push_back(static_cast<uint32_t>(r));
  }
  if (!scattered.empty()) {
    std::string s;
    for (size_t i = 0; i < scattered.size() && i < 4; ++i) s += (i ? ", " : "") + ranks[scattered[i]].label;
    if (scattered.size() > 4) s += " and " + std::to_string(scattered.size() - 4) + " more";
    notes->push_back(
        "The collective ends of " + s + " scatter by more than " + format_duration(kClockResidualNoteNs) +
        " around the others' (see clock_residual_ns): the ops matched may not be one collective (e.g. "
        "point-to-point calls with other peers), so the clock offsets and skews are uncertain and no rank is named late from them.");
  }
  if (!unaligned.empty()) {
    std::string s;
    for (size_t i = 0; i < unaligned.size() && i < 4; ++i) s += (i ? ", " : "") + ranks[unaligned[i]].label;
    if (unaligned.size() > 4) s += " and " + std::to_string(unaligned.size() - 4) + " more";
    notes->push_back(s + (unaligned.size() == 1 ? " shares" : " share") +
                     " no matched collective with another rank: timestamps used as written.");
  }
  if (roots > 1)
    notes->push_back("The ranks form " + std::to_string(roots) +
                     " groups with no collective in common; each group's clocks are aligned to its first rank only.");
  return true;
}

}  // namespace tw
