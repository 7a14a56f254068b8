// Test helpers for core/timeline: build a TraceModel directly (no JSON) so that large generated
// models stay cheap, and import real test traces through the Session facade.
#pragma once
#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <string>

#include "cli/file_reader.h"
#include "core/model/finalize.h"
#include "core/session.h"
#include "tests/core/test_data.h"

namespace tw::test {

struct ModelBuilder {
  TraceModel m;
  GpuConfigIndex configs;  // of m.gpu_ops.configs
  bool any = false;

  uint32_t process(int64_t pid, const std::string& name, const std::string& labels = "") {
    Process p;
    p.pid = pid;
    p.name = m.strings.intern(name);
    p.labels = m.strings.intern(labels);
    m.processes.push_back(p);
    return static_cast<uint32_t>(m.processes.size() - 1);
  }
  uint32_t track(uint32_t proc, int64_t tid, TrackKind kind = TrackKind::kThread, const std::string& name = "") {
    Track t;
    t.kind = kind;
    t.process = proc;
    t.tid = tid;
    t.name = m.strings.intern(name);
    if (kind == TrackKind::kGpuStream) t.stream = tid, t.device = static_cast<int32_t>(m.processes[proc].pid);
    m.tracks.push_back(t);
    return static_cast<uint32_t>(m.tracks.size() - 1);
  }
  uint32_t slice(uint32_t track, int64_t ts, int64_t dur, const std::string& name, EventKind kind = EventKind::kOther,
                 int64_t correlation = kNoId) {
    SliceTable& s = m.slices;
    s.ts_ns.push_back(ts);
    s.dur.push_back(dur);
    s.track.push_back(track);
    s.name.push_back(m.strings.intern(name));
    // A slice's kind is its category's: one category per kind, "" for kOther.
    const StringId cat = kind == EventKind::kOther ? 0 : m.strings.intern("kind " + std::to_string(int(kind)));
    s.cat.push_back(cat);
    if (cat >= s.cat_kinds.size()) s.cat_kinds.resize(size_t(cat) + 1, EventKind::kOther);
    s.cat_kinds[cat] = kind;
    s.flags.push_back(0);
    s.depth.push_back(0);
    s.ids.push_back(correlation, kNoId);
    s.src.push_back(0, 0);
    m.min_ts_ns = any ? std::min(m.min_ts_ns, ts) : ts;
    m.max_ts_ns = any ? std::max(m.max_ts_ns, ts) : ts;
    any = true;
    if (kind == EventKind::kKernel || kind == EventKind::kMemcpy || kind == EventKind::kMemset) {
      GpuOpTable& g = m.gpu_ops;
      GpuConfig c;
      c.device = m.tracks[track].device, c.stream = m.tracks[track].stream;
      g.push_back(static_cast<uint32_t>(s.size() - 1), configs.intern(g.configs, c), -1);
    }
    return static_cast<uint32_t>(s.size() - 1);
  }
  TraceModel& finish() {
    PendingLinks links;
    ImportStats stats;
    finalize_model(m, links, stats);
    return m;
  }
};

// Index of the first slice with this name in the sorted slice table, or UINT32_MAX.
inline uint32_t find_slice(const TraceModel& m, const std::string& name) {
  StringId id = m.strings.find(name);
  for (uint32_t i = 0; i < m.slices.size(); ++i)
    if (m.slices.name.at(i) == id && id) return i;
  return UINT32_MAX;
}

// Imports a test trace (tests/core/test_data.h); nullptr when the file is not there.
inline std::unique_ptr<Session> import_data_trace(const std::string& rel) {
  auto s = std::make_unique<Session>(rel);
  ReadResult r = stream_file(data_path(rel), [&s](const char* d, size_t n) { s->push(d, n); });
  if (!r.ok) return nullptr;
  s->finish();
  return s;
}

}  // namespace tw::test
