// Interval sets (core/analysis/intervals.h): union_of, SortedUnion, IntervalUnion, UnionLengthBefore
// and intersect_total against a brute-force union over a small time range, on inputs in random order,
// in ascending runs (as the model's tracks give them), descending, with empty and touching ones.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "core/analysis/intervals.h"

using namespace tw;

namespace {

constexpr int64_t kRange = 400;

// The union as a point set over [0, kRange), back to sorted disjoint non-touching intervals.
std::vector<Interval> brute_union(const std::vector<Interval>& ivs) {
  std::vector<bool> in(kRange, false);
  for (const Interval& iv : ivs)
    for (int64_t t = std::max<int64_t>(iv.begin, 0); t < std::min(iv.end, kRange); ++t) in[t] = true;
  std::vector<Interval> out;
  for (int64_t t = 0; t < kRange; ++t) {
    if (!in[t]) continue;
    if (!out.empty() && out.back().end == t) ++out.back().end;
    else out.push_back({t, t + 1});
  }
  return out;
}

std::vector<Interval> random_intervals(std::mt19937& rng, int n, int shape) {
  std::vector<Interval> v;
  for (int i = 0; i < n; ++i) {
    const int64_t b = rng() % (kRange - 20);
    const int64_t len = rng() % 7 == 0 ? 0 : int64_t(rng() % 20) - (rng() % 11 == 0 ? 5 : 0);  // some empty
    v.push_back({b, b + len});
  }
  if (shape == 1) std::sort(v.begin(), v.end(), [](const Interval& a, const Interval& b) { return a.begin < b.begin; });
  if (shape == 2) std::sort(v.begin(), v.end(), [](const Interval& a, const Interval& b) { return a.begin > b.begin; });
  if (shape == 3) {  // ascending runs, as several tracks' rows one after another
    for (size_t k = 0; k < v.size(); k += 1 + rng() % 30)
      std::sort(v.begin() + k, v.begin() + std::min(v.size(), k + 1 + rng() % 30),
                [](const Interval& a, const Interval& b) { return a.begin < b.begin; });
  }
  if (shape == 4)  // back to back: touching intervals merge
    for (size_t k = 0; k < v.size(); ++k) v[k] = {int64_t(k % 100) * 3, int64_t(k % 100) * 3 + 3};
  return v;
}

}  // namespace

TEST_CASE("intervals: IntervalUnion and SortedUnion give union_of's set, in any input order") {
  std::mt19937 rng(7);
  for (int round = 0; round < 400; ++round) {
    const int shape = round % 5;
    const std::vector<Interval> v = random_intervals(rng, 1 + static_cast<int>(rng() % 300), shape);
    CAPTURE(round);
    const std::vector<Interval> expected = brute_union(v);
    CHECK(IntervalSet::union_of(v).intervals() == expected);
    IntervalUnion u;
    for (const Interval& iv : v) u.add(iv);
    const IntervalSet got = u.take();
    CHECK(got.intervals() == expected);
    // Told how many will come (the runs merged into the first run's room), or fewer than that.
    for (size_t expect : {v.size(), v.size() / 3 + 1, v.size() + 50}) {
      IntervalUnion told(expect);
      for (const Interval& iv : v) told.add(iv);
      CHECK(told.take().intervals() == expected);
    }
    if (shape == 1 || shape == 4) {
      SortedUnion sorted, total_only(false);
      for (const Interval& iv : v) sorted.add(iv), total_only.add(iv);
      CHECK(sorted.total() == got.total());
      CHECK(total_only.total() == got.total());
      CHECK(sorted.take().intervals() == expected);
      CHECK(total_only.take().empty());
    }
    // Against another set: the total of the intersection without building it.
    const IntervalSet other = IntervalSet::union_of(random_intervals(rng, 1 + static_cast<int>(rng() % 100), 0));
    CHECK(got.intersect_total(other) == got.intersect(other).total());
    CHECK(other.intersect_total(got) == got.intersect(other).total());
    // The difference, built and walked: the points of one set that the other lacks.
    std::vector<Interval> lacking;
    for (const Interval& iv : expected)
      for (int64_t t = iv.begin; t < iv.end; ++t)
        if (other.total_within(t, t + 1) == 0) lacking.push_back({t, t + 1});
    const std::vector<Interval> want = brute_union(lacking);
    CHECK(got.subtract(other).intervals() == want);
    std::vector<Interval> walked;
    got.each_difference(other, [&walked](const Interval& iv) { walked.push_back(iv); });
    CHECK(walked == want);
  }
  IntervalUnion none;
  CHECK(none.take().empty());
}

TEST_CASE("intervals: UnionLengthBefore answers the union's length before each time, as the set would") {
  std::mt19937 rng(11);
  for (int round = 0; round < 400; ++round) {
    const std::vector<Interval> v = random_intervals(rng, static_cast<int>(rng() % 300), round % 2 ? 1 : 4);
    CAPTURE(round);
    const IntervalSet set = IntervalSet::union_of(v);
    // Times before, inside, at the ends of and after the intervals, some repeated.
    std::vector<UnionLengthBefore::Query> queries;
    std::vector<int64_t> times;
    for (int k = 0, n = static_cast<int>(rng() % 60); k < n; ++k) {
      int64_t t = int64_t(rng() % (kRange + 40)) - 20;
      if (!v.empty() && rng() % 3 == 0) t = rng() % 2 ? v[rng() % v.size()].begin : v[rng() % v.size()].end;
      queries.push_back({t, static_cast<uint32_t>(times.size())});
      times.push_back(t);
    }
    std::vector<int64_t> out(times.size(), -1);
    UnionLengthBefore before(queries, out);
    for (const Interval& iv : v) before.add(iv);
    before.finish();
    for (size_t k = 0; k < times.size(); ++k) CHECK(out[k] == set.total_within(-1000, times[k]));
  }
}
