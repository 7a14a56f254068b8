#include "core/analysis/launches.h"

#include <algorithm>
#include <map>
#include <string_view>
#include <unordered_map>

#include "core/analysis/gpu_op_launch.h"
#include "core/analysis/gpu_rows.h"
#include "core/analysis/percentile.h"
#include "core/base/run_sort.h"

namespace tw {

namespace {

const char* const kSyncKindNames[] = {"device_synchronize", "stream_synchronize", "event_synchronize",
                                      "blocking_memcpy"};

constexpr int8_t kUnknownKind = -2;  // not yet looked up (host_sync_kind returns -1 or a kind)

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

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
  const size_t n = v.size();
  const size_t k50 = percentile_index(n, 50), k90 = percentile_index(n, 90), k99 = percentile_index(n, 99);
  d.p50_ns = select_sorted_index(v.data(), n, 0, k50);
  d.p90_ns = k90 == k50 ? d.p50_ns : select_sorted_index(v.data(), n, k50 + 1, k90);
  d.p99_ns = k99 == k90 ? d.p90_ns : select_sorted_index(v.data(), n, k90 + 1, k99);
  return d;
}

// Queues per (device, stream) of the launched op, in (device, stream) order. The times are
// gathered into vectors reserved by a counting pass and each stream's are freed once its queue is
// built: the summary's peak is set here on traces with millions of launches.
template <class EachLaunch>
void build_queues(const TraceModel& m, const LaunchOptions& opt, EachLaunch each_launch, LaunchesResult& r) {
  using Key = std::pair<int32_t, int64_t>;
  struct Stream {
    size_t launches = 0;
    std::vector<int64_t> enq, deq;
  };
  std::map<Key, Stream> streams;
  auto each_stream_launch = [&](auto&& f) {
    Stream* cur = nullptr;
    Key cur_key;
    GpuRowCursor cursor(m);
    each_launch([&](uint32_t link) {
      const LaunchLink& l = m.launches[link];
      const uint32_t row = cursor.row_of(l.gpu_slice);
      if (row == UINT32_MAX) return;
      const Key key{m.gpu_ops.device_at(row), m.gpu_ops.stream_at(row)};
      if (!cur || key != cur_key) {  // launches come stream by stream: the map is rarely consulted
        cur = &streams[key];
        cur_key = key;
      }
      f(*cur, l);
    });
  };
  each_stream_launch([](Stream& st, const LaunchLink&) { st.launches++; });
  for (auto& [key, st] : streams) st.enq.reserve(st.launches), st.deq.reserve(st.launches);
  each_stream_launch([&m](Stream& st, const LaunchLink& l) {
    st.enq.push_back(m.slices.ts_ns[l.launch_slice]);
    st.deq.push_back(m.slices.ts_ns[l.gpu_slice]);
  });
  for (auto& [key, st] : streams) {
    r.queues.push_back(queue_of(key.first, key.second, st.enq, st.deq, opt.queue_chart_points, opt.queue_changes));
    std::vector<int64_t>().swap(st.enq);
    std::vector<int64_t>().swap(st.deq);
  }
}

void find_syncs(const TraceModel& m, const LaunchOptions& opt, LaunchesResult& r) {
  const SliceTable& s = m.slices;
  const std::vector<uint32_t>& parents = s.parent;
  std::vector<int8_t> kind_of_name(m.strings.size(), kUnknownKind);  // host_sync_kind per name, memoised
  uint64_t count[4] = {0, 0, 0, 0};
  int64_t blocked[4] = {0, 0, 0, 0};
  auto visit = [&](uint32_t i) {
    if (s.kind_at(i) != EventKind::kCudaRuntime && s.kind_at(i) != EventKind::kCudaDriver) return;
    int8_t& known = kind_of_name[s.name.at(i)];
    if (known == kUnknownKind) known = static_cast<int8_t>(host_sync_kind(m.strings.get(s.name.at(i))));
    const int k = known;
    if (k < 0) return;
    count[k]++;
    blocked[k] += s.dur_at(i);
    // The call site: the innermost operator around the call, else the innermost slice of any kind.
    uint32_t site = parents[i];
    for (uint32_t p = parents[i]; p != kNoParent; p = parents[p]) {
      if (s.kind_at(p) == EventKind::kCpuOp) {
        site = p;
        break;
      }
    }
    r.sync_calls.push_back(SyncCall{s.ts_ns[i], s.dur_at(i), i, site == kNoParent ? 0 : s.name.at(site)});
  };
  for (const auto& [first, last] : slice_rows_starting_in(m, opt.window))
    for (uint32_t i = first; i < last; ++i) visit(i);
  for (int k = 0; k < 4; ++k) {
    if (count[k] == 0) continue;
    r.syncs.push_back(SyncKindStat{kSyncKindNames[k], count[k], blocked[k]});
    r.sync_count += count[k];
    r.sync_blocked_ns += blocked[k];
  }
  std::sort(r.sync_calls.begin(), r.sync_calls.end(), [](const SyncCall& a, const SyncCall& b) {
    return a.start_ns != b.start_ns ? a.start_ns < b.start_ns : a.slice < b.slice;
  });
  r.sync_sites = sync_sites_of(r.sync_calls, opt.top);
  for (const SyncCall& c : longest_syncs_of(r.sync_calls, opt.top)) r.longest_syncs.push_back(c.slice);
}

// Calls f(link) for the model.launches indices to visit, in model.launches order (the worst delays
// break ties by it, and each pass must see the same order): all, or those whose launch call starts
// in the window.
template <class F>
void each_launch(const TraceModel& m, const LaunchOptions& opt, F f) {
  const SliceTable& s = m.slices;
  if (opt.window && opt.launch_order) {
    std::vector<uint32_t> links;
    const std::vector<uint32_t>& order = *opt.launch_order;
    auto slice_less = [&m](uint32_t link, uint32_t slice) { return m.launches[link].launch_slice < slice; };
    for (const auto& [first, last] : slice_rows_starting_in(m, opt.window)) {
      auto it = std::lower_bound(order.begin(), order.end(), first, slice_less);
      for (; it != order.end() && m.launches[*it].launch_slice < last; ++it) links.push_back(*it);
    }
    std::sort(links.begin(), links.end());
    for (uint32_t k : links) f(k);
    return;
  }
  for (uint32_t k = 0; k < m.launches.size(); ++k) {
    const uint32_t ls = m.launches[k].launch_slice;
    if (opt.window && (s.ts_ns[ls] < opt.window->begin || s.ts_ns[ls] >= opt.window->end)) continue;
    f(k);
  }
}

}  // namespace

std::vector<uint32_t> launch_order(const TraceModel& m) {
  std::vector<uint32_t> order(m.launches.size());
  for (uint32_t k = 0; k < order.size(); ++k) order[k] = k;
  sort_runs(order, [&m](uint32_t a, uint32_t b) {
    const uint32_t sa = m.launches[a].launch_slice, sb = m.launches[b].launch_slice;
    return sa != sb ? sa < sb : a < b;
  });
  return order;
}

std::vector<SyncSite> sync_sites_of(const std::vector<SyncCall>& calls, size_t top) {
  std::vector<SyncSite> sites;
  std::unordered_map<StringId, size_t> slot_of;
  for (const SyncCall& c : calls) {
    auto [slot, fresh] = slot_of.emplace(c.site, sites.size());
    if (fresh) sites.push_back(SyncSite{c.site, 0, 0});
    sites[slot->second].count++;
    sites[slot->second].blocked_ns += c.dur_ns;
  }
  std::sort(sites.begin(), sites.end(), [](const SyncSite& a, const SyncSite& b) {
    return a.blocked_ns != b.blocked_ns ? a.blocked_ns > b.blocked_ns : a.name < b.name;
  });
  if (sites.size() > top) sites.resize(top);
  return sites;
}

std::vector<SyncCall> longest_syncs_of(std::vector<SyncCall> calls, size_t top) {
  const size_t keep = std::min(top, calls.size());
  std::partial_sort(calls.begin(), calls.begin() + keep, calls.end(), [](const SyncCall& a, const SyncCall& b) {
    return a.dur_ns != b.dur_ns ? a.dur_ns > b.dur_ns : a.slice < b.slice;
  });
  calls.resize(keep);
  return calls;
}

int host_sync_kind(std::string_view n) {
  if (n == "cudaDeviceSynchronize" || n == "hipDeviceSynchronize" || n == "cuCtxSynchronize") return 0;
  if (n == "cudaStreamSynchronize" || n == "hipStreamSynchronize" || starts_with(n, "cuStreamSynchronize")) return 1;
  if (n == "cudaEventSynchronize" || n == "hipEventSynchronize" || starts_with(n, "cuEventSynchronize")) return 2;
  if ((starts_with(n, "cudaMemcpy") || starts_with(n, "hipMemcpy") || starts_with(n, "cuMemcpy")) &&
      n.find("Async") == std::string_view::npos)
    return 3;
  return -1;
}

namespace {

// The `top` longest delays, longest first (then in visiting order): a bounded heap, so O(n log top)
// time and O(top) memory. Fed in visiting order.
class WorstDelays {
 public:
  WorstDelays(const SliceTable& s, size_t top) : s_(s), top_(top) {}
  void add(uint32_t order, const LaunchRecord& rec) {
    if (top_ == 0) return;
    const Entry e{rec.delay_ns(s_), order, rec};
    if (heap_.size() == top_ && !worse(e, heap_.front())) return;
    heap_.push_back(e), std::push_heap(heap_.begin(), heap_.end(), worse);
    if (heap_.size() > top_) std::pop_heap(heap_.begin(), heap_.end(), worse), heap_.pop_back();
  }
  std::vector<LaunchRecord> take() {
    std::sort(heap_.begin(), heap_.end(), worse);
    std::vector<LaunchRecord> out;
    out.reserve(heap_.size());
    for (const Entry& e : heap_) out.push_back(e.rec);
    return out;
  }

 private:
  struct Entry {
    int64_t delay;
    uint32_t order;
    LaunchRecord rec;
  };
  static bool worse(const Entry& a, const Entry& b) {
    return a.delay != b.delay ? a.delay > b.delay : a.order < b.order;
  }
  const SliceTable& s_;
  size_t top_;
  std::vector<Entry> heap_;  // the `top` worst so far; heap_.front() is the least bad of them
};

}  // namespace

LaunchesResult launch_stats(const TraceModel& m, const LaunchOptions& opt) {
  LaunchesResult r;
  const SliceTable& s = m.slices;
  auto visit = [&m, &opt](auto&& f) { each_launch(m, opt, f); };
  // Short ops counted per name through a dense StringId -> slot table (names are pool ids).
  std::vector<uint32_t> short_slot(m.strings.size(), UINT32_MAX);
  WorstDelays worst(s, opt.top);
  // One buffer serves both distributions, one after the other: no record per launch is kept.
  std::vector<int64_t> values;
  if (!opt.window) values.reserve(m.launches.size());  // a window (one step) holds a small part: let it grow
  visit([&](uint32_t link) {
    const LaunchLink& l = m.launches[link];
    const LaunchRecord rec{l.launch_slice, l.gpu_slice};
    const int64_t delay = rec.delay_ns(s), cpu = rec.cpu_ns(s), gpu = rec.gpu_ns(s);
    if (delay < 0) r.negative_delays++;
    if (delay > opt.delay_outlier_ns) r.delay_outliers++;
    if (cpu > opt.runtime_outlier_ns) r.runtime_outliers++;
    if (gpu < cpu) {
      r.short_ops++;
      r.short_ops_gpu_ns += gpu;
      uint32_t& slot = short_slot[s.name.at(l.gpu_slice)];
      if (slot == UINT32_MAX) {
        slot = static_cast<uint32_t>(r.short_op_names.size());
        r.short_op_names.emplace_back(s.name.at(l.gpu_slice), 0);
      }
      r.short_op_names[slot].second++;
    }
    r.launch_cpu_ns += cpu;
    r.launched_gpu_ns += gpu;
    worst.add(static_cast<uint32_t>(values.size()), rec);
    values.push_back(rec.clipped_delay_ns(s));
  });
  r.count = values.size();
  r.delay = distribution(values);
  values.clear();
  visit([&](uint32_t link) {
    const LaunchLink& l = m.launches[link];
    values.push_back(LaunchRecord{l.launch_slice, l.gpu_slice}.cpu_ns(s));
  });
  r.cpu = distribution(values);
  std::vector<int64_t>().swap(values);
  r.worst_delays = worst.take();
  std::sort(r.short_op_names.begin(), r.short_op_names.end(), [](const auto& a, const auto& b) {
    if (a.second != b.second) return a.second > b.second;
    return a.first < b.first;
  });
  if (r.short_op_names.size() > opt.top) r.short_op_names.resize(opt.top);
  r.launch_bound = r.count > 0 && r.short_ops * 2 >= r.count && r.launch_cpu_ns >= r.launched_gpu_ns;
  if (opt.queues) build_queues(m, opt, visit, r);
  find_syncs(m, opt, r);
  return r;
}

}  // namespace tw
