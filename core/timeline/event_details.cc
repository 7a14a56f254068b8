#include "core/timeline/event_details.h"

#include <string>

#include "core/base/json_depth.h"
#include "core/base/utf8.h"

namespace tw {

namespace {

// Deeper events are not shown (core/base/json_depth.h says why).
constexpr int kMaxShownNesting = 64;

constexpr size_t kMaxValueChars = 16384;

std::string str(const TraceModel& m, StringId id) { return std::string(m.strings.get(id)); }

std::string id_text(int64_t v) { return v == kNoId ? std::string() : std::to_string(v); }

nlohmann::json slice_ref(const TimelineIndex& index, uint32_t id) {
  const TraceModel& m = index.model();
  const SliceTable& s = m.slices;
  if (id >= s.size()) return nullptr;
  return {{"id", id},
          {"name", str(m, s.name.at(id))},
          {"lane", index.lane_of_model_track(s.track_at(id))},
          {"depth", s.depth[id]},
          {"startNs", static_cast<double>(s.ts_ns[id] - index.origin_ns())},
          {"durNs", static_cast<double>(s.dur_at(id))}};
}

nlohmann::json gpu_fields(const TraceModel& m, uint32_t r) {
  const GpuOpTable& g = m.gpu_ops;
  const GpuConfig c = g.config_at(r);
  nlohmann::json j = {{"device", c.device}, {"stream", c.stream}};
  if (const int64_t bytes = g.bytes_at(r); bytes >= 0) j["bytes"] = bytes;
  const CollectiveArgs a = g.collective_args(r);
  if (a.collective) j["collective"] = str(m, a.collective);
  if (a.in_nelems >= 0) j["inNelems"] = a.in_nelems;
  if (a.out_nelems >= 0) j["outNelems"] = a.out_nelems;
  if (a.group_size > 0) j["groupSize"] = a.group_size;
  if (a.dtype) j["dtype"] = str(m, a.dtype);
  if (a.pg_name) j["pgName"] = str(m, a.pg_name);
  if (a.seq >= 0) j["seq"] = a.seq;
  if (c.grid[0]) j["grid"] = c.grid;
  if (c.block[0]) j["block"] = c.block;
  return j;
}

std::string display_text(const nlohmann::ordered_json& v) {
  std::string t =
      v.is_string() ? v.get<std::string>() : v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (t.size() > kMaxValueChars) t = t.substr(0, kMaxValueChars) + "…";
  return t;
}

}  // namespace

nlohmann::json event_details(const TimelineIndex& index, uint32_t id) {
  const TraceModel& m = index.model();
  const SliceTable& s = m.slices;
  if (id >= s.size()) return {{"error", "no such event"}};
  static const char* kClass[] = {"other",  "cpu_op",     "python", "runtime",     "compute",     "communication",
                                 "memory", "annotation", "sync",   "comm_hidden", "comm_exposed"};
  nlohmann::json j = slice_ref(index, id);
  j["cat"] = str(m, s.cat.at(id));
  j["kind"] = event_kind_name(s.kind_at(id));
  j["class"] = kClass[static_cast<int>(index.slice_class(id))];
  j["startAbsNs"] = std::to_string(s.ts_ns[id]);
  j["selfNs"] = static_cast<double>(index.self_ns(id));
  j["correlation"] = id_text(s.correlation_at(id));
  j["externalId"] = id_text(s.external_id_at(id));
  j["srcOffset"] = static_cast<double>(s.src_offset_at(id));
  j["srcLength"] = s.src_length_at(id);
  uint8_t f = s.flags[id];
  j["unclosed"] = (f & kSliceUnclosed) != 0;
  j["overlapping"] = (f & kSliceOverlapping) != 0;
  uint32_t lane = index.lane_of_model_track(s.track_at(id));
  j["laneName"] = lane < index.tracks().size() ? index.tracks()[lane].name : std::string();
  uint32_t row = index.gpu_op_row(id);
  if (row != UINT32_MAX) j["gpu"] = gpu_fields(m, row);
  // Launch <-> GPU op links (by correlation), then flows that are not the same link again.
  nlohmann::json links = nlohmann::json::array();
  for (const LaunchLink& l : m.launches) {
    if (l.launch_slice == id) links.push_back({{"dir", "kernel"}, {"to", slice_ref(index, l.gpu_slice)}});
    if (l.gpu_slice == id) links.push_back({{"dir", "launch"}, {"to", slice_ref(index, l.launch_slice)}});
  }
  for (const Flow& fl : m.flows) {
    if (fl.from_slice != id && fl.to_slice != id) continue;
    uint32_t other = fl.from_slice == id ? fl.to_slice : fl.from_slice;
    if (other >= s.size() || other == id) continue;
    bool dup = false;
    for (const auto& l : links) dup = dup || l["to"]["id"] == other;
    if (dup) continue;
    links.push_back({{"dir", fl.from_slice == id ? "flow_out" : "flow_in"}, {"to", slice_ref(index, other)}});
    if (links.size() >= 64) break;
  }
  j["links"] = std::move(links);
  return j;
}

nlohmann::json instant_details(const TimelineIndex& index, uint32_t id) {
  const TraceModel& m = index.model();
  const InstantTable& t = m.instants;
  if (id >= t.size()) return {{"error", "no such instant"}};
  static const char* kScope[] = {"thread", "process", "global"};
  uint32_t track = t.track[id];
  uint32_t lane = track < m.tracks.size() ? index.lane_of_model_track(track) : UINT32_MAX;
  return {{"instant", true},
          {"id", id},
          {"name", str(m, t.name[id])},
          {"cat", str(m, t.cat[id])},
          {"scope", kScope[static_cast<int>(t.scope[id])]},
          {"startNs", static_cast<double>(t.ts_ns[id] - index.origin_ns())},
          {"startAbsNs", std::to_string(t.ts_ns[id])},
          {"durNs", 0.0},
          {"lane", lane},
          {"depth", 0},
          {"laneName", lane < index.tracks().size() ? index.tracks()[lane].name : std::string()},
          {"srcOffset", static_cast<double>(t.src_offset[id])},
          {"srcLength", t.src_length[id]},
          {"links", nlohmann::json::array()}};
}

nlohmann::json event_args(const char* data, size_t size) {
  std::string text(data, size);
  repair_utf8(text);
  if (!json_nesting_within(text, kMaxShownNesting)) return {{"error", "the event is nested too deeply to show"}};
  nlohmann::ordered_json ev = nlohmann::ordered_json::parse(text, nullptr, false);
  if (ev.is_discarded() || !ev.is_object()) return {{"error", "the event's bytes are not a JSON object"}};
  nlohmann::json args = nlohmann::json::array(), fields = nlohmann::json::array();
  for (auto it = ev.begin(); it != ev.end(); ++it) {
    if (it.key() == "args" && it.value().is_object()) {
      for (auto a = it.value().begin(); a != it.value().end(); ++a)
        args.push_back({a.key(), display_text(a.value()), !a.value().is_string()});
    } else {
      fields.push_back({it.key(), display_text(it.value()), !it.value().is_string()});
    }
  }
  return {{"args", std::move(args)}, {"fields", std::move(fields)}};
}

}  // namespace tw
