#include "core/analysis/temporal.h"

#include <algorithm>

#include "core/analysis/hta_compat.h"

namespace tw {

GpuActivity gpu_activity(const TraceModel& m, const std::vector<KernelClass>& cls, const ActivityOptions& opt) {
  GpuActivity a;
  const GpuOpTable& g = m.gpu_ops;
  // United as they come (intervals.h), each class in room for all its ops.
  size_t count[kKernelClassCount] = {};
  for (size_t row = 0; row < g.size() && row < cls.size(); ++row)
    if (row_selected(opt.kept, row)) ++count[static_cast<int>(cls[row])];
  for (size_t i = 0; i < opt.extra.size(); ++i) ++count[static_cast<int>((*opt.extra.classes)[i])];
  std::vector<IntervalUnion> by_class;
  for (int c = 0; c < kKernelClassCount; ++c) by_class.emplace_back(count[c]);
  auto add = [&](uint32_t s, KernelClass c) {
    int64_t b = m.slices.ts_ns[s];
    int64_t e = m.slices.end_ns(s);
    if (opt.round_to_us) hta_round_to_us(&b, &e);
    if (!a.any) {
      a.first_ns = b;
      a.last_end_ns = e;
      a.any = true;
    }
    a.first_ns = std::min(a.first_ns, b);
    a.last_end_ns = std::max(a.last_end_ns, e);
    ++a.ops;
    by_class[static_cast<int>(c)].add({b, e});
  };
  for (size_t row = 0; row < g.size() && row < cls.size(); ++row) {
    if (!row_selected(opt.kept, row)) continue;
    add(g.slice[row], cls[row]);
  }
  for (size_t i = 0; i < opt.extra.size(); ++i) {
    if ((*opt.extra.slices)[i] < m.slices.size()) add((*opt.extra.slices)[i], (*opt.extra.classes)[i]);
  }
  for (int c = 0; c < kKernelClassCount; ++c) {
    a.by_class[c] = by_class[c].take();
  }
  return a;
}

namespace {

constexpr int kMasks = 1 << kKernelClassCount;

// The time inside [begin, end) covered by exactly the classes of each mask (bit c: class c), in
// one sweep over the class sets' boundaries: the exposed times are differences of sets whose
// union, difference and clipped copies would each be a set as large as the inputs, built and
// dropped while the GPU activity is held: a peak in the summary's memory (docs/performance.md).
void coverage(const IntervalSet* sets, int64_t begin, int64_t end, int64_t (&by_mask)[kMasks]) {
  const std::vector<Interval>* v[kKernelClassCount];
  size_t at[kKernelClassCount];
  bool inside[kKernelClassCount] = {};
  for (int c = 0; c < kKernelClassCount; ++c) {
    v[c] = &sets[c].intervals();
    // The first interval that ends after `begin` (the ones before cover nothing in the window).
    at[c] = static_cast<size_t>(
        std::partition_point(v[c]->begin(), v[c]->end(), [begin](const Interval& iv) { return iv.end <= begin; }) -
        v[c]->begin());
  }
  int64_t pos = begin;
  unsigned mask = 0;
  while (pos < end) {
    int64_t next = end;
    for (int c = 0; c < kKernelClassCount; ++c)
      if (at[c] < v[c]->size()) next = std::min(next, inside[c] ? (*v[c])[at[c]].end : (*v[c])[at[c]].begin);
    if (next > pos) by_mask[mask] += next - pos, pos = next;
    if (pos >= end) break;
    for (int c = 0; c < kKernelClassCount; ++c) {
      if (at[c] >= v[c]->size()) continue;
      const Interval& iv = (*v[c])[at[c]];
      if (inside[c] && iv.end <= pos) inside[c] = false, ++at[c], mask &= ~(1u << c);
      // Entering the next interval: one starting here, or (in the first round) before `begin`.
      if (!inside[c] && at[c] < v[c]->size() && (*v[c])[at[c]].begin <= pos) inside[c] = true, mask |= 1u << c;
    }
  }
}

TemporalBreakdown breakdown(const IntervalSet* sets, int64_t begin, int64_t end) {
  TemporalBreakdown t;
  t.begin_ns = begin;
  t.end_ns = end;
  t.span_ns = end - begin;
  int64_t by_mask[kMasks] = {};
  coverage(sets, begin, end, by_mask);
  const unsigned comp = 1u << static_cast<int>(KernelClass::kComputation);
  const unsigned comm = 1u << static_cast<int>(KernelClass::kCommunication);
  const unsigned mem = 1u << static_cast<int>(KernelClass::kMemory);
  const unsigned other = 1u << static_cast<int>(KernelClass::kOther);
  for (unsigned m = 1; m < kMasks; ++m) {
    t.busy_ns += by_mask[m];
    for (int c = 0; c < kKernelClassCount; ++c)
      if (m & (1u << c)) t.class_ns[c] += by_mask[m];
    if ((m & comm) && !(m & comp)) t.exposed_communication_ns += by_mask[m];
    if ((m & mem) && !(m & (comp | comm))) t.exposed_memory_ns += by_mask[m];
    if ((m & other) && !(m & (comp | comm | mem))) t.exposed_other_ns += by_mask[m];
  }
  t.idle_ns = t.span_ns - t.busy_ns;
  t.compute_ns = t.class_ns[static_cast<int>(KernelClass::kComputation)];
  t.non_compute_ns = t.span_ns - t.idle_ns - t.compute_ns;
  return t;
}

}  // namespace

TemporalBreakdown temporal_breakdown(const GpuActivity& a) { return breakdown(a.by_class, a.first_ns, a.last_end_ns); }

TemporalBreakdown temporal_breakdown_in(const GpuActivity& a, int64_t begin_ns, int64_t end_ns) {
  if (end_ns < begin_ns) end_ns = begin_ns;
  return breakdown(a.by_class, begin_ns, end_ns);
}

}  // namespace tw
