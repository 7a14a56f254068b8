#include "core/summary/summary.h"

#include "core/summary/analysis_sections.h"
#include "core/summary/job_summary.h"

namespace tw {

namespace {

nlohmann::json import_section(const ImportStats& st) {
  nlohmann::json imp = nlohmann::json::object();
  imp["events"] = st.events;
  imp["bytes_read"] = st.bytes;
  nlohmann::json phases = nlohmann::json::object();
  for (const auto& [ph, n] : st.phases) phases[ph] = n;
  imp["phases"] = phases;
  nlohmann::json problems = nlohmann::json::object();
  nlohmann::json first = nlohmann::json::object();
  for (const auto& [name, p] : st.problems) {
    problems[name] = p.count;
    first[name] = p.first_offset;
  }
  imp["problems"] = problems;
  imp["problem_first_offsets"] = first;
  nlohmann::json invalid = nlohmann::json::object();
  for (const char* name : kInvalidJsonProblems) {
    auto it = st.problems.find(name);
    if (it == st.problems.end()) continue;
    const ProblemCount& p = it->second;
    invalid[name] = {{"count", p.count}, {"first_offset", p.first_offset}, {"example", p.example}};
  }
  imp["invalid"] = invalid;
  imp["truncated"] = st.truncated;
  // Only when something was skipped: an undamaged file's summary keeps its shape.
  if (st.recovered_regions > 0)
    imp["recovered"] = {{"regions", st.recovered_regions},
                        {"skipped_bytes", st.recovered_bytes},
                        {"first_offset", st.recovered_first_offset}};
  return imp;
}

nlohmann::json devices_section(const TraceModel& m) {
  nlohmann::json devs = nlohmann::json::array();
  for (const DeviceInfo& d : m.meta.devices) {
    devs.push_back({{"id", d.id},
                    {"name", d.name},
                    {"total_global_mem", d.total_global_mem},
                    {"compute_capability", std::to_string(d.compute_major) + "." + std::to_string(d.compute_minor)},
                    {"num_sms", d.num_sms}});
  }
  return devs;
}

nlohmann::json model_section(const TraceModel& m) {
  size_t gpu_tracks = 0, thread_tracks = 0;
  for (const Track& t : m.tracks) {
    if (t.kind == TrackKind::kGpuStream) ++gpu_tracks;
    if (t.kind == TrackKind::kThread) ++thread_tracks;
  }
  nlohmann::json j = nlohmann::json::object();
  j["processes"] = m.processes.size();
  j["tracks"] = m.tracks.size();
  j["thread_tracks"] = thread_tracks;
  j["gpu_stream_tracks"] = gpu_tracks;
  j["slices"] = m.slices.size();
  j["gpu_ops"] = m.gpu_ops.size();
  j["instants"] = m.instants.size();
  j["counter_series"] = m.counters.size();
  j["memory_samples"] = m.memory.size();
  j["flows"] = m.flows.size();
  j["launch_links"] = m.launches.size();
  j["first_ts_ns"] = m.min_ts_ns;
  j["last_ts_ns"] = m.max_ts_ns;
  return j;
}

}  // namespace

nlohmann::json file_summary(const FileInput& in, const SummaryOptions& opts) {
  const TraceModel& m = *in.model;
  nlohmann::json f = nlohmann::json::object();
  f["name"] = in.name;
  f["bytes"] = in.bytes;
  f["import"] = import_section(*in.stats);
  f["rank"] = m.meta.has_rank ? nlohmann::json(m.meta.rank) : nlohmann::json(nullptr);
  f["world_size"] = m.meta.has_world_size ? nlohmann::json(m.meta.world_size) : nlohmann::json(nullptr);
  f["devices"] = devices_section(m);
  f["model"] = model_section(m);
  f["display_time_unit"] = m.meta.display_time_unit.empty() ? "ms" : m.meta.display_time_unit;
  add_analysis_sections(f, m, opts);
  return f;
}

nlohmann::json summary_document(const std::vector<nlohmann::json>& files, const std::vector<RankRecord>* records) {
  nlohmann::json doc = nlohmann::json::object();
  doc["schema"] = "tracewise.summary/1";
  doc["files"] = files;
  if (files.size() >= 2) doc["job"] = job_summary(files, records);  // one file is its own job: its verdict says it
  return doc;
}

std::string dump_json(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace tw
