// Level-of-detail window query: exactness when zoomed in, merging when zoomed out, representative
// = longest, bounded output, and cost that does not grow with the number of slices in the window.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <random>

#include "core/timeline/lod_query.h"
#include "tests/core/timeline_test_util.h"

using namespace tw;

namespace {

WindowResult query(const TimelineIndex& idx, std::vector<uint32_t> lanes, double t0, double t1, uint32_t px,
                   const SearchState* search = nullptr) {
  WindowQuery q;
  q.lanes = std::move(lanes);
  q.t0_ns = t0;
  q.t1_ns = t1;
  q.px = px;
  q.search = search;
  WindowResult r;
  query_window(idx, q, r);
  return r;
}

}  // namespace

TEST_CASE("timeline LOD: zoomed in returns every slice exactly, with depth") {
  test::ModelBuilder b;
  uint32_t p = b.process(10, "proc");
  uint32_t t = b.track(p, 1);
  b.slice(t, 1000, 500, "outer");
  b.slice(t, 1100, 100, "inner1");
  b.slice(t, 1300, 50, "inner2");
  b.slice(t, 2000, 10, "later");
  TraceModel& m = b.finish();
  TimelineIndex idx(m);
  REQUIRE(idx.tracks().size() == 1);
  CHECK(idx.origin_ns() == 1000);
  // 1 ns per pixel: nothing merges.
  WindowResult r = query(idx, {0}, 0, 1010, 1010);
  REQUIRE(r.items() == 4);
  CHECK(r.item_offset == std::vector<uint32_t>{0, 4});
  // Rows come depth by depth, each in time order.
  CHECK(r.start_ns == std::vector<double>{0, 1000, 100, 300});
  CHECK(r.dur_ns == std::vector<double>{500, 10, 100, 50});
  CHECK(r.depth == std::vector<uint16_t>{0, 0, 1, 1});
  CHECK(std::string(m.strings.get(r.name[2])) == "inner1");
  CHECK(r.count == std::vector<uint32_t>{1, 1, 1, 1});
  // A window in the middle only returns what intersects it (the parent that started before it too).
  r = query(idx, {0}, 250, 280, 30);
  REQUIRE(r.items() == 1);
  CHECK(r.start_ns[0] == 0);
  CHECK(idx.self_ns(test::find_slice(m, "outer")) == 350);
}

TEST_CASE("timeline LOD: narrow slices merge per pixel column, longest is the representative") {
  test::ModelBuilder b;
  uint32_t t = b.track(b.process(1, "p"), 1);
  // 100 slices of 1..10 ns in [0, 1000), one 80 ns slice at 500.
  for (int i = 0; i < 100; ++i) {
    if (i == 50) b.slice(t, 500, 8, "long");
    else b.slice(t, i * 10, 1 + i % 5, "short" + std::to_string(i % 3));
  }
  TraceModel& m = b.finish();
  TimelineIndex idx(m);
  // 10 pixel columns of 100 ns: every column merges its 10 slices into one item.
  WindowResult r = query(idx, {0}, 0, 1000, 10);
  REQUIRE(r.items() == 10);
  uint32_t total = 0;
  for (size_t i = 0; i < r.items(); ++i) {
    total += r.count[i];
    CHECK((r.flags[i] & kItemMerged) != 0);
  }
  CHECK(total == 100);
  CHECK(std::string(m.strings.get(r.name[5])) == "long");
  CHECK(r.start_ns[5] == 500);
  CHECK(r.dur_ns[5] == 90 + 5);  // from the first start to the last end in the column
}

TEST_CASE("timeline LOD: at most ~one item per pixel column per row") {
  test::ModelBuilder b;
  uint32_t t = b.track(b.process(1, "p"), 1);
  for (int i = 0; i < 20000; ++i) {
    int64_t ts = i * 100;
    b.slice(t, ts, 90, "parent");
    b.slice(t, ts + 10, 30 + i % 40, "child");
  }
  TraceModel& m = b.finish();
  TimelineIndex idx(m);
  for (uint32_t px : {1u, 7u, 300u, 1000u, 5000u}) {
    WindowResult r = query(idx, {0}, 0, 2000000, px);
    CHECK(r.items() <= 2 * (2 * px + 2));
    uint64_t merged = 0;
    for (uint32_t c : r.count) merged += c;
    CHECK(merged == 40000);  // every slice is in exactly one item
  }
}

TEST_CASE("timeline LOD: cost does not grow with the slices in the window (complexity, not timing)") {
  auto probes_for = [](int n) {
    test::ModelBuilder b;
    uint32_t t = b.track(b.process(1, "p"), 1);
    for (int i = 0; i < n; ++i) b.slice(t, int64_t(i) * 1000, 100 + (int64_t(i) * 7919) % 800, "s");
    TraceModel& m = b.finish();
    TimelineIndex idx(m);
    WindowResult r = query(idx, {0}, 0, double(n) * 1000, 200);
    CHECK(r.items() <= 2 * 200 + 2);
    return r.probes;
  };
  uint64_t small = probes_for(20000), large = probes_for(640000);
  INFO("probes for 20k slices: ", small, ", for 640k: ", large);
  CHECK(large < 2 * small);    // ~logarithmic in n
  CHECK(large < 640000 / 10);  // far from a scan
}

namespace {

// The LOD walk of one row written plainly (every span read in turn), as the oracle of the query's
// searches (the sampled starts, the gallops, MaxIndex): items {start - origin, dur, id, count}.
std::vector<std::array<int64_t, 4>> plain_row_lod(const TraceModel& m, const std::vector<uint32_t>& row, int64_t origin,
                                                  int64_t a, int64_t b, double w) {
  const SliceTable& s = m.slices;
  auto ts = [&](size_t k) { return s.ts_ns[row[k]]; };
  auto dur = [&](size_t k) { return s.dur_at(row[k]); };
  std::vector<std::array<int64_t, 4>> out;
  size_t k = 0, n = row.size();
  while (k < n && ts(k) + dur(k) <= a) ++k;
  while (k < n && ts(k) < b) {
    size_t j = k + 1, rep = k;
    if (static_cast<double>(dur(k)) < w) {
      double col = std::floor(static_cast<double>(std::max(ts(k), a) - a) / w);
      int64_t boundary = a + static_cast<int64_t>(std::ceil((col + 1) * w));
      if (boundary <= ts(k)) boundary = ts(k) + 1;
      while (j < n && ts(j) < boundary) ++j;
      for (size_t i = k + 1; i < j; ++i)
        if (dur(i) > dur(rep)) rep = i;
    }
    out.push_back({ts(k) - origin, ts(j - 1) + dur(j - 1) - ts(k), int64_t(row[rep]), int64_t(j - k)});
    k = j;
  }
  return out;
}

}  // namespace

TEST_CASE("timeline LOD: a row's items equal a plain walk of it, at every zoom (the searches are exact)") {
  std::mt19937_64 rng(4301);
  for (int round = 0; round < 6; ++round) {
    test::ModelBuilder bld;
    // Odd rounds a GPU stream of kernels (compute and communication by name, so each item's class
    // comes from its GPU op's row), even rounds a CPU thread.
    const bool gpu = round % 2 == 1;
    const uint32_t p = bld.process(1, "p");
    bld.track(p, 2, TrackKind::kGpuStream);  // GPU ops of another stream before this one's
    uint32_t t = bld.track(p, 1, gpu ? TrackKind::kGpuStream : TrackKind::kThread);
    for (int i = 0; i < 300; ++i) bld.slice(0, 10 * i, 5, "gemm other", EventKind::kKernel);
    // One row of 20000 spans: runs of short ones (many per pixel column when zoomed out, so the
    // sampled starts and MaxIndex's levels are used), long ones, zero-length ones and equal starts.
    int64_t at = 1000;
    for (int i = 0; i < 20000; ++i) {
      const uint64_t r = rng();
      const int64_t d = r % 50 == 0 ? int64_t(r % 100000) : int64_t(r % (round % 2 ? 3 : 40));
      bld.slice(t, at, d, (r % 3 ? "gemm " : "ncclKernel ") + std::to_string(r % 7),
                gpu ? EventKind::kKernel : EventKind::kOther);
      at += d + int64_t((r >> 20) % (r % 9 == 0 ? 2000 : 5));
    }
    TraceModel& m = bld.finish();
    TimelineIndex idx(m);
    // (two zero-length spans at one time nest: a second row)
    std::vector<std::vector<uint32_t>> rows;
    const uint32_t track = 1;
    for (uint32_t d = 0; d < idx.depth_rows(track); ++d) {
      const TimelineIndex::Row row = idx.row(track, d);
      rows.emplace_back(row.ids, row.ids + row.size);
    }
    REQUIRE(rows[0].size() > 19000);
    const int64_t origin = idx.origin_ns(), span = at - origin;
    size_t comm = 0;  // representatives named nccl: both classes were met
    for (int q = 0; q < 40; ++q) {
      int64_t t0 = int64_t(rng() % uint64_t(span)), t1 = t0 + 1 + int64_t(rng() % uint64_t(span - t0 + 10));
      if (q % 8 == 0) t0 = -50, t1 = span + 50;
      const uint32_t px = std::array<uint32_t, 5>{3, 40, 700, 3000, 60000}[q % 5];
      CAPTURE(round);
      CAPTURE(t0);
      CAPTURE(t1);
      CAPTURE(px);
      const WindowResult r = query(idx, {idx.lane_of_model_track(track)}, double(t0), double(t1), px);
      const int64_t a = origin + t0, b = origin + t1;
      std::vector<std::array<int64_t, 4>> want;
      std::vector<uint16_t> depth;
      for (uint16_t d = 0; d < rows.size(); ++d) {
        const auto items = plain_row_lod(m, rows[d], origin, a, b, std::max(1.0, double(b - a) / px));
        want.insert(want.end(), items.begin(), items.end());
        depth.insert(depth.end(), items.size(), d);
      }
      REQUIRE(r.items() == want.size());
      CHECK(r.depth == depth);
      for (size_t i = 0; i < want.size(); ++i) {
        CHECK(r.start_ns[i] == double(want[i][0]));
        CHECK(r.dur_ns[i] == double(want[i][1]));
        CHECK(r.id[i] == uint32_t(want[i][2]));
        CHECK(r.count[i] == uint32_t(want[i][3]));
        // The class the representative's name gives (not slice_class itself: that is what emits it).
        const bool nccl = m.strings.get(m.slices.name.at(r.id[i])).substr(0, 4) == "nccl";
        const SliceClass cls = !gpu ? SliceClass::kOther : nccl ? SliceClass::kCommunication : SliceClass::kCompute;
        CHECK(r.cls[i] == uint8_t(cls));
        comm += nccl;
      }
    }
    CHECK(comm > 0);
  }
}

TEST_CASE("timeline LOD: windows outside the trace, degenerate and hostile arguments") {
  test::ModelBuilder b;
  uint32_t t = b.track(b.process(1, "p"), 1);
  b.slice(t, 0, 10, "a");
  TraceModel& m = b.finish();
  TimelineIndex idx(m);
  CHECK(query(idx, {0}, 100, 200, 100).items() == 0);
  CHECK(query(idx, {0}, -200, -100, 100).items() == 0);
  CHECK(query(idx, {0}, 5, 5, 0).items() == 1);
  CHECK(query(idx, {0, 99, 0}, 0, 1e300, 100).item_offset.size() == 4);
  CHECK(query(idx, {0}, std::nan(""), -1e300, 4000000000u).items() <= 1);
}

TEST_CASE("timeline LOD: counters and memory decimate to min/max per column") {
  test::ModelBuilder b;
  uint32_t p = b.process(1, "p");
  b.slice(b.track(p, 1), 0, 1000, "s");
  CounterSeries c;
  c.process = p;
  c.name = b.m.strings.intern("queue");
  for (int i = 999; i >= 0; --i) {  // out of order on purpose: the index sorts
    c.ts_ns.push_back(i);
    c.value.push_back(i % 10);
  }
  b.m.counters.push_back(c);
  TraceModel& m = b.finish();
  TimelineIndex idx(m);
  REQUIRE(idx.tracks().size() == 2);
  CHECK(idx.tracks()[1].kind == LaneKind::kCounter);
  WindowResult r = query(idx, {1}, 0, 1000, 10);
  REQUIRE(r.point_ns.size() == 10);
  CHECK(r.point_min[3] == 0);
  CHECK(r.point_max[3] == 9);
  CHECK(r.point_last[3] == 9);
  CHECK(r.point_ns[3] == 300);
}

TEST_CASE("timeline LOD: a hostile nesting chain is capped at 65536 rows and stays queryable") {
  test::ModelBuilder b;
  uint32_t t = b.track(b.process(1, "p"), 1);
  const int n = 70000;
  for (int i = 0; i < n; ++i) b.slice(t, i, 2 * (n - i), "nest");
  TraceModel& m = b.finish();
  TimelineIndex idx(m);
  CHECK(m.tracks[0].max_depth == uint32_t(n));
  CHECK(idx.depth_rows(0) == 65536);
  CHECK(idx.tracks()[0].rows == 65536);
  WindowResult r = query(idx, {0}, 0, 2.0 * n, 100);
  uint64_t merged = 0;
  for (uint32_t c : r.count) merged += c;
  CHECK(merged == uint64_t(n));
  CHECK(idx.self_ns(test::find_slice(m, "nest")) == 2);  // [0, 2n) minus its child [1, 2n - 1)
}
