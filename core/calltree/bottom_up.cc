#include "core/calltree/bottom_up.h"

#include <unordered_map>

namespace tw {

CallTree bottom_up(const CallTree& td) {
  CallTree bu;
  bu.gpu_unlinked_ns = td.gpu_unlinked_ns;
  bu.gpu_unlinked_ops = td.gpu_unlinked_ops;
  bu.range = td.range;
  // Tops by name (a thread root's name is its thread's; roots never have self time), callers by
  // (callee node, caller name, caller's root track for the thread frame).
  std::unordered_map<StringId, uint32_t> tops;
  std::unordered_map<uint64_t, uint32_t> callers;
  auto add = [&](uint32_t parent, const CallNode& from, const CallNode& src) {
    const size_t fresh_id = bu.nodes.size();
    const uint32_t id = parent == kNoNode
                            ? tops.try_emplace(from.name, static_cast<uint32_t>(fresh_id)).first->second
                            : callers
                                  .try_emplace((static_cast<uint64_t>(parent) << 32) |
                                                   (from.thread ? (uint64_t(1) << 31) | from.track : from.name),
                                               static_cast<uint32_t>(fresh_id))
                                  .first->second;
    if (id == fresh_id) {
      CallNode n;
      n.name = from.name;
      n.parent = parent;
      n.track = from.track;
      n.thread = from.thread;
      n.depth = parent == kNoNode ? 0 : bu.nodes[parent].depth + 1;
      bu.nodes.push_back(n);
    }
    CallNode& n = bu.nodes[id];
    n.count += src.count;
    n.total_ns += src.self_ns;
    n.gpu_ns += src.gpu_self_ns;
    return id;
  };
  for (const CallNode& n : td.nodes) {
    if (n.parent == kNoNode || (n.self_ns <= 0 && n.gpu_self_ns <= 0)) continue;
    uint32_t at = add(kNoNode, n, n);
    for (uint32_t up = n.parent; up != kNoNode; up = td.nodes[up].parent) at = add(at, td.nodes[up], n);
  }
  return bu;
}

}  // namespace tw
