#include "core/calltree/collapsed.h"

#include <charconv>

namespace tw {

std::string collapsed_frame(std::string_view name) {
  std::string out(name);
  for (char& c : out) {
    if (c == ';') c = ':';
    else if (c == '\n' || c == '\r') c = ' ';
  }
  return out.empty() ? std::string("(unnamed)") : out;
}

std::string collapsed_stacks(const TraceModel& m, const CallTree& t, FlameMeasure measure) {
  std::string out;
  std::vector<std::string> paths(t.nodes.size());  // each node's "a;b;c", built from its parent's
  for (size_t k = 0; k < t.nodes.size(); ++k) {
    const CallNode& n = t.nodes[k];
    paths[k] = n.parent == kNoNode ? collapsed_frame(thread_label(m, n.track))
                                   : paths[n.parent] + ";" + collapsed_frame(m.strings.get(n.name));
    const int64_t v = measure == FlameMeasure::kCpu ? n.self_ns : n.gpu_self_ns;
    if (v > 0 && n.parent != kNoNode) out += paths[k] + " " + std::to_string(v) + "\n";
  }
  return out;
}

std::vector<CollapsedLine> parse_collapsed(std::string_view text) {
  std::vector<CollapsedLine> out;
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    const std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    const size_t sp = line.rfind(' ');
    if (sp == std::string_view::npos) continue;
    CollapsedLine l;
    const std::string_view num = line.substr(sp + 1);
    if (std::from_chars(num.data(), num.data() + num.size(), l.value).ptr != num.data() + num.size()) continue;
    std::string_view stack = line.substr(0, sp);
    while (true) {
      const size_t semi = stack.find(';');
      l.frames.emplace_back(stack.substr(0, semi));
      if (semi == std::string_view::npos) break;
      stack = stack.substr(semi + 1);
    }
    out.push_back(std::move(l));
  }
  return out;
}

}  // namespace tw
