#include "cli/info.h"

#include <cstdio>

namespace tw {

namespace {
std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}
}  // namespace

std::string info_text(Session& s) {
  const TraceModel& m = s.model();
  const ImportStats& st = s.stats();
  std::string o;
  o += "events:      " + std::to_string(st.events) + (st.truncated ? " (file truncated)" : "") + "\n";
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
    o += "device " + std::to_string(d.id) + ":    " + d.name + fmt(", %.1f GiB", double(d.total_global_mem) / (1 << 30)) + "\n";
  if (!st.problems.empty()) {
    o += "problems:\n";
    for (const auto& [name, p] : st.problems)
      o += "  " + name + ": " + std::to_string(p.count) + " (first at byte " + std::to_string(p.first_offset) + ")\n";
  }
  o += "model size:  " + fmt("%.1f MB", double(m.memory_bytes()) / 1e6) + "\n";
  return o;
}

}  // namespace tw
