#include "cli/info.h"

#include <cstdio>

namespace tw {

namespace {

using nlohmann::json;

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

// Durations in the unit a reader expects for their size.
std::string dur(const json& ns) {
  if (!ns.is_number()) return "-";
  double v = ns.get<double>();
  if (v >= 1e9) return fmt("%.3f s", v / 1e9);
  if (v >= 1e6) return fmt("%.3f ms", v / 1e6);
  if (v >= 1e3) return fmt("%.3f us", v / 1e3);
  return fmt("%.0f ns", v);
}

std::string pct(const json& p) { return p.is_number() ? fmt("%.2f %%", p.get<double>()) : std::string("-"); }

std::string clip(std::string s, size_t n) { return s.size() <= n ? s : s.substr(0, n - 3) + "..."; }

void analysis_lines(const json& f, std::string& o) {
  const json& v = f.value("verdict", json());
  if (v.is_object() && v["sentence"].is_string()) o += "verdict:     " + v["sentence"].get<std::string>() + "\n";
  const json& t = f.value("temporal", json());
  if (t.is_object()) {
    o += "GPU time:    span " + dur(t["span_ns"]) + ", idle " + pct(t["idle_pct"]) + ", compute " +
         pct(t["compute_pct"]) + ", non-compute " + pct(t["non_compute_pct"]) + "\n";
  } else {
    o += "GPU time:    no GPU work in this trace\n";
  }
  const json& ov = f.value("overlap", json());
  if (ov.is_object() && ov["communication_ns"].is_number() && ov["communication_ns"].get<int64_t>() > 0)
    o += "comm:        " + dur(ov["communication_ns"]) + ", " + pct(ov["pct"]) + " hidden under compute, " +
         dur(ov["exposed_ns"]) + " exposed\n";
  const json& sb = f.value("step_breakdown", json());
  if (sb.is_object() && sb.value("count", 0) > 0)
    o += "steps:       " + std::to_string(sb["count"].get<int64_t>()) + ", mean " + dur(sb["mean_ns"]) + ", max " +
         dur(sb["max_ns"]) + "\n";
  const json& k = f.value("kernels", json());
  if (k.is_object() && k["top"].is_array() && !k["top"].empty()) {
    o += "top kernels:\n";
    int n = 0;
    for (const json& row : k["top"]) {
      if (n++ == 5) break;
      o += "  " + fmt("%5.1f %%", 100.0 * row.value("share", 0.0)) + "  " + dur(row["total_ns"]) + "  " +
           std::to_string(row.value("count", 0)) + "x  " + clip(row.value("name", std::string()), 90) + "\n";
    }
  }
  const json& recs = f.value("recommendations", json());
  if (recs.is_array() && !recs.empty()) {
    o += "recommendations:\n";
    for (const json& r : recs)
      o += "  [" + r.value("severity", std::string()) + "] " + r.value("text", std::string()) + "\n";
  }
}

}  // namespace

std::string info_text(Session& s) {
  const TraceModel& m = s.model();
  const ImportStats& st = s.stats();
  std::string o;
  o += "events:      " + std::to_string(st.events) + (st.truncated ? " (file truncated)" : "") + "\n";
  if (st.recovered_regions > 0)
    o += "damaged:     " + std::to_string(st.recovered_regions) + " span(s), " + std::to_string(st.recovered_bytes) +
         " bytes skipped, the first at byte " + std::to_string(st.recovered_first_offset) + "\n";
  o += "phases:     ";
  for (const auto& [ph, n] : st.phases) o += " " + (ph.empty() ? std::string("<none>") : ph) + ":" + std::to_string(n);
  o += "\n";
  o += "span:        " + fmt("%.3f ms", double(m.max_ts_ns - m.min_ts_ns) / 1e6) + "\n";
  o += "rank:        " + (m.meta.has_rank ? std::to_string(m.meta.rank) : std::string("-"));
  if (m.meta.has_world_size) o += " of " + std::to_string(m.meta.world_size);
  o += "\n";
  o += "processes:   " + std::to_string(m.processes.size()) + ", tracks: " + std::to_string(m.tracks.size()) + "\n";
  o += "slices:      " + std::to_string(m.slices.size()) + " (GPU ops " + std::to_string(m.gpu_ops.size()) +
       ", launch links " + std::to_string(m.launches.size()) + ", flows " + std::to_string(m.flows.size()) + ")\n";
  for (const DeviceInfo& d : m.meta.devices)
    o += "device " + std::to_string(d.id) + ":    " + d.name +
         fmt(", %.1f GiB", double(d.total_global_mem) / (1 << 30)) + "\n";
  if (!st.problems.empty()) {
    o += "problems:\n";
    for (const auto& [name, p] : st.problems)
      o += "  " + name + ": " + std::to_string(p.count) + " (first at byte " + std::to_string(p.first_offset) + ")\n";
  }
  o += "model size:  " + fmt("%.1f MB", double(m.memory_bytes()) / 1e6) + "\n";
  analysis_lines(s.file_summary(), o);
  return o;
}

}  // namespace tw
