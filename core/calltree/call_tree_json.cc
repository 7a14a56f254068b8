#include "core/calltree/call_tree_json.h"

#include <charconv>
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

std::string call_tree_json(const TraceModel& m, const CallTree& t, bool bottom_up) {
  std::vector<std::string> names;
  std::unordered_map<StringId, uint32_t> name_index;
  std::unordered_map<uint32_t, uint32_t> thread_index;  // a root's track -> its label's index
  std::vector<uint32_t> name_of(t.nodes.size());
  for (size_t k = 0; k < t.nodes.size(); ++k) {
    const CallNode& n = t.nodes[k];
    if (n.thread) {
      auto [it, fresh] = thread_index.try_emplace(n.track, static_cast<uint32_t>(names.size()));
      if (fresh) names.push_back(thread_label(m, n.track));
      name_of[k] = it->second;
    } else {
      auto [it, fresh] = name_index.try_emplace(n.name, static_cast<uint32_t>(names.size()));
      if (fresh) names.emplace_back(m.strings.get(n.name));
      name_of[k] = it->second;
    }
  }
  // The columns are written as text directly: a wide tree has 100k+ nodes, and nine arrays of json
  // values cost several times the tree itself. Keys in nlohmann's (sorted) order.
  std::string out;
  out.reserve(64 + t.nodes.size() * 9 * 8);
  auto number = [&out](int64_t v) {
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
  };
  auto column = [&](const char* key, auto value) {
    out += '"';
    out += key;
    out += "\":[";
    for (size_t k = 0; k < t.nodes.size(); ++k) {
      if (k) out += ',';
      number(value(k));
    }
    out += ']';
  };
  out += "{\"gpu_unlinked_ns\":";
  number(t.gpu_unlinked_ns);
  out += ",\"gpu_unlinked_ops\":";
  number(static_cast<int64_t>(t.gpu_unlinked_ops));
  out += bottom_up ? ",\"kind\":\"bottom_up\"" : ",\"kind\":\"top_down\"";
  out += ",\"names\":" + json(names).dump(-1, ' ', false, json::error_handler_t::replace);
  out += ",\"nodes\":{";
  const std::vector<CallNode>& n = t.nodes;
  column("count", [&](size_t k) { return static_cast<int64_t>(n[k].count); });
  out += ',';
  column("depth", [&](size_t k) { return static_cast<int64_t>(n[k].depth); });
  out += ',';
  column("gpu_ns", [&](size_t k) { return n[k].gpu_ns; });
  out += ',';
  column("gpu_self_ns", [&](size_t k) { return n[k].gpu_self_ns; });
  out += ',';
  column("name", [&](size_t k) { return static_cast<int64_t>(name_of[k]); });
  out += ',';
  column("parent", [&](size_t k) { return n[k].parent == kNoNode ? int64_t{-1} : static_cast<int64_t>(n[k].parent); });
  out += ',';
  column("self_ns", [&](size_t k) { return n[k].self_ns; });
  out += ',';
  column("total_ns", [&](size_t k) { return n[k].total_ns; });
  out += ',';
  column("track", [&](size_t k) { return static_cast<int64_t>(n[k].track); });
  out += "},\"range\":";
  if (t.range) {
    out += "{\"begin_ns\":";
    number(t.range->begin);
    out += ",\"end_ns\":";
    number(t.range->end);
    out += '}';
  } else {
    out += "null";
  }
  out += '}';
  return out;
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
