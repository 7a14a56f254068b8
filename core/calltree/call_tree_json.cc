#include "core/calltree/call_tree_json.h"

#include <cmath>
#include <unordered_map>

namespace tw {
namespace {

using nlohmann::json;

constexpr size_t kAnnotationRows = 100;

json streams_json(const std::vector<StreamTime>& v) {
  json out = json::array();
  for (const StreamTime& s : v) out.push_back({{"device", s.device}, {"stream", s.stream}, {"ns", s.ns}});
  return out;
}

double pct(int64_t part, int64_t whole) { return whole > 0 ? std::round(1e6 * double(part) / double(whole)) / 1e4 : 0; }

}  // namespace

json call_tree_json(const TraceModel& m, const CallTree& t, bool bottom_up) {
  std::vector<std::string> names;
  std::unordered_map<StringId, uint32_t> name_index;
  std::unordered_map<uint32_t, uint32_t> thread_index;  // a root's track -> its label's index
  json parent = json::array(), name = json::array(), track = json::array(), depth = json::array(),
       count = json::array(), total = json::array(), self = json::array(), gpu = json::array(),
       gpu_self = json::array();
  for (const CallNode& n : t.nodes) {
    uint32_t idx;
    if (n.thread) {
      auto [it, fresh] = thread_index.try_emplace(n.track, static_cast<uint32_t>(names.size()));
      if (fresh) names.push_back(thread_label(m, n.track));
      idx = it->second;
    } else {
      auto [it, fresh] = name_index.try_emplace(n.name, static_cast<uint32_t>(names.size()));
      if (fresh) names.emplace_back(m.strings.get(n.name));
      idx = it->second;
    }
    parent.push_back(n.parent == kNoNode ? -1 : static_cast<int64_t>(n.parent));
    name.push_back(idx);
    track.push_back(n.track);
    depth.push_back(n.depth);
    count.push_back(n.count);
    total.push_back(n.total_ns);
    self.push_back(n.self_ns);
    gpu.push_back(n.gpu_ns);
    gpu_self.push_back(n.gpu_self_ns);
  }
  return {{"kind", bottom_up ? "bottom_up" : "top_down"},
          {"range", t.range ? json{{"begin_ns", t.range->begin}, {"end_ns", t.range->end}} : json(nullptr)},
          {"gpu_unlinked_ns", t.gpu_unlinked_ns},
          {"gpu_unlinked_ops", t.gpu_unlinked_ops},
          {"names", names},
          {"nodes",
           {{"parent", parent},
            {"name", name},
            {"track", track},
            {"depth", depth},
            {"count", count},
            {"total_ns", total},
            {"self_ns", self},
            {"gpu_ns", gpu},
            {"gpu_self_ns", gpu_self}}}};
}

json annotations_json(const TraceModel& m, const AnnotationsResult& r) {
  json rows = json::array();
  for (size_t i = 0; i < r.rows.size() && i < kAnnotationRows; ++i) {
    const AnnotationStat& a = r.rows[i];
    rows.push_back({{"name", std::string(m.strings.get(a.name))},
                    {"module", a.module},
                    {"count", a.count},
                    {"cpu_ns", a.cpu_ns},
                    {"gpu_ops", a.gpu_ops},
                    {"gpu_ns", a.gpu_ns},
                    {"gpu_ops_other_thread", a.gpu_ops_other_thread},
                    {"gpu_by_stream", streams_json(a.gpu_by_stream)},
                    {"gpu_side", streams_json(a.gpu_side)}});
  }
  json overlaps = json::array();
  for (const AnnotationOverlap& o : r.overlaps)
    overlaps.push_back({{"a", std::string(m.strings.get(o.a))},
                        {"b", std::string(m.strings.get(o.b))},
                        {"overlap_ns", o.overlap_ns},
                        {"a_busy_ns", o.a_busy_ns},
                        {"b_busy_ns", o.b_busy_ns},
                        {"a_hidden_pct", pct(o.overlap_ns, o.a_busy_ns)},
                        {"b_hidden_pct", pct(o.overlap_ns, o.b_busy_ns)}});
  return {{"count", r.rows.size()}, {"rows", rows}, {"overlaps", overlaps}};
}

}  // namespace tw
