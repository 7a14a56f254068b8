#include "core/analysis/temporal.h"

#include <algorithm>

#include "core/analysis/hta_compat.h"

namespace tw {

GpuActivity gpu_activity(const TraceModel& m, const std::vector<KernelClass>& cls, const ActivityOptions& opt) {
  GpuActivity a;
  const GpuOpTable& g = m.gpu_ops;
  IntervalUnion by_class[kKernelClassCount];  // united as they come (intervals.h)
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
    if (opt.kept && (row >= opt.kept->size() || !(*opt.kept)[row])) continue;
    add(g.slice[row], cls[row]);
  }
  for (size_t i = 0; i < opt.extra.size(); ++i) {
    if ((*opt.extra.slices)[i] < m.slices.size()) add((*opt.extra.slices)[i], (*opt.extra.classes)[i]);
  }
  for (int c = 0; c < kKernelClassCount; ++c) {
    a.by_class[c] = by_class[c].take();
    a.all = a.all.unite(a.by_class[c]);
  }
  return a;
}

namespace {

TemporalBreakdown breakdown(const IntervalSet* sets, const IntervalSet& all, int64_t begin, int64_t end) {
  TemporalBreakdown t;
  t.begin_ns = begin;
  t.end_ns = end;
  t.span_ns = end - begin;
  t.busy_ns = all.total();
  t.idle_ns = t.span_ns - t.busy_ns;
  for (int c = 0; c < kKernelClassCount; ++c) t.class_ns[c] = sets[c].total();
  const IntervalSet& comp = sets[static_cast<int>(KernelClass::kComputation)];
  const IntervalSet& comm = sets[static_cast<int>(KernelClass::kCommunication)];
  const IntervalSet& mem = sets[static_cast<int>(KernelClass::kMemory)];
  const IntervalSet& other = sets[static_cast<int>(KernelClass::kOther)];
  t.compute_ns = comp.total();
  t.non_compute_ns = t.span_ns - t.idle_ns - t.compute_ns;
  const IntervalSet comp_comm = comp.unite(comm);
  t.exposed_communication_ns = comm.subtract(comp).total();
  t.exposed_memory_ns = mem.subtract(comp_comm).total();
  t.exposed_other_ns = other.subtract(comp_comm.unite(mem)).total();
  return t;
}

}  // namespace

TemporalBreakdown temporal_breakdown(const GpuActivity& a) {
  return breakdown(a.by_class, a.all, a.first_ns, a.last_end_ns);
}

TemporalBreakdown temporal_breakdown_in(const GpuActivity& a, int64_t begin_ns, int64_t end_ns) {
  if (end_ns < begin_ns) end_ns = begin_ns;
  IntervalSet clipped[kKernelClassCount];
  for (int c = 0; c < kKernelClassCount; ++c) clipped[c] = a.by_class[c].clip(begin_ns, end_ns);
  return breakdown(clipped, a.all.clip(begin_ns, end_ns), begin_ns, end_ns);
}

}  // namespace tw
