#include "core/timeline/track_list.h"

#include <algorithm>
#include <map>
#include <span>
#include <tuple>
#include <utility>

namespace tw {

namespace {

std::string str(const TraceModel& m, StringId id) { return std::string(m.strings.get(id)); }

std::string process_label(const TraceModel& m, const Process& p) {
  std::string pid = p.pid_label ? str(m, p.pid_label) : std::to_string(p.pid);
  std::string name = str(m, p.name), labels = str(m, p.labels);
  if (!labels.empty() && !name.empty()) return labels + " (" + name + ", pid " + pid + ")";
  if (!labels.empty()) return labels + " (pid " + pid + ")";
  if (!name.empty()) return name + " (pid " + pid + ")";
  return "Process " + pid;
}

std::string track_label(const TraceModel& m, const Track& t) {
  std::string name = str(m, t.name);
  std::string tid = t.tid_label ? str(m, t.tid_label) : std::to_string(t.tid);
  if (t.kind == TrackKind::kGpuStream) {
    std::string stream = "stream " + std::to_string(t.stream >= 0 ? t.stream : t.tid);
    // Kineto names GPU rows "stream 7 " or with a suffix; keep a non-trivial name, else ours.
    while (!name.empty() && name.back() == ' ') name.pop_back();
    return name.empty() ? stream : name;
  }
  // Kineto names threads "thread 1166 (python3)": the tid is already in the name.
  if (!name.empty()) return name.find(tid) != std::string::npos ? name : name + " " + tid;
  if (t.tid_label) return tid;  // a tid written as text is a name of its own
  return (t.kind == TrackKind::kAsync ? "async " : "thread ") + tid;
}

// Ids (tracks or counters) by process, in id order: a counting sort.
class ByProcess {
 public:
  explicit ByProcess(size_t processes) : offset_(processes + 2, 0) {}
  void add(uint32_t process, uint32_t id) {
    if (process + 1 >= offset_.size()) return;  // no such process
    pairs_.push_back({process, id});
    ++offset_[process + 2];
  }
  void group() {
    for (size_t p = 2; p < offset_.size(); ++p) offset_[p] += offset_[p - 1];
    ids_.resize(pairs_.size());
    for (auto [p, id] : pairs_) ids_[offset_[p + 1]++] = id;
    pairs_.clear();
    pairs_.shrink_to_fit();
  }
  std::span<uint32_t> of(uint32_t p) { return {ids_.data() + offset_[p], offset_[p + 1] - offset_[p]}; }

 private:
  std::vector<uint32_t> offset_;  // after group(): process p's ids are [offset_[p], offset_[p + 1])
  std::vector<std::pair<uint32_t, uint32_t>> pairs_;
  std::vector<uint32_t> ids_;
};

}  // namespace

void TimelineIndex::build_tracks() {
  const TraceModel& m = m_;
  lane_of_track_.assign(m.tracks.size(), UINT32_MAX);
  group_of_process_.assign(m.processes.size(), UINT32_MAX);
  // Process order: sort index when given (Kineto gives one to every process), then pid.
  std::vector<uint32_t> procs(m.processes.size());
  for (uint32_t i = 0; i < procs.size(); ++i) procs[i] = i;
  std::stable_sort(procs.begin(), procs.end(), [&m](uint32_t a, uint32_t b) {
    const Process &pa = m.processes[a], &pb = m.processes[b];
    int64_t ka = pa.has_sort_index ? pa.sort_index : pa.pid, kb = pb.has_sort_index ? pb.sort_index : pb.pid;
    return std::tie(ka, pa.pid) < std::tie(kb, pb.pid);
  });
  // Per process: its tracks in order (sort index, then GPU stream / tid), then its counters. A
  // thread with instants only gets a lane too (a one-row lane for its markers).
  // (By process in one array each: a map of vectors made a million allocations for a million processes.)
  ByProcess tracks_of(m.processes.size()), counters_of(m.processes.size());
  for (uint32_t t = 0; t < m.tracks.size(); ++t)
    if (!m.slices.rows_of(t).empty() || instants_.track_has_instants(t)) tracks_of.add(m.tracks[t].process, t);
  for (uint32_t c = 0; c < m.counters.size(); ++c)
    if (!series_[c].ts_ns.empty()) counters_of.add(m.counters[c].process, c);
  tracks_of.group();
  counters_of.group();
  std::map<int32_t, uint32_t> overlap_of_device;
  for (uint32_t k = 0; k < overlap_.size(); ++k) overlap_of_device[overlap_[k].device] = k;

  for (uint32_t p : procs) {
    std::span<uint32_t> tl = tracks_of.of(p), cl = counters_of.of(p);
    if (tl.empty() && cl.empty()) continue;
    std::stable_sort(tl.begin(), tl.end(), [&m](uint32_t a, uint32_t b) {
      const Track &ta = m.tracks[a], &tb = m.tracks[b];
      int64_t ka =
          ta.has_sort_index ? ta.sort_index : (ta.kind == TrackKind::kGpuStream && ta.stream >= 0 ? ta.stream : ta.tid);
      int64_t kb =
          tb.has_sort_index ? tb.sort_index : (tb.kind == TrackKind::kGpuStream && tb.stream >= 0 ? tb.stream : tb.tid);
      return std::tie(ka, ta.tid) < std::tie(kb, tb.tid);
    });
    TimelineGroup g;
    g.name = process_label(m, m.processes[p]);
    g.pid = m.processes[p].pid;
    g.process = p;
    uint32_t gi = static_cast<uint32_t>(groups_.size());
    group_of_process_[p] = gi;
    int32_t device = -1;
    for (uint32_t t : tl)
      if (m.tracks[t].kind == TrackKind::kGpuStream) {
        g.gpu = true;
        if (device < 0) device = m.tracks[t].device >= 0 ? m.tracks[t].device : -1;
      }
    groups_.push_back(g);
    if (g.gpu && overlap_of_device.count(device)) {
      uint32_t k = overlap_of_device[device];
      tracks_.push_back({LaneKind::kOverlap, gi, k, "comm overlap (GPU " + std::to_string(device) + ")", 3});
      overlap_of_device.erase(device);
    }
    for (uint32_t t : tl) {
      lane_of_track_[t] = static_cast<uint32_t>(tracks_.size());
      tracks_.push_back({LaneKind::kSlices, gi, t, track_label(m, m.tracks[t]), std::max(1u, depth_rows(t))});
    }
    for (uint32_t c : cl) tracks_.push_back({LaneKind::kCounter, gi, c, str(m, m.counters[c].name), 1});
  }
  // Overlap lanes whose device has no GPU process of its own, and memory, in a group of their own.
  uint32_t mem_group = static_cast<uint32_t>(groups_.size());
  bool used = false;
  for (auto& [device, k] : overlap_of_device) {
    tracks_.push_back({LaneKind::kOverlap, mem_group, k, "comm overlap (GPU " + std::to_string(device) + ")", 3});
    used = true;
  }
  size_t first_mem = m.counters.size();
  for (size_t d = 0; d < memory_series_device_.size(); ++d) {
    int32_t dev = static_cast<int32_t>(memory_series_device_[d]);
    std::string where = dev < 0 ? "CPU" : "GPU " + std::to_string(dev);
    uint32_t s = static_cast<uint32_t>(first_mem + 2 * d);
    tracks_.push_back({LaneKind::kMemory, mem_group, s, "allocated (" + where + ")", 1});
    tracks_.push_back({LaneKind::kMemory, mem_group, s + 1, "reserved (" + where + ")", 1});
    used = true;
  }
  if (used) groups_.push_back({memory_series_device_.empty() ? "Derived" : "Memory", -1, false, UINT32_MAX});
}

nlohmann::json tracks_json(const TimelineIndex& index) {
  static const char* kKinds[] = {"slices", "counter", "memory", "overlap"};
  nlohmann::json j;
  j["originNs"] = std::to_string(index.origin_ns());
  j["endNs"] = static_cast<double>(index.end_ns() - index.origin_ns());
  nlohmann::json groups = nlohmann::json::array();
  for (const TimelineGroup& g : index.groups()) groups.push_back({{"name", g.name}, {"pid", g.pid}, {"gpu", g.gpu}});
  j["groups"] = std::move(groups);
  nlohmann::json tracks = nlohmann::json::array();
  for (size_t i = 0; i < index.tracks().size(); ++i) {
    const TimelineTrack& t = index.tracks()[i];
    tracks.push_back({{"id", i},
                      {"group", t.group},
                      {"kind", kKinds[static_cast<int>(t.kind)]},
                      {"name", t.name},
                      {"rows", t.rows}});
  }
  j["tracks"] = std::move(tracks);
  return j;
}

}  // namespace tw
