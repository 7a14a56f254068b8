#include "core/analysis/kernels.h"

#include <algorithm>

#include "core/analysis/gpu_rows.h"
#include "core/analysis/percentile.h"

namespace tw {

KernelsResult kernel_stats(const TraceModel& m, const std::vector<KernelClass>& classes,
                           const std::vector<uint8_t>* keep, const Interval* window, const ExtraWork& extra) {
  KernelsResult r;
  const SliceTable& s = m.slices;
  const GpuOpTable& g = m.gpu_ops;
  // Group by name with a counting sort over name slots (names are dense ids), then take each
  // group's percentiles by selection (no group is sorted): cheaper and more cache-friendly than
  // sorting rows with an indirect key.
  std::vector<uint32_t> slot(m.strings.size(), UINT32_MAX);
  std::vector<uint32_t> first_slice, count;  // per name: its first op (kind, class) and its op count
  std::vector<KernelClass> first_class;
  // The rows inside the window come as ranges in row order, so a name's first row is the same.
  const std::vector<std::pair<uint32_t, uint32_t>> ranges = gpu_rows_starting_in(m, window);
  // f(slice, class) for each selected GPU op in row order, then for each extra slice.
  auto each_selected = [&](auto f) {
    for (const auto& [first, last] : ranges)
      for (uint32_t i = first; i < last; ++i)
        if (!keep || (i < keep->size() && (*keep)[i]))
          f(g.slice[i], i < classes.size() ? classes[i] : KernelClass::kOther);
    for (size_t k = 0; k < extra.size(); ++k) {
      const uint32_t e = (*extra.slices)[k];
      if (e < s.size() && (!window || (s.ts_ns[e] >= window->begin && s.ts_ns[e] < window->end)))
        f(e, (*extra.classes)[k]);
    }
  };
  each_selected([&](uint32_t i, KernelClass c) {
    StringId n = s.name.at(i);
    if (slot[n] == UINT32_MAX) {
      slot[n] = static_cast<uint32_t>(first_slice.size());
      first_slice.push_back(i);
      first_class.push_back(c);
      count.push_back(0);
    }
    count[slot[n]]++;
  });
  std::vector<size_t> offset(count.size() + 1, 0);
  for (size_t k = 0; k < count.size(); ++k) offset[k + 1] = offset[k] + count[k];
  std::vector<int64_t> durs(offset.back());
  std::vector<size_t> fill(offset.begin(), offset.end() - 1);
  each_selected([&](uint32_t i, KernelClass c) {
    int64_t d = s.dur_at(i);
    durs[fill[slot[s.name.at(i)]]++] = d;
    r.class_ns[static_cast<int>(c)] += d;
  });
  r.by_name.reserve(count.size());
  for (size_t k = 0; k < count.size(); ++k) {
    int64_t* b = durs.data() + offset[k];
    size_t n = count[k];
    KernelStat st;
    st.name = s.name.at(first_slice[k]);
    st.kind = s.kind_at(first_slice[k]);
    st.cls = first_class[k];
    st.count = n;
    for (size_t j = 0; j < n; ++j) st.total_ns += b[j];
    const auto [lo, hi] = std::minmax_element(b, b + n);
    st.min_ns = *lo;
    st.max_ns = *hi;
    const size_t k50 = percentile_index(n, 50), k95 = percentile_index(n, 95);
    st.p50_ns = select_sorted_index(b, n, 0, k50);
    st.p95_ns = k95 == k50 ? st.p50_ns : select_sorted_index(b, n, k50 + 1, k95);
    st.mean_ns = static_cast<double>(st.total_ns) / static_cast<double>(n);
    r.count += n;
    r.total_ns += st.total_ns;
    r.by_name.push_back(st);
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
