#include "core/analysis/kernels.h"

#include <algorithm>

#include "core/analysis/percentile.h"

namespace tw {

KernelsResult kernel_stats(const TraceModel& m, const std::vector<KernelClass>& classes,
                           const std::vector<uint8_t>* keep) {
  KernelsResult r;
  const SliceTable& s = m.slices;
  const GpuOpTable& g = m.gpu_ops;
  std::vector<uint32_t> rows;
  rows.reserve(g.size());
  for (uint32_t i = 0; i < g.size(); ++i)
    if (!keep || (i < keep->size() && (*keep)[i])) rows.push_back(i);
  // Group by name, durations ascending inside a group: percentiles are then direct lookups.
  std::sort(rows.begin(), rows.end(), [&](uint32_t a, uint32_t b) {
    StringId na = s.name[g.slice[a]], nb = s.name[g.slice[b]];
    if (na != nb) return na < nb;
    int64_t da = s.dur_ns[g.slice[a]], db = s.dur_ns[g.slice[b]];
    return da != db ? da < db : a < b;
  });
  std::vector<int64_t> durs;
  size_t i = 0;
  while (i < rows.size()) {
    KernelStat k;
    uint32_t first = rows[i];
    k.name = s.name[g.slice[first]];
    k.kind = s.kind[g.slice[first]];
    k.cls = first < classes.size() ? classes[first] : KernelClass::kOther;
    durs.clear();
    for (; i < rows.size() && s.name[g.slice[rows[i]]] == k.name; ++i) {
      uint32_t row = rows[i];
      int64_t d = s.dur_ns[g.slice[row]];
      durs.push_back(d);
      k.total_ns += d;
      KernelClass c = row < classes.size() ? classes[row] : KernelClass::kOther;
      r.class_ns[static_cast<int>(c)] += d;
    }
    k.count = durs.size();
    k.min_ns = durs.front();
    k.max_ns = durs.back();
    k.p50_ns = percentile_sorted(durs, 50);
    k.p95_ns = percentile_sorted(durs, 95);
    k.mean_ns = static_cast<double>(k.total_ns) / static_cast<double>(k.count);
    r.count += k.count;
    r.total_ns += k.total_ns;
    r.by_name.push_back(k);
  }
  for (KernelStat& k : r.by_name)
    k.share = r.total_ns > 0 ? static_cast<double>(k.total_ns) / static_cast<double>(r.total_ns) : 0;
  std::sort(r.by_name.begin(), r.by_name.end(), [](const KernelStat& a, const KernelStat& b) {
    if (a.total_ns != b.total_ns) return a.total_ns > b.total_ns;
    return a.name < b.name;
  });
  return r;
}

}  // namespace tw
