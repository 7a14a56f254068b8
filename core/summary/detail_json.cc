// JSON writers of the detail sections, shared by the whole-trace sections (detail_sections.cc) and
// the per-step details (step_details.cc), so a step's table has exactly the whole trace's shape.
#include "core/summary/detail_json.h"

#include <cmath>

namespace tw {

using nlohmann::json;

std::string model_str(const TraceModel& m, StringId id) { return std::string(m.strings.get(id)); }

// Fractions are rounded to 4 decimals so the native and wasm builds print the same shortest form.
double round4(double x) { return std::round(x * 1e4) / 1e4; }

json range_json(int64_t begin, int64_t end) { return {{"begin_ns", begin}, {"end_ns", end}}; }

namespace {

// One stream's or device's idle time by cause, and its longest gaps.
json idle_categories_json(const int64_t (&time_ns)[kIdleCategoryCount], const uint64_t (&count)[kIdleCategoryCount],
                          int64_t idle_ns) {
  json cats = json::object();
  for (int k = 0; k < kIdleCategoryCount; ++k) {
    double share = idle_ns != 0 ? double(time_ns[k]) / double(idle_ns) : 0.0;
    cats[idle_category_name(static_cast<IdleCategory>(k))] = {
        {"ns", time_ns[k]}, {"count", count[k]}, {"share", round4(share)}};
  }
  return cats;
}

json idle_gaps_json(const std::vector<IdleGap>& longest) {
  json gaps = json::array();
  for (const IdleGap& g : longest) {
    json gj = range_json(g.begin_ns, g.end_ns);
    gj["duration_ns"] = g.length_ns();
    gj["category"] = idle_category_name(g.category);
    gaps.push_back(gj);
  }
  return gaps;
}

}  // namespace

json idle_json(const IdleResult& r, const std::vector<DeviceIdle>* devices) {
  json streams = json::array();
  for (const StreamIdle& s : r.streams)
    streams.push_back({{"device", s.device},
                       {"stream", s.stream},
                       {"ops", s.ops},
                       {"first_ns", s.first_ns},
                       {"last_ns", s.last_ns},
                       {"idle_ns", s.idle_ns},
                       {"categories", idle_categories_json(s.time_ns, s.count, s.idle_ns)},
                       {"longest_gaps", idle_gaps_json(s.longest)}});
  json out = {{"kernel_wait_threshold_ns", r.threshold_ns}, {"streams", streams}};
  if (devices) {
    json ds = json::array();
    for (const DeviceIdle& d : *devices)
      ds.push_back({{"device", d.device},
                    {"ops", d.ops},
                    {"first_ns", d.first_ns},
                    {"last_ns", d.last_ns},
                    {"busy_ns", d.busy_ns},
                    {"idle_ns", d.idle_ns},
                    {"categories", idle_categories_json(d.time_ns, d.count, d.idle_ns)},
                    {"longest_gaps", idle_gaps_json(d.longest)}});
    out["devices"] = ds;
  }
  return out;
}

json kernels_json(const TraceModel& m, const KernelsResult& r, size_t top) {
  json rows = json::array();
  for (size_t i = 0; i < r.by_name.size() && i < top; ++i) {
    const KernelStat& k = r.by_name[i];
    rows.push_back({{"name", model_str(m, k.name)},
                    {"kind", event_kind_name(k.kind)},
                    {"class", kernel_class_name(k.cls)},
                    {"count", k.count},
                    {"total_ns", k.total_ns},
                    {"mean_ns", round4(k.mean_ns)},
                    {"min_ns", k.min_ns},
                    {"max_ns", k.max_ns},
                    {"p50_ns", k.p50_ns},
                    {"p95_ns", k.p95_ns},
                    {"share", round4(k.share)}});
  }
  // "count" and "total_ns" take every GPU op (kernels, copies and sets alike); by kind they read
  // apart, so "929 kernels" is not taken for kernels alone when 161 of them are copies.
  json kinds = json::object();
  for (EventKind kind : {EventKind::kKernel, EventKind::kMemcpy, EventKind::kMemset}) {
    uint64_t count = 0;
    int64_t total = 0;
    for (const KernelStat& k : r.by_name)
      if (k.kind == kind) count += k.count, total += k.total_ns;
    kinds[event_kind_name(kind)] = {{"count", count}, {"total_ns", total}};
  }
  return {{"count", r.count},
          {"total_ns", r.total_ns},
          {"distinct_names", r.by_name.size()},
          {"by_kind", kinds},
          {"top", rows}};
}

json distribution_json(const Distribution& d) {
  return {{"count", d.count},   {"min_ns", d.min_ns}, {"p50_ns", d.p50_ns},          {"p90_ns", d.p90_ns},
          {"p99_ns", d.p99_ns}, {"max_ns", d.max_ns}, {"mean_ns", round4(d.mean_ns)}};
}

static json queue_json(const StreamQueue& q) {
  json ts = json::array(), len = json::array();
  for (const QueuePoint& p : q.chart) ts.push_back(p.ts_ns), len.push_back(p.length);
  return {{"device", q.device},
          {"stream", q.stream},
          {"changes", q.changes},
          {"max", q.max_length},
          {"mean", round4(q.mean)},
          {"time_weighted_mean", round4(q.time_weighted_mean)},
          {"time_at_max_ns", q.time_at_max_ns},
          {"series", {{"ts_ns", ts}, {"max_length", len}}}};
}

json launches_json(const TraceModel& m, const LaunchesResult& r, const LaunchOptions& opt) {
  const SliceTable& s = m.slices;
  json worst = json::array();
  for (const LaunchRecord& l : r.worst_delays) {
    worst.push_back(
        {{"kernel", model_str(m, s.name.at(l.gpu_slice))},
         {"launch", model_str(m, s.name.at(l.launch_slice))},
         {"correlation", s.correlation_at(l.gpu_slice) == kNoId ? json(nullptr) : json(s.correlation_at(l.gpu_slice))},
         {"launch_end_ns", s.end_ns(l.launch_slice)},
         {"gpu_start_ns", s.ts_ns[l.gpu_slice]},
         {"delay_ns", l.delay_ns(s)},
         {"cpu_ns", l.cpu_ns(s)},
         {"gpu_ns", l.gpu_ns(s)}});
  }
  json short_names = json::array();
  for (const auto& [name, n] : r.short_op_names) short_names.push_back({{"name", model_str(m, name)}, {"count", n}});
  json queues = json::array();
  for (const StreamQueue& q : r.queues) queues.push_back(queue_json(q));
  json syncs = json::array();
  for (const SyncKindStat& k : r.syncs)
    syncs.push_back({{"kind", k.kind}, {"count", k.count}, {"blocked_ns", k.blocked_ns}});
  json sites = json::array();
  for (const SyncSite& x : r.sync_sites)
    sites.push_back({{"name", x.name ? json(model_str(m, x.name)) : json(nullptr)},
                     {"count", x.count},
                     {"blocked_ns", x.blocked_ns}});
  json longest = json::array();
  for (uint32_t i : r.longest_syncs)
    longest.push_back({{"name", model_str(m, s.name.at(i))},
                       {"begin_ns", s.ts_ns[i]},
                       {"end_ns", s.end_ns(i)},
                       {"duration_ns", s.dur_at(i)}});
  json j = {{"count", r.count},
            {"delay", distribution_json(r.delay)},
            {"negative_delays", r.negative_delays},
            {"delay_outlier_threshold_ns", opt.delay_outlier_ns},
            {"delay_outliers", r.delay_outliers},
            {"worst_delays", worst},
            {"cpu", distribution_json(r.cpu)},
            {"runtime_outlier_threshold_ns", opt.runtime_outlier_ns},
            {"runtime_outliers", r.runtime_outliers},
            {"short_ops", {{"count", r.short_ops}, {"gpu_ns", r.short_ops_gpu_ns}, {"top", short_names}}},
            {"launch_cpu_ns", r.launch_cpu_ns},
            {"launched_gpu_ns", r.launched_gpu_ns},
            {"launch_bound", r.launch_bound},
            {"host_syncs",
             {{"count", r.sync_count},
              {"blocked_ns", r.sync_blocked_ns},
              {"kinds", syncs},
              {"top_sites", sites},
              {"longest", longest}}}};
  if (opt.queues) j["queues"] = queues;
  return j;
}

json memory_json(const MemoryResult& r, bool series) {
  json devs = json::array();
  for (const DeviceMemory& d : r.devices) {
    json ts = json::array(), alloc = json::array(), res = json::array();
    for (const MemoryPoint& p : d.series) {
      ts.push_back(p.ts_ns);
      alloc.push_back(p.allocated);
      res.push_back(p.reserved);
    }
    json dj = {{"device", d.device},
               {"samples", d.samples},
               {"peak_allocated", d.peak_allocated},
               {"peak_allocated_ts_ns", d.peak_allocated_ts_ns},
               {"peak_reserved", d.peak_reserved},
               {"peak_reserved_ts_ns", d.peak_reserved_ts_ns},
               {"final_allocated", d.final_allocated},
               {"final_reserved", d.final_reserved},
               {"total_global_mem", d.total_global_mem > 0 ? json(d.total_global_mem) : json(nullptr)},
               {"peak_allocated_share", d.total_global_mem > 0 ? json(round4(d.peak_allocated_share)) : json(nullptr)},
               {"peak_reserved_share", d.total_global_mem > 0 ? json(round4(d.peak_reserved_share)) : json(nullptr)}};
    if (series) dj["series"] = {{"ts_ns", ts}, {"allocated", alloc}, {"reserved", res}};
    devs.push_back(std::move(dj));
  }
  return {{"devices", devs}};
}

json collectives_json(const CollectivesResult& r) {
  json types = json::array();
  for (const CollectiveStat& c : r.by_type) {
    types.push_back({{"type", c.type},
                     {"count", c.count},
                     {"total_ns", c.total_ns},
                     {"mean_ns", round4(c.mean_ns)},
                     {"exposed_ns", c.exposed_ns},
                     {"sized_ops", c.sized},
                     {"bytes", c.bytes},
                     {"group_size", c.group_size > 0 ? json(c.group_size) : json(nullptr)},
                     {"algbw_gbps", c.sized_ns > 0 ? json(round4(c.algbw_gbps)) : json(nullptr)},
                     {"busbw_gbps", c.sized_ns > 0 ? json(round4(c.busbw_gbps)) : json(nullptr)}});
  }
  json worst = json::array();
  for (const Interval& iv : r.worst_exposed) worst.push_back(range_json(iv.begin, iv.end));
  return {{"count", r.count},           {"total_ns", r.total_ns}, {"union_ns", r.union_ns},
          {"exposed_ns", r.exposed_ns}, {"by_type", types},       {"worst_exposed", worst}};
}

namespace {

json operator_rows(const TraceModel& m, const std::vector<OperatorStat>& v, bool modules, size_t top) {
  json rows = json::array();
  for (size_t i = 0; i < v.size() && i < top; ++i) {
    const OperatorStat& o = v[i];
    json j = {{"name", model_str(m, o.name)},
              {"calls", o.calls},
              {"total_ns", o.total_ns},
              {"self_ns", o.self_ns},
              {"device_total_ns", o.device_total_ns}};
    if (modules) j["depth"] = o.min_depth;
    else j["device_self_ns"] = o.device_self_ns, j["gpu_ops"] = o.gpu_ops;
    rows.push_back(j);
  }
  return rows;
}

json op_kernels_json(const TraceModel& m, const std::vector<OperatorKernel>& v, size_t top) {
  json rows = json::array();
  for (size_t i = 0; i < v.size() && i < top; ++i) {
    const OperatorKernel& k = v[i];
    double n = double(k.count);
    rows.push_back({{"operator", model_str(m, k.op)},
                    {"kernel", model_str(m, k.kernel)},
                    {"count", k.count},
                    {"gpu_ns", k.gpu_ns},
                    {"mean_op_to_launch_ns", round4(double(k.op_to_launch_ns) / n)},
                    {"mean_launch_to_start_ns", round4(double(k.launch_to_start_ns) / n)}});
  }
  return rows;
}

}  // namespace

json operators_json(const TraceModel& m, const OperatorsResult& r, size_t top) {
  return {{"distinct_operators", r.ops.size()},
          {"operator_kernels", op_kernels_json(m, r.op_kernels, top)},
          {"top", operator_rows(m, r.ops, false, top)},
          {"distinct_modules", r.modules.size()},
          {"modules", operator_rows(m, r.modules, true, top)},
          {"launches", r.launches},
          {"launches_attributed", r.launches_attributed},
          {"launches_by_external_id", r.launches_by_external_id}};
}

}  // namespace tw
