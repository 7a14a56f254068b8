#include "core/analysis/launches.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>

#include "core/analysis/gpu_op_launch.h"
#include "core/analysis/slice_parents.h"

namespace tw {

namespace {

const char* const kSyncKindNames[] = {"device_synchronize", "stream_synchronize", "event_synchronize",
                                      "blocking_memcpy"};

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// Nearest-rank percentiles with nth_element (O(n)); v is reordered.
int64_t nth(std::vector<int64_t>& v, double p) {
  double rank = p / 100.0 * static_cast<double>(v.size());
  size_t k = static_cast<size_t>(rank);
  if (static_cast<double>(k) < rank) ++k;
  k = std::min(std::max<size_t>(k, 1), v.size()) - 1;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k];
}

Distribution distribution(std::vector<int64_t>& v) {
  Distribution d;
  if (v.empty()) return d;
  d.count = v.size();
  auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  d.min_ns = *lo;
  d.max_ns = *hi;
  double sum = 0;
  for (int64_t x : v) sum += static_cast<double>(x);
  d.mean_ns = sum / static_cast<double>(v.size());
  d.p50_ns = nth(v, 50);
  d.p90_ns = nth(v, 90);
  d.p99_ns = nth(v, 99);
  return d;
}

void build_queues(const TraceModel& m, const std::vector<LaunchRecord>& recs, LaunchesResult& r) {
  struct Change {
    int32_t device;
    int64_t stream;
    int64_t ts;
    int32_t delta;
  };
  std::vector<Change> ch;
  ch.reserve(recs.size() * 2);
  GpuRowCursor cursor(m);
  for (const LaunchRecord& l : recs) {
    uint32_t row = cursor.row_of(l.gpu_slice);
    if (row == UINT32_MAX) continue;
    int32_t dev = m.gpu_ops.device[row];
    int64_t stream = m.gpu_ops.stream[row];
    ch.push_back({dev, stream, m.slices.ts_ns[l.launch_slice], +1});
    ch.push_back({dev, stream, m.slices.ts_ns[l.gpu_slice], -1});
  }
  // Enqueues before dequeues at equal times, so the length never dips below zero.
  std::sort(ch.begin(), ch.end(), [](const Change& a, const Change& b) {
    if (a.device != b.device) return a.device < b.device;
    if (a.stream != b.stream) return a.stream < b.stream;
    if (a.ts != b.ts) return a.ts < b.ts;
    return a.delta > b.delta;
  });
  size_t i = 0;
  while (i < ch.size()) {
    StreamQueue q;
    q.device = ch[i].device;
    q.stream = ch[i].stream;
    int32_t len = 0;
    double sum = 0, weighted = 0;
    for (; i < ch.size() && ch[i].device == q.device && ch[i].stream == q.stream; ++i) {
      len += ch[i].delta;
      q.series.push_back({ch[i].ts, len});
      q.max_length = std::max(q.max_length, len);
      sum += len;
    }
    q.mean = q.series.empty() ? 0 : sum / static_cast<double>(q.series.size());
    for (size_t k = 0; k + 1 < q.series.size(); ++k) {
      int64_t d = q.series[k + 1].ts_ns - q.series[k].ts_ns;
      weighted += static_cast<double>(d) * q.series[k].length;
      if (q.series[k].length == q.max_length) q.time_at_max_ns += d;
    }
    int64_t span = q.series.empty() ? 0 : q.series.back().ts_ns - q.series.front().ts_ns;
    q.time_weighted_mean = span > 0 ? weighted / static_cast<double>(span) : 0;
    r.queues.push_back(std::move(q));
  }
}

// The slice rows to visit: all of them, or per track (slices are sorted by track, then start) the
// run that starts inside the window, found by binary search, so a step does not scan the trace.
std::vector<std::pair<uint32_t, uint32_t>> slice_ranges(const TraceModel& m, const Interval* window) {
  if (!window) return {{0u, static_cast<uint32_t>(m.slices.size())}};
  std::vector<std::pair<uint32_t, uint32_t>> out;
  const std::vector<int64_t>& ts = m.slices.ts_ns;
  for (const Track& t : m.tracks) {
    if (t.slice_begin >= t.slice_end || t.slice_end > ts.size()) continue;
    auto b = std::lower_bound(ts.begin() + t.slice_begin, ts.begin() + t.slice_end, window->begin);
    auto e = std::lower_bound(b, ts.begin() + t.slice_end, window->end);
    if (b != e) out.emplace_back(static_cast<uint32_t>(b - ts.begin()), static_cast<uint32_t>(e - ts.begin()));
  }
  return out;
}

void find_syncs(const TraceModel& m, const std::vector<uint32_t>& parents, const LaunchOptions& opt,
                LaunchesResult& r) {
  const SliceTable& s = m.slices;
  std::unordered_map<StringId, int> kind_of_name;
  std::unordered_map<StringId, uint32_t> site_slot;
  uint64_t count[4] = {0, 0, 0, 0};
  int64_t blocked[4] = {0, 0, 0, 0};
  auto visit = [&](uint32_t i) {
    if (s.kind[i] != EventKind::kCudaRuntime && s.kind[i] != EventKind::kCudaDriver) return;
    auto it = kind_of_name.find(s.name[i]);
    if (it == kind_of_name.end()) it = kind_of_name.emplace(s.name[i], host_sync_kind(m.strings.get(s.name[i]))).first;
    int k = it->second;
    if (k < 0) return;
    count[k]++;
    blocked[k] += s.dur_ns[i];
    r.longest_syncs.push_back(i);
    // The call site: the innermost operator around the call, else the innermost slice of any kind.
    uint32_t site = parents[i];
    for (uint32_t p = parents[i]; p != kNoParent; p = parents[p]) {
      if (s.kind[p] == EventKind::kCpuOp) {
        site = p;
        break;
      }
    }
    StringId name = site == kNoParent ? 0 : s.name[site];
    auto [slot, fresh] = site_slot.emplace(name, static_cast<uint32_t>(r.sync_sites.size()));
    if (fresh) r.sync_sites.push_back(SyncSite{name, 0, 0});
    r.sync_sites[slot->second].count++;
    r.sync_sites[slot->second].blocked_ns += s.dur_ns[i];
  };
  for (const auto& [first, last] : slice_ranges(m, opt.window))
    for (uint32_t i = first; i < last; ++i) visit(i);
  for (int k = 0; k < 4; ++k) {
    if (count[k] == 0) continue;
    r.syncs.push_back(SyncKindStat{kSyncKindNames[k], count[k], blocked[k]});
    r.sync_count += count[k];
    r.sync_blocked_ns += blocked[k];
  }
  std::sort(r.sync_sites.begin(), r.sync_sites.end(), [](const SyncSite& a, const SyncSite& b) {
    if (a.blocked_ns != b.blocked_ns) return a.blocked_ns > b.blocked_ns;
    return a.name < b.name;
  });
  if (r.sync_sites.size() > opt.top) r.sync_sites.resize(opt.top);
  size_t keep = std::min(opt.top, r.longest_syncs.size());
  std::partial_sort(r.longest_syncs.begin(), r.longest_syncs.begin() + keep, r.longest_syncs.end(),
                    [&s](uint32_t a, uint32_t b) { return s.dur_ns[a] != s.dur_ns[b] ? s.dur_ns[a] > s.dur_ns[b] : a < b; });
  r.longest_syncs.resize(keep);
}

}  // namespace

int host_sync_kind(std::string_view n) {
  if (n == "cudaDeviceSynchronize" || n == "hipDeviceSynchronize" || n == "cuCtxSynchronize") return 0;
  if (n == "cudaStreamSynchronize" || n == "hipStreamSynchronize" || starts_with(n, "cuStreamSynchronize")) return 1;
  if (n == "cudaEventSynchronize" || n == "hipEventSynchronize" || starts_with(n, "cuEventSynchronize")) return 2;
  if ((starts_with(n, "cudaMemcpy") || starts_with(n, "hipMemcpy") || starts_with(n, "cuMemcpy")) &&
      n.find("Async") == std::string_view::npos)
    return 3;
  return -1;
}

int64_t queue_time_at_least(const StreamQueue& q, int32_t limit) {
  int64_t t = 0;
  for (size_t k = 0; k + 1 < q.series.size(); ++k)
    if (q.series[k].length >= limit) t += q.series[k + 1].ts_ns - q.series[k].ts_ns;
  return t;
}

LaunchesResult launch_stats(const TraceModel& m, const std::vector<uint32_t>& parents, const LaunchOptions& opt) {
  LaunchesResult r;
  const SliceTable& s = m.slices;
  std::vector<int64_t> delays, cpus;
  if (!opt.window) {  // a window (one step) holds a small part: let the vectors grow instead
    r.records.reserve(m.launches.size());
    delays.reserve(m.launches.size());
    cpus.reserve(m.launches.size());
  }
  std::unordered_map<StringId, uint64_t> short_names;
  for (const LaunchLink& l : m.launches) {
    if (opt.window && (s.ts_ns[l.launch_slice] < opt.window->begin || s.ts_ns[l.launch_slice] >= opt.window->end)) continue;
    LaunchRecord rec;
    rec.launch_slice = l.launch_slice;
    rec.gpu_slice = l.gpu_slice;
    rec.cpu_ns = s.dur_ns[l.launch_slice];
    rec.gpu_ns = s.dur_ns[l.gpu_slice];
    rec.delay_ns = s.ts_ns[l.gpu_slice] - s.end_ns(l.launch_slice);
    if (rec.delay_ns < 0) r.negative_delays++;
    if (rec.delay_ns > opt.delay_outlier_ns) r.delay_outliers++;
    if (rec.cpu_ns > opt.runtime_outlier_ns) r.runtime_outliers++;
    if (rec.gpu_ns < rec.cpu_ns) {
      r.short_ops++;
      r.short_ops_gpu_ns += rec.gpu_ns;
      short_names[s.name[l.gpu_slice]]++;
    }
    r.launch_cpu_ns += rec.cpu_ns;
    r.launched_gpu_ns += rec.gpu_ns;
    delays.push_back(rec.clipped_delay_ns());
    cpus.push_back(rec.cpu_ns);
    r.records.push_back(rec);
  }
  r.delay = distribution(delays);
  r.cpu = distribution(cpus);
  // The worst delays, longest first (partial sort of indices: O(n log top)).
  std::vector<uint32_t> idx(r.records.size());
  for (uint32_t i = 0; i < idx.size(); ++i) idx[i] = i;
  size_t top = std::min(opt.top, idx.size());
  std::partial_sort(idx.begin(), idx.begin() + top, idx.end(), [&](uint32_t a, uint32_t b) {
    if (r.records[a].delay_ns != r.records[b].delay_ns) return r.records[a].delay_ns > r.records[b].delay_ns;
    return a < b;
  });
  idx.resize(top);
  r.worst_delays = std::move(idx);
  r.short_op_names.assign(short_names.begin(), short_names.end());
  std::sort(r.short_op_names.begin(), r.short_op_names.end(), [](const auto& a, const auto& b) {
    if (a.second != b.second) return a.second > b.second;
    return a.first < b.first;
  });
  if (r.short_op_names.size() > opt.top) r.short_op_names.resize(opt.top);
  r.launch_bound = !r.records.empty() && r.short_ops * 2 >= r.records.size() && r.launch_cpu_ns >= r.launched_gpu_ns;
  if (opt.queues) build_queues(m, r.records, r);
  find_syncs(m, parents, opt, r);
  return r;
}

}  // namespace tw
