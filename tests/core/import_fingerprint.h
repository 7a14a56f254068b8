// Test helpers for the importer that need no test framework (the doctest suites and the libFuzzer
// harness in bench/fuzz share them): import a text in chunks of any size, and a fingerprint of the
// whole imported model (every table, every column, strings by content, problems with offsets) so
// that two imports can be compared for identity.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <string_view>

#include "core/import/trace_importer.h"

namespace tw::test {

using ImporterPtr = std::unique_ptr<TraceImporter>;

// Feeds `text` in chunks whose sizes come from `next_size` (called until the text is used up).
// Every chunk is copied into its own exactly-sized heap block, so ASan catches reads past a chunk.
template <typename NextSize>
ImporterPtr import_chunked(std::string_view text, NextSize next_size) {
  auto imp = std::make_unique<TraceImporter>();
  size_t pos = 0;
  while (pos < text.size()) {
    size_t n = std::min<size_t>(std::max<size_t>(next_size(), 1), text.size() - pos);
    std::unique_ptr<char[]> chunk(new char[n]);
    std::copy(text.data() + pos, text.data() + pos + n, chunk.get());
    imp->push(chunk.get(), n);
    pos += n;
  }
  imp->finish();
  return imp;
}

inline ImporterPtr import_whole(std::string_view text) {
  return import_chunked(text, [&] { return text.size(); });
}

inline ImporterPtr import_random_chunks(std::string_view text, uint32_t seed, size_t max_chunk) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<size_t> dist(1, max_chunk);
  return import_chunked(text, [&] { return dist(rng); });
}

inline std::string str_of(const TraceModel& m, StringId id) {
  return id < m.strings.size() ? "\"" + std::string(m.strings.get(id)) + "\"" : "<bad id " + std::to_string(id) + ">";
}

// A deterministic text rendering of everything the import produced.
inline std::string fingerprint(TraceImporter& imp) {
  const ImportStats& st = imp.stats();
  const TraceModel& m = imp.model();
  std::string out;
  auto line = [&out](const std::string& s) { out += s, out += '\n'; };
  auto num = [](auto v) { return std::to_string(v); };
  // After a fatal problem the importer ignores further input, so the byte count depends on chunking.
  line("bytes " + (st.fatal ? std::string("-") : num(st.bytes)) + " events " + num(st.events) + " truncated " +
       num(st.truncated) + " fatal " + num(st.fatal) + " " + st.fatal_message);
  for (const auto& [ph, n] : st.phases) line("phase '" + ph + "' " + num(n));
  for (const auto& [name, p] : st.problems)
    line("problem " + name + " " + num(p.count) + " @" + num(p.first_offset) +
         (p.example.empty() ? "" : " " + p.example));
  if (st.fatal) return out;  // the model is not meaningful after a fatal problem
  const TraceMeta& me = m.meta;
  line("meta rank " + num(me.has_rank) + "/" + num(me.rank) + " world " + num(me.has_world_size) + "/" +
       num(me.world_size) + " backend " + me.backend + " pg " + me.pg_config_json + " unit " + me.display_time_unit +
       " base " + num(me.has_base_time) + "/" + num(me.base_time_ns) + " name " + me.trace_name + " schema " +
       num(me.schema_version));
  for (const DeviceInfo& d : me.devices)
    line("device " + num(d.id) + " " + d.name + " " + num(d.total_global_mem) + " " + num(d.compute_major) + "." +
         num(d.compute_minor) + " sms " + num(d.num_sms));
  line("time " + num(m.min_ts_ns) + " .. " + num(m.max_ts_ns));
  for (const Process& p : m.processes)
    line("process " + num(p.pid) + " " + str_of(m, p.pid_label) + " " + str_of(m, p.name) + " " + str_of(m, p.labels) +
         " sort " + num(p.has_sort_index) + "/" + num(p.sort_index));
  for (size_t ti = 0; ti < m.tracks.size(); ++ti) {
    const Track& t = m.tracks[ti];
    line("track kind " + num(int(t.kind)) + " proc " + num(t.process) + " tid " + num(t.tid) + " " +
         str_of(m, t.tid_label) + " " + str_of(m, t.name) + " sort " + num(t.has_sort_index) + "/" + num(t.sort_index) +
         " dev " + num(t.device) + " stream " + num(t.stream) + " depth " + num(t.max_depth) + " rows [" +
         num(m.slices.rows_of(ti).begin) + "," + num(m.slices.rows_of(ti).end) + ")");
  }
  const SliceTable& s = m.slices;
  for (size_t i = 0; i < s.size(); ++i)
    line("slice " + num(s.track_at(i)) + " " + num(s.ts_ns[i]) + "+" + num(s.dur_at(i)) + " " +
         str_of(m, s.name.at(i)) + " " + str_of(m, s.cat.at(i)) + " kind " + num(int(s.kind_at(i))) + " flags " +
         num(int(s.flags[i])) + " depth " + num(s.depth[i]) + " corr " + num(s.correlation_at(i)) + " ext " +
         num(s.external_id_at(i)) + " src " + num(s.src_offset_at(i)) + ":" + num(s.src_length_at(i)));
  const GpuOpTable& g = m.gpu_ops;
  for (uint32_t i = 0; i < g.size(); ++i) {
    const CollectiveArgs c = g.collective_args(i);
    const GpuConfig k = g.config_at(i);
    line("gpu " + num(g.slice[i]) + " dev " + num(k.device) + " stream " + num(k.stream) + " bytes " +
         num(g.bytes_at(i)) + " coll " + str_of(m, c.collective) + " in " + num(c.in_nelems) + " out " +
         num(c.out_nelems) + " group " + num(c.group_size) + " seq " + num(c.seq) + " " + str_of(m, c.dtype) + " " +
         str_of(m, c.pg_name) + " grid " + num(k.grid[0]) + "," + num(k.grid[1]) + "," + num(k.grid[2]) + " block " +
         num(k.block[0]) + "," + num(k.block[1]) + "," + num(k.block[2]));
  }
  const InstantTable& in = m.instants;
  for (size_t i = 0; i < in.size(); ++i)
    line("instant " + num(in.track[i]) + " " + num(in.ts_ns[i]) + " " + str_of(m, in.name[i]) + " " +
         str_of(m, in.cat[i]) + " scope " + num(int(in.scope[i])) + " src " + num(in.src_offset[i]) + ":" +
         num(in.src_length[i]));
  for (const CounterSeries& c : m.counters) {
    std::string l = "counter " + num(c.process) + " " + str_of(m, c.name);
    for (size_t i = 0; i < c.ts_ns.size(); ++i) {
      char buf[40];
      std::snprintf(buf, sizeof buf, "%.17g", c.value[i]);
      l += " " + num(c.ts_ns[i]) + "=" + buf;
    }
    line(l);
  }
  const MemoryTable& mem = m.memory;
  for (size_t i = 0; i < mem.size(); ++i)
    line("memory " + num(mem.ts_ns[i]) + " dev " + num(mem.device[i]) + " alloc " + num(mem.total_allocated[i]) +
         " reserved " + num(mem.total_reserved[i]) + " bytes " + num(mem.bytes[i]));
  for (const Flow& f : m.flows)
    line("flow " + num(f.from_slice) + " -> " + num(f.to_slice) + " " + str_of(m, f.cat) + " " + str_of(m, f.name));
  for (const LaunchLink& l : m.launches) line("launch " + num(l.launch_slice) + " -> " + num(l.gpu_slice));
  return out;
}

// The first line where two fingerprints differ (for readable failure messages).
inline std::string first_difference(const std::string& a, const std::string& b) {
  size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
  if (i == a.size() && i == b.size()) return "  (identical)";
  size_t start = i == 0 ? 0 : a.rfind('\n', i - 1);
  start = start == std::string::npos ? 0 : start + 1;
  auto line_at = [start](const std::string& s) {
    size_t end = s.find('\n', start);
    return start >= s.size() ? std::string("<end>") : s.substr(start, end - start);
  };
  return "  expected: " + line_at(a) + "\n  got:      " + line_at(b);
}

}  // namespace tw::test
