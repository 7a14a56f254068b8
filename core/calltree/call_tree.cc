#include "core/calltree/call_tree.h"

#include <algorithm>
#include <unordered_map>

namespace tw {
namespace {

// Children of a node by name: one hash map for the whole tree, keyed by (parent node, name).
class ChildIndex {
 public:
  uint32_t find_or_add(CallTree& t, uint32_t parent, StringId name, uint32_t track) {
    const uint64_t key = (static_cast<uint64_t>(parent) << 32) | name;
    auto [it, fresh] = map_.try_emplace(key, static_cast<uint32_t>(t.nodes.size()));
    if (fresh) {
      CallNode n;
      n.name = name;
      n.parent = parent;
      n.track = track;
      n.depth = t.nodes[parent].depth + 1;
      t.nodes.push_back(n);
    }
    return it->second;
  }

 private:
  std::unordered_map<uint64_t, uint32_t> map_;
};

int64_t clipped(int64_t b, int64_t e, const Interval* range) {
  if (range) b = std::max(b, range->begin), e = std::min(e, range->end);
  return std::max<int64_t>(0, e - b);
}

}  // namespace

std::string thread_label(const TraceModel& m, uint32_t track) {
  const Track& t = m.tracks[track];
  // Kineto names threads "thread 1166 (python3)" already; unnamed ones read "thread TID".
  const std::string_view name = m.strings.get(t.name);
  std::string label = !name.empty()
                          ? std::string(name)
                          : "thread " + (t.tid_label ? std::string(m.strings.get(t.tid_label)) : std::to_string(t.tid));
  if (t.process < m.processes.size()) {
    const Process& p = m.processes[t.process];
    const std::string_view pname = m.strings.get(p.name);
    label = std::string(pname.empty() ? "process" : pname) + " " +
            (p.pid_label ? std::string(m.strings.get(p.pid_label)) : std::to_string(p.pid)) + " / " + label;
  }
  return label;
}

CallTree build_call_tree(const TraceModel& m, const Interval* range) {
  CallTree t;
  if (range) t.range = *range;
  const SliceTable& s = m.slices;
  const GpuOpTable& g = m.gpu_ops;

  // GPU time per launching slice, in slice order, for the walk below; ops in range without a link
  // are counted apart.
  std::vector<std::pair<uint32_t, int64_t>> launched;  // (launch slice, GPU ns)
  std::vector<uint8_t> linked(g.size(), 0);
  std::unordered_map<uint32_t, uint32_t> gpu_row;  // gpu slice -> gpu_ops row, only when links exist
  gpu_row.reserve(m.launches.size());
  for (uint32_t r = 0; r < g.size(); ++r) gpu_row.emplace(g.slice[r], r);
  for (const LaunchLink& l : m.launches) {
    if (l.launch_slice >= s.size() || l.gpu_slice >= s.size()) continue;
    auto it = gpu_row.find(l.gpu_slice);
    if (it != gpu_row.end()) linked[it->second] = 1;
    if (range && (s.ts_ns[l.launch_slice] < range->begin || s.ts_ns[l.launch_slice] >= range->end)) continue;
    launched.push_back({l.launch_slice, s.dur_at(l.gpu_slice)});
  }
  for (uint32_t r = 0; r < g.size(); ++r) {
    const uint32_t i = g.slice[r];
    if (linked[r] || (range && (s.ts_ns[i] < range->begin || s.ts_ns[i] >= range->end))) continue;
    t.gpu_unlinked_ns += s.dur_at(i);
    t.gpu_unlinked_ops++;
  }
  std::sort(launched.begin(), launched.end());
  size_t next_launch = 0;

  ChildIndex children;
  std::vector<uint32_t> node_of;  // per slice of the current track (offset by its first slice)
  for (uint32_t track = 0; track < m.tracks.size(); ++track) {
    const Track& tr = m.tracks[track];
    const auto [first, last] = s.rows_of(track);
    if (first >= last) continue;
    if (tr.kind != TrackKind::kThread) {
      while (next_launch < launched.size() && launched[next_launch].first < last) {
        t.gpu_unlinked_ns += launched[next_launch].second;  // launched from a non-thread track
        t.gpu_unlinked_ops++;
        ++next_launch;
      }
      continue;
    }
    const uint32_t root = static_cast<uint32_t>(t.nodes.size());
    CallNode r;
    r.name = tr.name;
    r.track = track;
    r.thread = true;
    t.nodes.push_back(r);
    node_of.assign(last - first, kNoNode);
    for (uint32_t i = first; i < last; ++i) {
      const int64_t ns = clipped(s.ts_ns[i], s.end_ns(i), range);
      const bool inside = !range || (s.ts_ns[i] < range->end && s.end_ns(i) > range->begin) ||
                          (s.dur_at(i) == 0 && s.ts_ns[i] >= range->begin && s.ts_ns[i] < range->end);
      uint32_t node = kNoNode;
      if (inside) {
        const uint32_t p = s.parent[i];
        const uint32_t parent_node = p != kNoParent && p >= first && p < i ? node_of[p - first] : root;
        node = children.find_or_add(t, parent_node == kNoNode ? root : parent_node, s.name.at(i), track);
        node_of[i - first] = node;
        CallNode& n = t.nodes[node];
        n.count++;
        n.total_ns += ns;
        n.self_ns += ns;
        CallNode& up = t.nodes[n.parent];
        if (n.parent == root) up.count++, up.total_ns += ns;
        else up.self_ns -= ns;
      }
      for (; next_launch < launched.size() && launched[next_launch].first <= i; ++next_launch) {
        if (launched[next_launch].first < i) continue;  // a launch slice of an earlier, skipped row
        if (node == kNoNode) {
          t.gpu_unlinked_ns += launched[next_launch].second;
          t.gpu_unlinked_ops++;
        } else {
          t.nodes[node].gpu_self_ns += launched[next_launch].second;
        }
      }
    }
  }
  // Self time never goes below zero (a child that overlaps past its parent's end), and GPU time
  // rolls up to every ancestor: children come after their parents, so one backward pass does it.
  for (size_t k = t.nodes.size(); k-- > 0;) {
    CallNode& n = t.nodes[k];
    if (n.parent == kNoNode) n.self_ns = 0;  // a root's time is all in its children
    n.self_ns = std::max<int64_t>(0, n.self_ns);
    n.gpu_ns += n.gpu_self_ns;
    if (n.parent != kNoNode) t.nodes[n.parent].gpu_ns += n.gpu_ns;
  }
  return t;
}

}  // namespace tw
