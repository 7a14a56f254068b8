#include "cli/job_info.h"

#include <cstdio>

#include "core/analysis/recommendations.h"

namespace tw {

namespace {

using nlohmann::json;

std::string ns_text(const json& v) { return v.is_number_integer() ? format_duration(v.get<int64_t>()) : "-"; }

std::string pad(std::string s, size_t n) {
  if (s.size() < n) s.append(n - s.size(), ' ');
  return s;
}

std::string gbps(const json& v) {
  if (!v.is_number()) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GB/s", v.get<double>());
  return buf;
}

}  // namespace

std::string job_info_text(const json& doc) {
  std::string o;
  const json& files = doc.value("files", json::array());
  o += "files:\n";
  for (const json& f : files) {
    const json& v = f.value("verdict", json());
    o += "  " + pad(f.value("name", std::string()), 40) + " rank " +
         (f["rank"].is_number_integer() ? std::to_string(f["rank"].get<int64_t>()) : std::string("-")) + "  " +
         (v.is_object() && v["limiter"].is_string() ? v["limiter"].get<std::string>() : std::string("-")) + "\n";
  }
  const json& job = doc.value("job", json());
  if (!job.is_object()) return o;
  const json& verdict = job.value("verdict", json());
  if (verdict.is_object() && verdict["sentence"].is_string())
    o += "job:         " + verdict["sentence"].get<std::string>() + "\n";
  const json& clock = job.value("clock", json());
  if (clock.is_object())
    o += std::string("clocks:      ") +
         (clock.value("aligned", false)
              ? "aligned on the ends of matched collectives (reference " + clock.value("reference", std::string()) + ")"
              : "as written (no collective matched across ranks)") +
         "\n";
  const json& ranks = job.value("ranks", json::array());
  if (ranks.is_array() && !ranks.empty()) {
    o += "ranks:       label        step        wait        transfer    late (mean)  last  clock offset (residual)\n";
    for (const json& r : ranks)
      o += "             " + pad(r.value("label", std::string()), 12) + " " + pad(ns_text(r["step_ns"]), 11) + " " +
           pad(ns_text(r["wait_ns"]), 11) + " " + pad(ns_text(r["transfer_ns"]), 11) + " " +
           pad(ns_text(r["late_ns"]), 12) + " " + pad(std::to_string(r.value("last_arrivals", 0)), 5) + " " +
           ns_text(r["clock_offset_ns"]) + " (" + ns_text(r["clock_residual_ns"]) + ")\n";
  }
  const json& stragglers = job.value("stragglers", json::array());
  if (stragglers.is_array()) {
    if (stragglers.empty() && ranks.is_array() && !ranks.empty()) o += "stragglers:  none\n";
    for (const json& s : stragglers) o += "straggler:   " + s.value("reason", std::string()) + "\n";
  }
  const json& c = job.value("collectives", json());
  if (c.is_object()) {
    o += "collectives: " + std::to_string(c.value("instances", 0)) + " instances, " +
         std::to_string(c.value("matched", 0)) + " matched, " + std::to_string(c.value("mismatched", 0)) +
         " mismatched, " + std::to_string(c.value("partial", 0)) + " on some ranks only\n";
    for (const json& g : c.value("by_op_group", json::array()))
      o += "  " + pad(g.value("op", std::string()), 14) + " group " + pad(g.value("group", std::string()), 10) + " " +
           std::to_string(g.value("count", 0)) + "x  transfer " + ns_text(g["mean_transfer_ns"]) + "  skew mean " +
           ns_text(g["mean_skew_ns"]) + ", max " + ns_text(g["max_skew_ns"]) + "  busbw " + gbps(g["busbw_gbps"]) +
           "\n";
    for (const json& m : c.value("mismatches", json::array()))
      o += "  mismatch: " + m.value("op", std::string()) + " #" + std::to_string(m.value("n", 0)) + " of group " +
           m.value("group", std::string()) + ": " + m.value("problem", std::string()) + "\n";
  }
  for (const json& n : job.value("notes", json::array()))
    if (n.is_string()) o += "note:        " + n.get<std::string>() + "\n";
  return o;
}

}  // namespace tw
