// Which ranks the job has: rank order from distributedInfo, and notes for what does not add up.
#include <algorithm>
#include <map>

#include "core/job/job_analysis.h"

namespace tw {

namespace {

std::string rank_list(const std::vector<int64_t>& ranks, size_t max) {
  std::string s;
  for (size_t i = 0; i < ranks.size() && i < max; ++i) s += (i ? ", " : "") + std::to_string(ranks[i]);
  if (ranks.size() > max) s += " and " + std::to_string(ranks.size() - max) + " more";
  return s;
}

}  // namespace

std::vector<JobRank> order_ranks(const std::vector<RankRecord>& records, std::vector<std::string>* notes) {
  std::vector<size_t> order(records.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const RankRecord &x = records[a], &y = records[b];
    if (x.has_rank != y.has_rank) return x.has_rank;
    return x.has_rank && x.rank < y.rank;
  });
  std::vector<JobRank> ranks;
  std::map<int64_t, std::vector<std::string>> files_of_rank;
  std::map<int64_t, size_t> world_sizes;
  size_t unranked = 0;
  for (size_t i : order) {
    const RankRecord& r = records[i];
    JobRank j;
    j.record = i;
    j.label =
        r.has_rank ? "rank " + std::to_string(r.rank) : (r.file.empty() ? "file " + std::to_string(i + 1) : r.file);
    __int128 total = 0;  // whatever the steps hold, the sum cannot overflow
    for (const RankStep& s : r.steps) total += static_cast<__int128>(s.end_ns) - s.begin_ns;
    if (!r.steps.empty()) j.step_ns = static_cast<int64_t>(total / static_cast<__int128>(r.steps.size()));
    ranks.push_back(std::move(j));
    if (r.has_rank) files_of_rank[r.rank].push_back(r.file);
    else ++unranked;
    if (r.world_size >= 0) ++world_sizes[r.world_size];
  }
  if (unranked)
    notes->push_back(std::to_string(unranked) + (unranked == 1 ? " file carries" : " files carry") +
                     " no rank (distributedInfo): " + (unranked == 1 ? "it follows" : "they follow") +
                     " the ranked files in the order opened.");
  for (const auto& [rank, files] : files_of_rank) {
    if (files.size() < 2) continue;
    std::string names;
    for (size_t k = 0; k < files.size() && k < 3; ++k) names += (k ? ", " : "") + files[k];
    notes->push_back("Rank " + std::to_string(rank) + " appears in " + std::to_string(files.size()) + " files (" +
                     names + (files.size() > 3 ? ", ..." : "") + "): each is analysed as its own rank.");
  }
  if (world_sizes.size() > 1) {
    std::string sizes;
    for (const auto& [size, n] : world_sizes)
      sizes += (sizes.empty() ? "" : ", ") + std::to_string(size) + " (" + std::to_string(n) +
               (n == 1 ? " file)" : " files)");
    notes->push_back("The files disagree on the world size: " + sizes + "; they may come from different runs.");
  } else if (world_sizes.size() == 1) {
    const int64_t world = world_sizes.begin()->first;
    std::vector<int64_t> missing;
    for (int64_t r = 0; r < world && missing.size() <= 64; ++r)
      if (!files_of_rank.count(r)) missing.push_back(r);
    if (!missing.empty() && static_cast<int64_t>(files_of_rank.size()) < world)
      notes->push_back(std::to_string(files_of_rank.size()) + " of " + std::to_string(world) + " ranks are open" +
                       (world <= 64 ? "; missing: " + rank_list(missing, 16) : std::string()) +
                       ". Collectives are compared among the open ranks only.");
  }
  return ranks;
}

}  // namespace tw
