#include "core/analysis/by_short_name.h"

#include <algorithm>
#include <unordered_map>

#include "core/analysis/gpu_rows.h"
#include "core/base/short_name.h"

namespace tw {
namespace {

// Rows keyed by short name; each full name's row is looked up once.
class Rows {
 public:
  Rows(const TraceModel& m, size_t columns) : m_(m), columns_(columns), slot_(m.strings.size(), UINT32_MAX) {}

  uint32_t slot(StringId full) {
    uint32_t& s = slot_[full];
    if (s != UINT32_MAX) return s;
    std::string name = short_name(m_.strings.get(full));
    auto [it, fresh] = by_name_.try_emplace(std::move(name), static_cast<uint32_t>(rows_.size()));
    if (fresh) {
      rows_.emplace_back();
      rows_.back().name = it->first;
      rows_.back().steps_ns.assign(columns_, 0);
    }
    return s = it->second;
  }
  ShortNameRow& at(uint32_t slot) { return rows_[slot]; }

  // Adds one full name's totals; the name with the largest total gives the row its kind and class.
  void add(StringId full, uint64_t count, int64_t total_ns, int64_t self_ns, EventKind kind, KernelClass cls) {
    const uint32_t i = slot(full);
    if (best_.size() < rows_.size()) best_.resize(rows_.size(), 0);
    ShortNameRow& r = rows_[i];
    if (r.variants == 0 || total_ns > best_[i]) {
      best_[i] = total_ns;
      r.example = full;
      r.kind = kind;
      r.cls = cls;
    }
    r.variants++;
    r.count += count;
    r.total_ns += total_ns;
    r.self_ns += self_ns;
  }

  std::vector<ShortNameRow> sorted() {
    std::sort(rows_.begin(), rows_.end(), [](const ShortNameRow& a, const ShortNameRow& b) {
      if (a.total_ns != b.total_ns) return a.total_ns > b.total_ns;
      return a.name < b.name;
    });
    return std::move(rows_);
  }

 private:
  const TraceModel& m_;
  size_t columns_;
  std::vector<uint32_t> slot_;
  std::unordered_map<std::string, uint32_t> by_name_;
  std::vector<ShortNameRow> rows_;
  std::vector<int64_t> best_;
};

}  // namespace

ByShortName by_short_name(const TraceModel& m, const KernelsResult& kernels, const OperatorsResult& ops,
                          const std::vector<ProfilerStep>& steps, const std::vector<uint8_t>* keep,
                          const ExtraWork& extra) {
  ByShortName r;
  r.step_columns = std::min(steps.size(), kByNameStepColumns);
  const SliceTable& s = m.slices;
  const GpuOpTable& g = m.gpu_ops;

  Rows k(m, r.step_columns);
  for (const KernelStat& ks : kernels.by_name) k.add(ks.name, ks.count, ks.total_ns, 0, ks.kind, ks.cls);
  Rows o(m, r.step_columns);
  for (const OperatorStat& os : ops.ops)
    o.add(os.name, os.calls, os.total_ns, os.self_ns, EventKind::kCpuOp, KernelClass::kOther);

  for (size_t c = 0; c < r.step_columns; ++c) {
    const Interval w{steps[c].begin_ns, steps[c].end_ns};
    for (const auto& [first, last] : gpu_rows_starting_in(m, &w))
      for (uint32_t i = first; i < last; ++i)
        if (!keep || (i < keep->size() && (*keep)[i]))
          k.at(k.slot(s.name.at(g.slice[i]))).steps_ns[c] += s.dur_at(g.slice[i]);
    for (size_t e = 0; e < extra.size(); ++e) {
      const uint32_t x = (*extra.slices)[e];
      if (x < s.size() && s.ts_ns[x] >= w.begin && s.ts_ns[x] < w.end)
        k.at(k.slot(s.name.at(x))).steps_ns[c] += s.dur_at(x);
    }
    for (const auto& [first, last] : slice_rows_starting_in(m, &w))
      for (uint32_t i = first; i < last; ++i)
        if (s.kind_at(i) == EventKind::kCpuOp) o.at(o.slot(s.name.at(i))).steps_ns[c] += s.dur_at(i);
  }
  r.kernels = k.sorted();
  r.operators = o.sorted();
  return r;
}

}  // namespace tw
