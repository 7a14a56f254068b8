// annotation_overlaps (core/calltree/annotation_overlaps.h) against a plain computation: every row's
// union built whole (IntervalSet::union_of) and intersected pair by pair. The rows are random sets
// of a real trace's launches, nested and disjoint, so that the row with most ops, whose union the
// function streams rather than holds, has its ops on several streams (several ascending runs); on a
// crafted trace with more streams than it streams, that row is united like the others.
#include <doctest/doctest.h>

#include <algorithm>
#include <iterator>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "core/analysis/intervals.h"
#include "core/calltree/annotation_overlaps.h"
#include "tests/core/detail_test_util.h"

namespace tw {
namespace {

Interval span_of(const TraceModel& m, uint32_t launch) {
  const uint32_t g = m.launches[launch].gpu_slice;
  return {m.slices.ts_ns[g], m.slices.end_ns(g)};
}

// Every pair of rows that share no op, each row's union built whole.
std::vector<AnnotationOverlap> plain_overlaps(const TraceModel& m, const std::vector<AnnotationStat>& rows,
                                              const std::vector<std::vector<uint32_t>>& op_ids) {
  std::vector<IntervalSet> unions;
  for (const std::vector<uint32_t>& ops : op_ids) {
    std::vector<Interval> spans;
    for (uint32_t li : ops) spans.push_back(span_of(m, li));
    unions.push_back(IntervalSet::union_of(spans));
  }
  std::vector<AnnotationOverlap> out;
  for (size_t a = 0; a < rows.size(); ++a)
    for (size_t b = a + 1; b < rows.size(); ++b) {
      std::vector<uint32_t> x = op_ids[a], y = op_ids[b], both;
      std::sort(x.begin(), x.end()), std::sort(y.begin(), y.end());
      std::set_intersection(x.begin(), x.end(), y.begin(), y.end(), std::back_inserter(both));
      if (!both.empty()) continue;
      // The pair in the function's order: the one with more GPU time first.
      const bool swap = rows[b].gpu_ns > rows[a].gpu_ns;
      const size_t p = swap ? b : a, q = swap ? a : b;
      const int64_t ov = unions[p].intersect(unions[q]).total();
      if (ov > 0) out.push_back({rows[p].name, rows[q].name, ov, unions[p].total(), unions[q].total()});
    }
  std::sort(out.begin(), out.end(), [](const AnnotationOverlap& x, const AnnotationOverlap& y) {
    if (x.overlap_ns != y.overlap_ns) return x.overlap_ns > y.overlap_ns;
    return x.a != y.a ? x.a < y.a : x.b < y.b;
  });
  if (out.size() > kMaxAnnotationOverlaps) out.resize(kMaxAnnotationOverlaps);
  return out;
}

// How many ascending runs by GPU start a row's ops form in launch order.
size_t runs_of(const TraceModel& m, std::vector<uint32_t> ops) {
  std::sort(ops.begin(), ops.end());
  size_t runs = ops.empty() ? 0 : 1;
  for (size_t i = 1; i < ops.size(); ++i) runs += span_of(m, ops[i]).begin < span_of(m, ops[i - 1]).begin;
  return runs;
}

struct Rows {
  std::vector<AnnotationStat> rows;
  std::vector<std::vector<uint32_t>> op_ids;
};

// Six disjoint rows of random launches, then two nested ones over some of them (they share ops with
// those and pair with the rest): `outer` over rows 0-2, the row with most ops.
Rows random_rows(const TraceModel& m, uint32_t seed) {
  std::mt19937 rng(seed);
  Rows r;
  r.op_ids.resize(8);
  std::uniform_int_distribution<int> pick(0, 8);
  for (uint32_t li = 0; li < m.launches.size(); ++li) {
    const int row = pick(rng);
    if (row >= 6) continue;  // under no disjoint row
    r.op_ids[row].push_back(li);
    if (row <= 2) r.op_ids[6].push_back(li);
    if (row == 3 && rng() % 2) r.op_ids[7].push_back(li);
  }
  for (uint32_t k = 0; k < r.op_ids.size(); ++k) {
    std::shuffle(r.op_ids[k].begin(), r.op_ids[k].end(), rng);  // the function sorts them
    AnnotationStat a;
    a.name = k + 1;  // distinct ids: the order only
    a.gpu_ops = r.op_ids[k].size();
    for (uint32_t li : r.op_ids[k]) a.gpu_ns += span_of(m, li).length();
    r.rows.push_back(a);
  }
  return r;
}

void check_against_plain(const TraceModel& m, uint32_t seed) {
  Rows r = random_rows(m, seed);
  const std::vector<AnnotationOverlap> want = plain_overlaps(m, r.rows, r.op_ids);
  const std::vector<AnnotationOverlap> got = annotation_overlaps(m, r.rows, r.op_ids);
  REQUIRE(!want.empty());
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    INFO("pair " << i);
    CHECK(std::tie(got[i].a, got[i].b, got[i].overlap_ns, got[i].a_busy_ns, got[i].b_busy_ns) ==
          std::tie(want[i].a, want[i].b, want[i].overlap_ns, want[i].a_busy_ns, want[i].b_busy_ns));
  }
  for (const std::vector<uint32_t>& ops : r.op_ids) CHECK(ops.empty());  // freed as used
}

// Kernels on `streams` streams, each launched from one CPU thread, the streams' kernels interleaved
// in time.
std::string many_streams_trace(int streams, int per_stream) {
  std::string s = R"({"traceEvents":[)";
  int corr = 0;
  for (int k = 0; k < per_stream; ++k)
    for (int st = 0; st < streams; ++st) {
      ++corr;
      const int64_t t = 10 * (int64_t(k) * streams + st);
      const std::string c = std::to_string(corr);
      s += (corr > 1 ? "," : "") + std::string(R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,)") +
           R"("tid":1,"ts":)" + std::to_string(t) + R"(,"dur":1,"args":{"correlation":)" + c + "}}";
      s += R"(,{"ph":"X","cat":"kernel","name":"k","pid":0,"tid":)" + std::to_string(st) + R"(,"ts":)" +
           std::to_string(t + 5) + R"(,"dur":)" + std::to_string(3 + (k * 7 + st) % 40) + R"(,"args":{"correlation":)" +
           c + R"(,"device":0,"stream":)" + std::to_string(st) + "}}";
    }
  return s + "]}";
}

}  // namespace

TEST_CASE("annotation overlaps: the largest row's union streamed past its partners, as if held") {
  const TraceModel& m = detail_test::data_trace("deepseek_profile_data/train.json");
  REQUIRE(m.launches.size() > 500);
  for (uint32_t seed : {1u, 2u, 3u}) {
    INFO("seed " << seed);
    const Rows r = random_rows(m, seed);
    // The streamed row: the most ops, its ops in several runs (streams), not more than it streams.
    REQUIRE(std::max_element(r.rows.begin(), r.rows.end(), [](const AnnotationStat& a, const AnnotationStat& b) {
              return a.gpu_ops < b.gpu_ops;
            }) == r.rows.begin() + 6);
    const size_t runs = runs_of(m, r.op_ids[6]);
    CHECK(runs > 1);
    CHECK(runs <= 64);
    check_against_plain(m, seed);
  }
}

TEST_CASE("annotation overlaps: a row in more runs than are streamed, united like the others, gives the same pairs") {
  auto imp = detail_test::import_text(many_streams_trace(80, 40));
  const TraceModel& m = imp->model();
  REQUIRE(m.launches.size() == 80 * 40);
  const Rows r = random_rows(m, 7);
  CHECK(runs_of(m, r.op_ids[6]) > 64);
  check_against_plain(m, 7);
}

}  // namespace tw
