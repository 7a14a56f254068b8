#include "core/analysis/step_breakdown.h"

#include <algorithm>
#include <string_view>

#include "core/analysis/intervals.h"
#include "core/analysis/percentile.h"

namespace tw {

const char* step_category_name(StepCategory c) {
  switch (c) {
    case StepCategory::kKernel: return "kernel";
    case StepCategory::kMemcpy: return "memcpy";
    case StepCategory::kMemset: return "memset";
    case StepCategory::kCommunication: return "communication";
    case StepCategory::kRuntime: return "runtime";
    case StepCategory::kDataLoader: return "dataloader";
    case StepCategory::kCpuExec: return "cpu_exec";
    case StepCategory::kOther: break;
  }
  return "other";
}

namespace {

// The time the step windows look at: each window [lo, hi] widened by 1 ns on both sides, so the
// integer points a window's total_within depends on are all inside (also for a window whose end
// lies before its begin). Slices that do not reach it cannot change any step's numbers.
IntervalSet step_region(const std::vector<ProfilerStep>& steps) {
  std::vector<Interval> w;
  w.reserve(steps.size());
  for (const ProfilerStep& st : steps) {
    const int64_t lo = std::min(st.begin_ns, st.end_ns), hi = std::max(st.begin_ns, st.end_ns);
    w.push_back({lo > INT64_MIN ? lo - 1 : lo, hi < INT64_MAX ? hi + 1 : hi});
  }
  return IntervalSet::union_of(std::move(w));
}

}  // namespace

StepBreakdown step_breakdown(const TraceModel& m, const std::vector<ProfilerStep>& steps,
                             const std::vector<KernelClass>& classes) {
  StepBreakdown r;
  if (steps.empty()) return r;
  const SliceTable& s = m.slices;
  constexpr int kBusy = kStepCategoryCount - 1;  // every category but Other has intervals
  IntervalUnion raw[kBusy];                      // united as they come (intervals.h)
  const IntervalSet region_set = step_region(steps);
  const std::vector<Interval>& region = region_set.intervals();
  auto in_region = [&region](int64_t ts, int64_t end) {
    auto it =
        std::lower_bound(region.begin(), region.end(), ts, [](const Interval& a, int64_t t) { return a.end <= t; });
    return it != region.end() && it->begin < end;
  };
  const GpuOpTable& g = m.gpu_ops;
  for (uint32_t i = 0; i < g.size(); ++i) {
    uint32_t sl = g.slice[i];
    if (!in_region(s.ts_ns[sl], s.end_ns(sl))) continue;
    StepCategory c = StepCategory::kKernel;
    if (s.kind_at(sl) == EventKind::kMemcpy) c = StepCategory::kMemcpy;
    else if (s.kind_at(sl) == EventKind::kMemset) c = StepCategory::kMemset;
    else if (i < classes.size() && classes[i] == KernelClass::kCommunication) c = StepCategory::kCommunication;
    raw[static_cast<int>(c)].add({s.ts_ns[sl], s.end_ns(sl)});
  }
  // Names decided once per interned string: DataLoader roots and the ProfilerStep slices.
  std::vector<int8_t> name_class(m.strings.size(), -1);  // 0 plain, 1 dataloader, 2 profiler step
  auto classify_name = [&](StringId n) {
    if (name_class[n] < 0) {
      std::string_view v = m.strings.get(n);
      int64_t num;
      name_class[n] = v.substr(0, 21) == "enumerate(DataLoader)" ? 1 : parse_profiler_step_name(v, &num) ? 2 : 0;
    }
    return name_class[n];
  };
  // A slice nested inside an open slice of the same category adds nothing to that category's
  // union, so only the outermost ones are collected (operators nest deeply: this keeps the sort small).
  struct Open {
    int64_t end;
    int8_t category;
  };
  std::vector<Open> open;
  // A category's union is the union of all its slices; skipping the covered ones and the ones outside
  // the step region only saves work. Slices start in order on a track, so the region is walked once.
  for (size_t t = 0; t < m.tracks.size(); ++t) {
    if (m.tracks[t].kind != TrackKind::kThread) continue;
    open.clear();
    size_t next_region = 0;
    const SliceTable::Rows rows = s.rows_of(t);
    for (uint32_t i = rows.begin; i < rows.end; ++i) {
      int64_t ts = s.ts_ns[i], end = s.end_ns(i);
      while (next_region < region.size() && region[next_region].end <= ts) ++next_region;
      if (next_region == region.size()) break;
      if (region[next_region].begin >= end) continue;
      while (!open.empty() && open.back().end <= ts) open.pop_back();
      EventKind k = s.kind_at(i);
      int8_t cat = -1;
      if (k == EventKind::kKernel || k == EventKind::kMemcpy || k == EventKind::kMemset ||
          k == EventKind::kGpuUserAnnotation || k == EventKind::kCudaSync) {
        cat = -1;  // GPU-side rows that landed on a thread track
      } else {
        int nc = classify_name(s.name.at(i));
        if (nc != 2)
          cat = static_cast<int8_t>(k == EventKind::kCudaRuntime || k == EventKind::kCudaDriver ? StepCategory::kRuntime
                                    : nc == 1 ? StepCategory::kDataLoader
                                              : StepCategory::kCpuExec);
      }
      bool covered = false;
      if (cat >= 0)
        for (size_t d = open.size(); d-- > 0;)
          if (open[d].category == cat && open[d].end >= end) {
            covered = true;
            break;
          }
      if (cat >= 0 && !covered) raw[cat].add({ts, end});
      open.push_back({end, cat});
    }
  }
  // Exclusive sets: each category minus everything of higher priority.
  IntervalSet exclusive[kBusy];
  IntervalSet higher;
  for (int c = 0; c < kBusy; ++c) {
    IntervalSet set = raw[c].take();
    exclusive[c] = set.subtract(higher);
    higher = higher.unite(set);
  }
  std::vector<int64_t> durs;
  for (const ProfilerStep& st : steps) {
    StepTimes t;
    t.number = st.number;
    t.begin_ns = st.begin_ns;
    t.end_ns = st.end_ns;
    int64_t covered = 0;
    for (int c = 0; c < kBusy; ++c) {
      t.category_ns[c] = exclusive[c].total_within(st.begin_ns, st.end_ns);
      covered += t.category_ns[c];
    }
    t.category_ns[kBusy] = std::max<int64_t>(0, st.duration_ns() - covered);
    for (int c = 0; c < kStepCategoryCount; ++c) r.category_ns[c] += t.category_ns[c];
    durs.push_back(st.duration_ns());
    r.total_ns += st.duration_ns();
    r.steps.push_back(t);
  }
  std::sort(durs.begin(), durs.end());
  r.min_ns = durs.front();
  r.max_ns = durs.back();
  r.p50_ns = percentile_sorted(durs, 50);
  r.mean_ns = r.total_ns / static_cast<int64_t>(durs.size());
  return r;
}

}  // namespace tw
