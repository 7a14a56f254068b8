#include "core/calltree/annotations.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>

#include "core/analysis/intervals.h"
#include "core/analysis/steps.h"
#include "core/calltree/annotation_overlaps.h"

namespace tw {
namespace {

constexpr std::string_view kModulePrefix = "nn.Module: ";

struct OpenSpan {
  int64_t begin, end;
  uint32_t row;  // into the result rows
  uint32_t track;
};

void add_stream(std::vector<StreamTime>& v, int32_t device, int64_t stream, int64_t ns) {
  for (StreamTime& s : v)
    if (s.device == device && s.stream == stream) {
      s.ns += ns;
      return;
    }
  v.push_back({device, stream, ns});
}

}  // namespace

AnnotationsResult annotation_stats(const TraceModel& m) {
  AnnotationsResult r;
  const SliceTable& s = m.slices;
  std::vector<uint32_t> row_of_name(m.strings.size(), UINT32_MAX);
  std::vector<int8_t> kind_of_name(m.strings.size(), -1);  // 0 none, 1 annotation, 2 module
  auto annotation_row = [&](uint32_t i) -> uint32_t {
    const StringId n = s.name.at(i);
    if (s.kind_at(i) != EventKind::kUserAnnotation && s.kind_at(i) != EventKind::kPythonFunction) return UINT32_MAX;
    if (kind_of_name[n] < 0) {
      const std::string_view text = m.strings.get(n);
      int64_t step = 0;
      if (s.kind_at(i) == EventKind::kUserAnnotation) kind_of_name[n] = parse_profiler_step_name(text, &step) ? 0 : 1;
      else kind_of_name[n] = text.substr(0, kModulePrefix.size()) == kModulePrefix ? 2 : 0;
    }
    // A name written both as an annotation and as a module frame is one row, either way.
    if (kind_of_name[n] == 0) return UINT32_MAX;
    if (row_of_name[n] == UINT32_MAX) {
      row_of_name[n] = static_cast<uint32_t>(r.rows.size());
      r.rows.push_back({});
      r.rows.back().name = n;
      r.rows.back().module = kind_of_name[n] == 2;
    }
    return row_of_name[n];
  };

  // CPU side, and every annotation span per process for launches from other threads.
  std::unordered_map<uint32_t, std::vector<OpenSpan>> spans_by_process;
  for (uint32_t t = 0; t < m.tracks.size(); ++t) {
    const Track& tr = m.tracks[t];
    if (tr.kind != TrackKind::kThread) continue;
    const auto [begin, end] = s.rows_of(t);
    for (uint32_t i = begin; i < end; ++i) {
      const uint32_t row = annotation_row(i);
      if (row == UINT32_MAX) continue;
      r.rows[row].count++;
      r.rows[row].cpu_ns += s.dur_at(i);
      spans_by_process[tr.process].push_back({s.ts_ns[i], s.end_ns(i), row, t});
    }
  }
  for (auto& [p, v] : spans_by_process)
    std::sort(v.begin(), v.end(), [](const OpenSpan& a, const OpenSpan& b) { return a.begin < b.begin; });

  // Each launched GPU op: its own thread's enclosing annotations, else the other threads' open ones.
  // The launches of each annotation (not module) row: the GPU spans of the top names are read from
  // them at the end, so a launch costs 4 bytes per enclosing annotation, not an interval too.
  std::vector<std::vector<uint32_t>> op_ids(r.rows.size());
  auto attribute = [&](uint32_t li, const std::vector<uint32_t>& rows, bool other_thread) {
    const LaunchLink& l = m.launches[li];
    const uint32_t gpu_track = s.track_at(l.gpu_slice);
    const Track* gt = gpu_track < m.tracks.size() ? &m.tracks[gpu_track] : nullptr;
    for (uint32_t row : rows) {
      AnnotationStat& a = r.rows[row];
      a.gpu_ops++;
      a.gpu_ns += s.dur_at(l.gpu_slice);
      a.gpu_ops_other_thread += other_thread;
      add_stream(a.gpu_by_stream, gt ? gt->device : -1, gt ? gt->stream : -1, s.dur_at(l.gpu_slice));
      if (a.module) continue;  // modules take no part in the overlap pairs below: their ops are not kept
      op_ids[row].push_back(li);
    }
  };
  struct Orphan {
    int64_t at;
    uint32_t launch, track;
  };
  std::unordered_map<uint32_t, std::vector<Orphan>> orphans_by_process;  // launches under no annotation
  std::vector<uint32_t> rows;
  for (uint32_t li = 0; li < m.launches.size(); ++li) {
    const LaunchLink& l = m.launches[li];
    if (l.launch_slice >= s.size() || l.gpu_slice >= s.size()) continue;
    rows.clear();
    for (uint32_t p = s.parent[l.launch_slice]; p != kNoParent && p < s.size(); p = s.parent[p]) {
      const uint32_t row = annotation_row(p);
      if (row != UINT32_MAX && std::find(rows.begin(), rows.end(), row) == rows.end()) rows.push_back(row);
    }
    const uint32_t track = s.track_at(l.launch_slice);
    if (!rows.empty()) attribute(li, rows, false);
    else if (track < m.tracks.size() && spans_by_process.count(m.tracks[track].process))
      orphans_by_process[m.tracks[track].process].push_back({s.ts_ns[l.launch_slice], li, track});
  }
  // One sweep per process over its annotation spans and orphan launches, both in time order: the
  // spans open at a launch are few (nesting depth times threads).
  for (auto& [process, orphans] : orphans_by_process) {
    auto it = spans_by_process.find(process);
    if (it == spans_by_process.end()) continue;
    const std::vector<OpenSpan>& spans = it->second;
    std::sort(orphans.begin(), orphans.end(),
              [](const Orphan& a, const Orphan& b) { return a.at != b.at ? a.at < b.at : a.launch < b.launch; });
    std::vector<OpenSpan> open;
    size_t next = 0;
    for (const Orphan& o : orphans) {
      while (next < spans.size() && spans[next].begin <= o.at) open.push_back(spans[next++]);
      open.erase(std::remove_if(open.begin(), open.end(), [&](const OpenSpan& x) { return x.end <= o.at; }),
                 open.end());
      rows.clear();
      for (const OpenSpan& x : open)
        if (x.track != o.track && std::find(rows.begin(), rows.end(), x.row) == rows.end()) rows.push_back(x.row);
      if (!rows.empty()) attribute(o.launch, rows, true);
    }
  }
  orphans_by_process = {}, spans_by_process = {};  // freed before the GPU spans are united

  // GPU side: busy time of each stream inside its gpu_user_annotation spans, by name.
  std::vector<uint32_t> spans;  // a stream's annotation slices with a row
  std::vector<UnionLengthBefore::Query> queries;
  std::vector<int64_t> busy_before;
  for (uint32_t t = 0; t < m.tracks.size(); ++t) {
    const Track& tr = m.tracks[t];
    if (tr.kind != TrackKind::kGpuStream) continue;
    const auto [begin, end] = s.rows_of(t);
    spans.clear();
    for (uint32_t i = begin; i < end; ++i) {
      if (s.kind_at(i) != EventKind::kGpuUserAnnotation) continue;
      const StringId n = s.name.at(i);
      // No CPU annotation of that name (or a ProfilerStep): no row.
      if (n < row_of_name.size() && row_of_name[n] != UINT32_MAX) spans.push_back(i);
    }
    if (spans.empty()) continue;
    queries.clear();
    for (uint32_t k = 0; k < spans.size(); ++k) {
      queries.push_back({s.ts_ns[spans[k]], 2 * k});
      queries.push_back({s.end_ns(spans[k]), 2 * k + 1});
    }
    // The stream's busy time before each span's two ends, its ops united as they come (a track's
    // slices are in start order): the stream's busy intervals are never held.
    busy_before.assign(queries.size(), 0);
    UnionLengthBefore busy(queries, busy_before);
    for (uint32_t i = begin; i < end; ++i)
      if (s.kind_at(i) == EventKind::kKernel || s.kind_at(i) == EventKind::kMemcpy ||
          s.kind_at(i) == EventKind::kMemset)
        busy.add({s.ts_ns[i], s.end_ns(i)});
    busy.finish();
    for (uint32_t k = 0; k < spans.size(); ++k)
      add_stream(r.rows[row_of_name[s.name.at(spans[k])]].gpu_side, tr.device, tr.stream,
                 std::max<int64_t>(0, busy_before[2 * k + 1] - busy_before[2 * k]));
  }

  r.overlaps = annotation_overlaps(m, r.rows, op_ids);

  std::sort(r.rows.begin(), r.rows.end(), [&](const AnnotationStat& a, const AnnotationStat& b) {
    if (a.gpu_ns != b.gpu_ns) return a.gpu_ns > b.gpu_ns;
    if (a.cpu_ns != b.cpu_ns) return a.cpu_ns > b.cpu_ns;
    return m.strings.get(a.name) < m.strings.get(b.name);
  });
  return r;
}

}  // namespace tw
