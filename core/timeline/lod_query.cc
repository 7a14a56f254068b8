#include "core/timeline/lod_query.h"

#include <algorithm>
#include <cmath>

namespace tw {

namespace {

// First k in [from, n) with ts(k) >= boundary (n when none), ts non-decreasing and ts(from - 1) <
// boundary: a gallop from `from` (the answer is usually close, and nearby spans are nearby in
// memory), then a binary search of the last step.
template <typename Ts>
uint32_t gallop_to(uint32_t from, uint32_t n, int64_t boundary, Ts ts) {
  uint32_t step = 1, lo = from, hi = from;
  while (hi < n && ts(hi) < boundary) {
    lo = hi + 1;
    hi = step >= n - hi ? n : hi + step;
    step *= 2;
  }
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (ts(mid) < boundary) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// Walks one row of disjoint, time-ordered spans. `ts(k)`, `end(k)`, `dur(k)` give span k;
// `next(from, boundary)` the first span from `from` on that starts at or after boundary (gallop_to,
// or a search that knows more about the row); `emit(first, last, rep, n)` receives a run of spans
// [first, last] represented by span rep.
template <typename Ts, typename End, typename Dur, typename Next, typename Emit>
void scan_row(uint32_t n, const MaxIndex& longest, int64_t a, int64_t b, double w, Ts ts, End end, Dur dur, Next next,
              Emit emit) {
  uint32_t lo = 0, hi = n;
  while (lo < hi) {  // first span ending after a (ends are sorted within a row)
    uint32_t mid = lo + (hi - lo) / 2;
    if (end(mid) <= a) lo = mid + 1;
    else hi = mid;
  }
  uint32_t k = lo;
  while (k < n && ts(k) < b) {
    if (static_cast<double>(dur(k)) >= w) {
      emit(k, k, k, 1u);
      ++k;
      continue;
    }
    // End of the pixel column that holds ts(k) (a span starting before a joins column 0).
    double col = std::floor(static_cast<double>(std::max(ts(k), a) - a) / w);
    int64_t boundary = a + static_cast<int64_t>(std::ceil((col + 1) * w));
    if (boundary <= ts(k)) boundary = ts(k) + 1;
    uint32_t j = next(k + 1, boundary);
    uint32_t rep = j == k + 1 ? k : longest.argmax(k, j, dur);
    emit(k, j - 1, rep, j - k);
    k = j;
  }
}

// gallop_to over a slice row, where every read goes through the row's ids: a few steps near
// `from` (a pixel column of a zoomed-in view holds a few slices), then the row's sampled starts
// (TimelineIndex::Row::starts, contiguous) bracket the answer to kStartEvery slices, searched last.
template <typename Ts, typename Probe>
uint32_t row_next(const TimelineIndex::Row& row, uint32_t from, int64_t boundary, Ts ts, Probe probe) {
  constexpr uint32_t kEvery = TimelineIndex::kStartEvery;
  const uint32_t n = row.size;
  uint32_t below = from;  // the first index not known to start before boundary
  for (uint32_t step = 1; step <= 4; step *= 2) {
    const uint32_t at = below + step - 1;
    if (at >= n) return gallop_to(below, n, boundary, ts);
    if (ts(at) >= boundary) return gallop_to(below, at, boundary, ts);
    below = at + 1;
  }
  // ts(below - 1) < boundary. Samples at or before below - 1 start before boundary too.
  const uint32_t samples = (n + kEvery - 1) / kEvery;
  const uint32_t s_from = (below - 1) / kEvery + 1;
  const uint32_t s = gallop_to(s_from, samples, boundary, [&](uint32_t i) {
    probe();
    return row.starts[i];
  });
  // The answer lies in [max(below, (s - 1) * kEvery + 1), min(n, s * kEvery)].
  const uint32_t lo = s == s_from ? below : std::max(below, (s - 1) * kEvery + 1);
  const uint32_t hi = s == samples ? n : s * kEvery;
  return gallop_to(lo, hi, boundary, ts);
}

}  // namespace

void WindowResult::clear() {
  item_offset.clear();
  start_ns.clear(), dur_ns.clear(), depth.clear(), name.clear(), cls.clear(), id.clear();
  count.clear(), flags.clear();
  point_offset.clear();
  point_ns.clear(), point_min.clear(), point_max.clear(), point_last.clear();
  match_offset.clear();
  match_start_ns.clear(), match_dur_ns.clear(), match_depth.clear(), match_id.clear();
  instant_offset.clear(), instant_ns.clear(), instant_id.clear(), instant_name.clear(), instant_count.clear();
  mark_group.clear(), mark_ns.clear(), mark_id.clear(), mark_name.clear(), mark_count.clear();
  probes = 0;
}

int64_t to_abs_ns(const TimelineIndex& index, double rel_ns) {
  if (!(rel_ns == rel_ns)) return index.origin_ns();
  const double lim = 4.0e18;
  rel_ns = std::clamp(rel_ns, -lim, lim);
  int64_t r = static_cast<int64_t>(std::llround(rel_ns));
  int64_t o = index.origin_ns();
  if (r > 0 && o > INT64_MAX - r) return INT64_MAX;
  if (r < 0 && o < INT64_MIN - r) return INT64_MIN;
  return o + r;
}

namespace {

void slice_lane(const TimelineIndex& index, uint32_t model_track, int64_t a, int64_t b, double w,
                const SearchState* search, WindowResult& out) {
  const SliceTable& s = index.model().slices;
  uint32_t depths = index.depth_rows(model_track);
  for (uint32_t d = 0; d < depths; ++d) {
    TimelineIndex::Row row = index.row(model_track, d);
    const uint32_t* ids = row.ids;
    scan_row(
        row.size, *row.longest, a, b, w,
        [&](uint32_t k) {
          ++out.probes;
          return s.ts_ns[ids[k]];
        },
        [&](uint32_t k) {
          ++out.probes;
          return s.end_ns(ids[k]);
        },
        [&](uint32_t k) {
          ++out.probes;
          return s.dur_at(ids[k]);
        },
        [&](uint32_t from, int64_t boundary) {
          return row_next(
              row, from, boundary,
              [&](uint32_t k) {
                ++out.probes;
                return s.ts_ns[ids[k]];
              },
              [&] { ++out.probes; });
        },
        [&](uint32_t first, uint32_t last, uint32_t rep, uint32_t n) {
          uint32_t sid = ids[rep];
          int64_t t = s.ts_ns[ids[first]];
          out.start_ns.push_back(static_cast<double>(t - index.origin_ns()));
          out.dur_ns.push_back(static_cast<double>(s.end_ns(ids[last]) - t));
          out.depth.push_back(static_cast<uint16_t>(d));
          out.name.push_back(s.name.at(sid));
          out.cls.push_back(static_cast<uint8_t>(index.slice_class(sid)));
          out.id.push_back(sid);
          out.count.push_back(n);
          uint8_t f = n > 1 ? kItemMerged : 0;
          if (search && search->name_matches(s.name.at(sid))) f |= kItemMatch;
          out.flags.push_back(f);
        });
  }
}

void overlap_lane(const TimelineIndex& index, const OverlapLane& lane, int64_t a, int64_t b, double w,
                  WindowResult& out) {
  static const SliceClass kRowClass[3] = {SliceClass::kCompute, SliceClass::kCommHidden, SliceClass::kCommExposed};
  for (uint32_t r = 0; r < 3; ++r) {
    const auto& iv = lane.rows[r].intervals();
    scan_row(
        static_cast<uint32_t>(iv.size()), lane.longest[r], a, b, w, [&](uint32_t k) { return iv[k].begin; },
        [&](uint32_t k) { return iv[k].end; }, [&](uint32_t k) { return iv[k].length(); },
        [&](uint32_t from, int64_t boundary) {
          return gallop_to(from, static_cast<uint32_t>(iv.size()), boundary, [&](uint32_t k) { return iv[k].begin; });
        },
        [&](uint32_t first, uint32_t last, uint32_t, uint32_t n) {
          out.start_ns.push_back(static_cast<double>(iv[first].begin - index.origin_ns()));
          out.dur_ns.push_back(static_cast<double>(iv[last].end - iv[first].begin));
          out.depth.push_back(static_cast<uint16_t>(r));
          out.name.push_back(0);
          out.cls.push_back(static_cast<uint8_t>(kRowClass[r]));
          out.id.push_back(UINT32_MAX);
          out.count.push_back(n);
          out.flags.push_back(n > 1 ? kItemMerged : 0);
        });
  }
}

// Per pixel column: first sample time, min, max and last value. The sample before the window is
// included so a step line starts at the left edge.
void series_lane(const TimelineIndex& index, const SeriesData& d, int64_t a, int64_t b, double w, WindowResult& out) {
  size_t n = d.ts_ns.size();
  size_t k = static_cast<size_t>(std::lower_bound(d.ts_ns.begin(), d.ts_ns.end(), a) - d.ts_ns.begin());
  if (k > 0) --k;
  while (k < n && d.ts_ns[k] < b) {
    double col = std::floor(static_cast<double>(std::max(d.ts_ns[k], a) - a) / w);
    int64_t boundary = a + static_cast<int64_t>(std::ceil((col + 1) * w));
    if (boundary <= d.ts_ns[k]) boundary = d.ts_ns[k] + 1;
    double lo = d.value[k], hi = d.value[k], last = d.value[k];
    int64_t t = d.ts_ns[k];
    for (++k; k < n && d.ts_ns[k] < boundary; ++k) {
      lo = std::min(lo, d.value[k]);
      hi = std::max(hi, d.value[k]);
      last = d.value[k];
    }
    out.point_ns.push_back(static_cast<double>(t - index.origin_ns()));
    out.point_min.push_back(lo);
    out.point_max.push_back(hi);
    out.point_last.push_back(last);
  }
  if (k < n) {  // one sample past the window closes the last step
    out.point_ns.push_back(static_cast<double>(d.ts_ns[k] - index.origin_ns()));
    out.point_min.push_back(d.value[k]);
    out.point_max.push_back(d.value[k]);
    out.point_last.push_back(d.value[k]);
  }
}

// Process instants of the groups that own a queried lane, then global ones.
void scoped_instants(const TimelineIndex& index, const std::vector<uint32_t>& lanes, int64_t a, int64_t b, double w,
                     WindowResult& out) {
  const TraceModel& m = index.model();
  const InstantIndex& in = index.instants();
  auto add = [&](InstantIndex::Span s, uint32_t group) {
    size_t before = out.mark_ns.size();
    InstantIndex::decimate(m, s, index.origin_ns(), a, b, w, out.mark_ns, out.mark_id, out.mark_name, out.mark_count);
    out.mark_group.insert(out.mark_group.end(), out.mark_ns.size() - before, group);
  };
  std::vector<uint32_t> groups;
  for (uint32_t lane : lanes)
    if (lane < index.tracks().size()) groups.push_back(index.tracks()[lane].group);
  std::sort(groups.begin(), groups.end());
  groups.erase(std::unique(groups.begin(), groups.end()), groups.end());
  for (uint32_t g : groups) {
    uint32_t p = index.groups()[g].process;
    if (p != UINT32_MAX) add(in.of_process(p), g);
  }
  add(in.global(), UINT32_MAX);
  for (uint32_t p = 0; p < m.processes.size(); ++p)
    if (index.group_of_process(p) == UINT32_MAX) add(in.of_process(p), UINT32_MAX);
}

}  // namespace

void query_window(const TimelineIndex& index, const WindowQuery& q, WindowResult& out) {
  out.clear();
  int64_t a = to_abs_ns(index, q.t0_ns), b = to_abs_ns(index, q.t1_ns);
  if (b <= a) b = a + 1;
  uint32_t px = std::clamp<uint32_t>(q.px, 1, 1u << 16);
  double w = std::max(1.0, static_cast<double>(b - a) / px);
  const auto& lanes = index.tracks();
  out.item_offset.push_back(0);
  out.point_offset.push_back(0);
  out.match_offset.push_back(0);
  out.instant_offset.push_back(0);
  for (uint32_t lane : q.lanes) {
    if (lane < lanes.size()) {
      const TimelineTrack& t = lanes[lane];
      switch (t.kind) {
        case LaneKind::kSlices:
          slice_lane(index, t.source, a, b, w, q.search, out);
          if (q.search) q.search->window_matches(index, t.source, a, b, w, out);
          InstantIndex::decimate(index.model(), index.instants().of_track(t.source), index.origin_ns(), a, b, w,
                                 out.instant_ns, out.instant_id, out.instant_name, out.instant_count);
          break;
        case LaneKind::kOverlap: overlap_lane(index, index.overlap_lanes()[t.source], a, b, w, out); break;
        case LaneKind::kCounter:
        case LaneKind::kMemory: series_lane(index, index.series()[t.source], a, b, w, out); break;
      }
    }
    out.item_offset.push_back(static_cast<uint32_t>(out.start_ns.size()));
    out.point_offset.push_back(static_cast<uint32_t>(out.point_ns.size()));
    out.match_offset.push_back(static_cast<uint32_t>(out.match_start_ns.size()));
    out.instant_offset.push_back(static_cast<uint32_t>(out.instant_ns.size()));
  }
  scoped_instants(index, q.lanes, a, b, w, out);
}

}  // namespace tw
