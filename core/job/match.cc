// Collectives matched across ranks, as PyTorch's Flight Recorder matches them: within a process
// group, by the sequence number when every rank's trace writes one ("Seq"), else by the n-th call
// of the same op in the same profiler step (steps keep the order from drifting when one rank's
// trace starts a step earlier). A matched instance agrees on op, dtype and element count; one
// missing on a rank that recorded that step, or disagreeing, is a mismatch (a hang in the making).
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "core/job/job_analysis.h"

namespace tw {

namespace {

// Ops whose element count legitimately differs between ranks (uneven splits, point-to-point).
bool count_may_differ(const std::string& op) {
  return op == "alltoall" || op == "dispatch" || op == "combine" || op == "send" || op == "recv" || op == "sendrecv" ||
         op == "other" || op == "coalesced";
}
bool point_to_point(const std::string& op) { return op == "send" || op == "recv" || op == "sendrecv"; }

std::string rank_labels(const std::vector<JobRank>& ranks, const std::vector<uint32_t>& which) {
  std::string s;
  for (size_t i = 0; i < which.size() && i < 4; ++i) s += (i ? ", " : "") + ranks[which[i]].label;
  if (which.size() > 4) s += " and " + std::to_string(which.size() - 4) + " more";
  return s;
}

bool has_step(const RankRecord& r, int64_t step) {
  return std::any_of(r.steps.begin(), r.steps.end(), [&](const RankStep& s) { return s.number == step; });
}

// What the present calls disagree on, "" when they agree.
std::string disagreement(const std::vector<RankRecord>& records, const std::vector<JobRank>& ranks,
                         const CollectiveInstance& in) {
  const CollectiveCall& a = records[ranks[in.ranks[0]].record].calls[in.calls[0]];
  for (size_t k = 1; k < in.ranks.size(); ++k) {
    const CollectiveCall& b = records[ranks[in.ranks[k]].record].calls[in.calls[k]];
    const std::string who = ranks[in.ranks[0]].label + " and " + ranks[in.ranks[k]].label;
    if (a.op != b.op)
      return "op differs: " + a.op + " on " + ranks[in.ranks[0]].label + ", " + b.op + " on " +
             ranks[in.ranks[k]].label;
    if (!a.dtype.empty() && !b.dtype.empty() && a.dtype != b.dtype)
      return "dtype differs between " + who + " (" + a.dtype + ", " + b.dtype + ")";
    if (!count_may_differ(a.op) && a.nelems >= 0 && b.nelems >= 0 && a.nelems != b.nelems)
      return "element count differs between " + who + " (" + std::to_string(a.nelems) + ", " +
             std::to_string(b.nelems) + ")";
  }
  return "";
}

}  // namespace

std::vector<CollectiveInstance> match_collectives(const std::vector<RankRecord>& records,
                                                  const std::vector<JobRank>& ranks) {
  struct Group {
    std::set<uint32_t> members;
    bool all_seq = true;
  };
  std::map<std::string, Group> groups;
  for (uint32_t j = 0; j < ranks.size(); ++j)
    for (const CollectiveCall& c : records[ranks[j].record].calls) {
      Group& g = groups[c.group];
      g.members.insert(j);
      g.all_seq = g.all_seq && c.seq >= 0;
    }

  using Key = std::tuple<std::string, std::string, int64_t, int64_t>;  // group, op (or p2p / collective), step, n
  std::map<Key, CollectiveInstance> found;
  for (uint32_t j = 0; j < ranks.size(); ++j) {
    const std::vector<CollectiveCall>& calls = records[ranks[j].record].calls;
    std::map<std::tuple<std::string, std::string, int64_t>, int64_t> ordinal;
    for (uint32_t ci = 0; ci < calls.size(); ++ci) {
      const CollectiveCall& c = calls[ci];
      if (c.begin_ns < -kJobTimeLimitNs || c.end_ns > kJobTimeLimitNs) continue;
      const bool by_seq = groups[c.group].all_seq;
      // PyTorch numbers point-to-point calls apart from collectives.
      Key key = by_seq ? Key{c.group, point_to_point(c.op) ? "p2p" : "", kNoStep, c.seq}
                       : Key{c.group, c.op, c.step, ordinal[{c.group, c.op, c.step}]++};
      CollectiveInstance& in = found[key];
      if (!in.ranks.empty() && in.ranks.back() == j) continue;  // one call split in several kernels: the first
      if (in.ranks.empty()) {
        in.group = c.group;
        in.op = c.op;
        in.step = c.step;
        in.n = std::get<3>(key);
        in.by_seq = by_seq;
      }
      in.ranks.push_back(j);
      in.calls.push_back(ci);
    }
  }

  std::vector<CollectiveInstance> out;
  out.reserve(found.size());
  for (auto& [key, in] : found) {
    const Group& g = groups[in.group];
    std::vector<uint32_t> missing;
    bool outside = false;  // a member did not record the step at all: its window does not cover it
    for (uint32_t m : g.members) {
      if (std::binary_search(in.ranks.begin(), in.ranks.end(), m)) continue;
      const RankRecord& r = records[ranks[m].record];
      if (!r.steps.empty() && (in.step == kNoStep || !has_step(r, in.step))) outside = true;
      else missing.push_back(m);
    }
    for (size_t k = 0; k < in.ranks.size(); ++k) {
      const CollectiveCall& c = records[ranks[in.ranks[k]].record].calls[in.calls[k]];
      in.bytes = std::max(in.bytes, c.bytes);
      in.group_size = std::max(in.group_size, c.group_size);
    }
    if (in.group_size == 0) in.group_size = static_cast<int32_t>(g.members.size());
    std::string differs = disagreement(records, ranks, in);
    if (!missing.empty() || !differs.empty()) {
      in.status = CollectiveInstance::kMismatched;
      in.problem = !differs.empty() ? differs : "missing on " + rank_labels(ranks, missing);
    } else if (outside || in.ranks.size() < 2) {
      in.status = CollectiveInstance::kPartial;
    }
    out.push_back(std::move(in));
  }
  return out;
}

}  // namespace tw
