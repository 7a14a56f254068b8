// Collectives matched across ranks, as PyTorch's Flight Recorder matches them: within a process
// group, by the sequence number when every rank's trace writes one ("Seq"), else by the n-th call
// of the same op in the same profiler step (steps keep the order from drifting when one rank's
// trace starts a step earlier). A matched instance agrees on op, dtype and element count; one
// missing on a rank that recorded that step, or disagreeing, is a mismatch (a hang in the making).
#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

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

struct Key {
  uint32_t group, op;  // ids; op: the op, or p2p / collective when matched by Seq
  int64_t step, n;
  bool operator==(const Key&) const = default;
};
struct KeyHash {
  size_t operator()(const Key& k) const {
    uint64_t h = (uint64_t(k.group) << 32 | k.op) * 0x9E3779B97F4A7C15ull;
    h ^= uint64_t(k.step) + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    h ^= uint64_t(k.n) + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    return static_cast<size_t>(h);
  }
};

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
  // Group and op names as small ids: a job of a thousand ranks has millions of calls.
  std::unordered_map<std::string, uint32_t> ids;
  auto id_of = [&ids](const std::string& s) { return ids.emplace(s, static_cast<uint32_t>(ids.size())).first->second; };
  const uint32_t kP2p = id_of("\x01p2p"), kCollective = id_of("\x01collective");
  std::vector<Group> groups;
  for (uint32_t j = 0; j < ranks.size(); ++j)
    for (const CollectiveCall& c : records[ranks[j].record].calls) {
      const uint32_t g = id_of(c.group);
      if (g >= groups.size()) groups.resize(g + 1);
      groups[g].members.insert(j);
      groups[g].all_seq = groups[g].all_seq && c.seq >= 0;
    }

  std::unordered_map<Key, uint32_t, KeyHash> index;  // -> found
  std::vector<CollectiveInstance> found;
  std::vector<uint32_t> group_of;  // per found instance
  for (uint32_t j = 0; j < ranks.size(); ++j) {
    const std::vector<CollectiveCall>& calls = records[ranks[j].record].calls;
    std::unordered_map<Key, int64_t, KeyHash> ordinal;  // (group, op, step) -> calls so far
    for (uint32_t ci = 0; ci < calls.size(); ++ci) {
      const CollectiveCall& c = calls[ci];
      if (c.begin_ns < -kJobTimeLimitNs || c.end_ns > kJobTimeLimitNs) continue;
      const uint32_t g = ids.at(c.group);
      const bool by_seq = groups[g].all_seq;
      // PyTorch numbers point-to-point calls apart from collectives.
      const uint32_t op = id_of(c.op);
      const Key key = by_seq ? Key{g, point_to_point(c.op) ? kP2p : kCollective, kNoStep, c.seq}
                             : Key{g, op, c.step, ordinal[Key{g, op, c.step, 0}]++};
      const auto [slot, fresh] = index.emplace(key, static_cast<uint32_t>(found.size()));
      if (fresh) found.emplace_back(), group_of.push_back(g);
      CollectiveInstance& in = found[slot->second];
      if (!in.ranks.empty() && in.ranks.back() == j) continue;  // one call split in several kernels: the first
      if (in.ranks.empty()) {
        in.group = c.group;
        in.op = c.op;
        in.step = c.step;
        in.n = key.n;
        in.by_seq = by_seq;
      }
      in.ranks.push_back(j);
      in.calls.push_back(ci);
    }
  }

  // A deterministic order whatever the hash: by group, op, step and n.
  std::vector<uint32_t> order(found.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const CollectiveInstance &x = found[a], &y = found[b];
    if (x.group != y.group) return x.group < y.group;
    if (x.by_seq != y.by_seq) return x.by_seq;
    if (x.by_seq) {  // point-to-point calls have their own sequence
      const bool px = point_to_point(x.op), py = point_to_point(y.op);
      if (px != py) return py;
      return x.n < y.n;
    }
    return std::tie(x.op, x.step, x.n) < std::tie(y.op, y.step, y.n);
  });
  std::vector<CollectiveInstance> out;
  out.reserve(found.size());
  for (uint32_t i : order) {
    CollectiveInstance& in = found[i];
    const Group& g = groups[group_of[i]];
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
