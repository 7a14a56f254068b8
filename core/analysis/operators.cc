#include "core/analysis/operators.h"

#include <algorithm>
#include <functional>
#include <string_view>

#include "core/analysis/flat_id_map.h"
#include "core/analysis/gpu_rows.h"
#include "core/base/partition_from.h"
#include "core/base/run_sort.h"

namespace tw {

namespace {

constexpr std::string_view kModulePrefix = "nn.Module: ";

// Aggregates rows per interned name through a dense StringId -> slot table.
class Table {
 public:
  explicit Table(size_t names) : slot_(names, UINT32_MAX) {}
  OperatorStat& at(StringId name) {
    uint32_t& s = slot_[name];
    if (s == UINT32_MAX) {
      s = static_cast<uint32_t>(rows_.size());
      rows_.push_back(OperatorStat{});
      rows_.back().name = name;
      rows_.back().min_depth = UINT16_MAX;
    }
    return rows_[s];
  }
  std::vector<OperatorStat> sorted() {
    std::sort(rows_.begin(), rows_.end(), [](const OperatorStat& a, const OperatorStat& b) {
      if (a.total_ns != b.total_ns) return a.total_ns > b.total_ns;
      return a.name < b.name;
    });
    return std::move(rows_);
  }

 private:
  std::vector<uint32_t> slot_;
  std::vector<OperatorStat> rows_;
};

}  // namespace

LaunchOperators launch_operators(const TraceModel& m) {
  const SliceTable& s = m.slices;
  LaunchOperators r;
  r.op.resize(m.launches.size(), kNoParent);
  r.by_external.resize(m.launches.size(), 0);
  // The External ids of the launches under no operator, sorted and unique; then one pass over the
  // operator slices in table order keeps, per such id, the first operator carrying it. Memory grows
  // with those launches only: a sorted list of every operator slice (16 B each, and the sort's
  // buffer) was the summary's largest temporary. Per thread, ids rise with time, so each lookup
  // starts from the previous answer (partition_from) and costs a few steps.
  struct Orphan {
    int64_t id;
    uint32_t row;
  };
  std::vector<Orphan> orphans;
  for (size_t li = 0; li < m.launches.size(); ++li) {
    const uint32_t launch = m.launches[li].launch_slice;
    uint32_t p = s.parent[launch];
    while (p != kNoParent && s.kind_at(p) != EventKind::kCpuOp) p = s.parent[p];
    r.op[li] = p;
    if (p == kNoParent && s.external_id_at(launch) != kNoId)
      orphans.push_back({s.external_id_at(launch), static_cast<uint32_t>(li)});
  }
  if (orphans.empty()) return r;
  std::vector<int64_t> ids;
  ids.reserve(orphans.size());
  for (const Orphan& o : orphans) ids.push_back(o.id);
  sort_runs(ids, std::less<int64_t>());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  std::vector<uint32_t> first_op(ids.size(), kNoParent);
  const int64_t* begin = ids.data();
  const int64_t* end = begin + ids.size();
  const int64_t* at = begin;
  for (uint32_t i = 0; i < s.size(); ++i) {
    if (s.kind_at(i) != EventKind::kCpuOp) continue;
    const int64_t id = s.external_id_at(i);
    if (id == kNoId) continue;
    at = partition_from(begin, end, at, [id](int64_t x) { return x < id; });
    if (at != end && *at == id && first_op[at - begin] == kNoParent) first_op[at - begin] = i;
  }
  for (const Orphan& o : orphans) {
    const uint32_t op = first_op[std::lower_bound(begin, end, o.id) - begin];
    if (op == kNoParent) continue;
    r.op[o.row] = op;
    r.by_external[o.row] = 1;
  }
  return r;
}

OperatorsResult operator_stats(const TraceModel& m, const Interval* window, const LaunchOperators* attributed) {
  OperatorsResult r;
  LaunchOperators own;
  if (!attributed) {
    own = launch_operators(m);
    attributed = &own;
  }
  const SliceTable& s = m.slices;
  const std::vector<uint32_t>& parents = s.parent;
  auto in_window = [&](uint32_t i) { return !window || (s.ts_ns[i] >= window->begin && s.ts_ns[i] < window->end); };
  Table ops(m.strings.size()), modules(m.strings.size());
  // Which names are modules, decided once per name.
  std::vector<int8_t> is_module(m.strings.size(), -1);
  auto module_name = [&](StringId n) {
    if (is_module[n] < 0) is_module[n] = m.strings.get(n).substr(0, kModulePrefix.size()) == kModulePrefix;
    return is_module[n] == 1;
  };
  auto is_module_slice = [&](uint32_t i) {
    return s.kind_at(i) == EventKind::kPythonFunction && module_name(s.name.at(i));
  };

  // A window (one per step) visits only the slices that start in it, in table order (gpu_rows.h).
  for (const auto& [first, last] : slice_rows_starting_in(m, window))
    for (uint32_t i = first; i < last; ++i) {
      if (s.kind_at(i) == EventKind::kCpuOp) {
        OperatorStat& o = ops.at(s.name.at(i));
        o.calls++;
        o.total_ns += s.dur_at(i);
        o.self_ns += s.dur_at(i);
        uint32_t p = parents[i];
        if (p != kNoParent && s.kind_at(p) == EventKind::kCpuOp && in_window(p))
          ops.at(s.name.at(p)).self_ns -= s.dur_at(i);
      } else if (is_module_slice(i)) {
        OperatorStat& o = modules.at(s.name.at(i));
        o.calls++;
        o.total_ns += s.dur_at(i);
        o.self_ns += s.dur_at(i);
        uint16_t depth = 0;
        for (uint32_t p = parents[i]; p != kNoParent; p = parents[p])
          if (is_module_slice(p)) ++depth;
        o.min_depth = std::min(o.min_depth, depth);
        for (uint32_t p = parents[i]; p != kNoParent; p = parents[p]) {
          if (is_module_slice(p)) {
            if (in_window(p)) modules.at(s.name.at(p)).self_ns -= s.dur_at(i);
            break;
          }
        }
      }
    }

  FlatIdMap pair_slot;  // (operator name, kernel name) -> row of op_kernels
  bool inserted = false;
  // Every operator and module was given its row in the pass above, so these walks add no rows.
  auto add_to_enclosing = [&](uint32_t from, int64_t ns) {
    for (uint32_t q = from; q != kNoParent; q = parents[q]) {
      if (!in_window(q)) break;  // slices start no later than their parents: the rest are outside too
      if (s.kind_at(q) == EventKind::kCpuOp) ops.at(s.name.at(q)).device_total_ns += ns;
      else if (is_module_slice(q)) modules.at(s.name.at(q)).device_total_ns += ns;
    }
  };
  uint32_t walk_from = kNoParent;  // the pending walk: its start and the GPU time it carries
  int64_t walk_ns = 0;
  for (size_t li = 0; li < m.launches.size(); ++li) {
    const LaunchLink& l = m.launches[li];
    if (!in_window(l.launch_slice)) continue;
    r.launches++;
    int64_t dur = s.dur_at(l.gpu_slice);
    uint32_t p = attributed->op[li];
    r.launches_by_external_id += attributed->by_external[li];
    if (p != kNoParent && !in_window(p)) p = kNoParent;  // its operator is not a row of this window
    if (p != kNoParent) {
      r.launches_attributed++;
      OperatorStat& o = ops.at(s.name.at(p));
      o.device_self_ns += dur;
      o.gpu_ops++;
      uint64_t key = (uint64_t(s.name.at(p)) << 32) | s.name.at(l.gpu_slice);
      const uint32_t slot = pair_slot.emplace(key, static_cast<uint32_t>(r.op_kernels.size()), &inserted);
      if (inserted) r.op_kernels.push_back(OperatorKernel{s.name.at(p), s.name.at(l.gpu_slice), 0, 0, 0, 0});
      OperatorKernel& ok = r.op_kernels[slot];
      ok.count++;
      ok.gpu_ns += dur;
      ok.op_to_launch_ns += s.ts_ns[l.launch_slice] - s.ts_ns[p];
      ok.launch_to_start_ns += s.ts_ns[l.gpu_slice] - s.ts_ns[l.launch_slice];
    }
    // Every enclosing operator and module gets the GPU time in its total. Consecutive launches
    // mostly come from the same operator: their time is summed and the ancestors walked once.
    const uint32_t from = p != kNoParent ? p : parents[l.launch_slice];
    if (from != walk_from) {
      add_to_enclosing(walk_from, walk_ns);
      walk_from = from;
      walk_ns = 0;
    }
    walk_ns += dur;
  }
  add_to_enclosing(walk_from, walk_ns);
  std::sort(r.op_kernels.begin(), r.op_kernels.end(), [](const OperatorKernel& a, const OperatorKernel& b) {
    if (a.count != b.count) return a.count > b.count;
    if (a.gpu_ns != b.gpu_ns) return a.gpu_ns > b.gpu_ns;
    return a.op != b.op ? a.op < b.op : a.kernel < b.kernel;
  });
  r.ops = ops.sorted();
  r.modules = modules.sorted();
  for (OperatorStat& o : r.ops) {
    o.self_ns = std::max<int64_t>(0, o.self_ns);
    o.min_depth = 0;
  }
  for (OperatorStat& o : r.modules) o.self_ns = std::max<int64_t>(0, o.self_ns);
  return r;
}

}  // namespace tw
