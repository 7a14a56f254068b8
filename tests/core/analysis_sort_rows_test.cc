// The helpers that make the summary cheaper must not change what it computes: sort_runs sorts like
// std::sort, FlatIdMap finds and keeps what std::unordered_map would, gpu_rows_starting_in selects
// exactly the rows a pass over every op would, and kernel classes (whose regexes now mostly run on
// LinearRegex, the one engine) are what std::regex gives. Checked on real traces' rows and names and on edge cases.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <regex>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/analysis/flat_id_map.h"
#include "core/analysis/gpu_rows.h"
#include "core/analysis/kernel_classes.h"
#include "core/analysis/launches.h"
#include "core/analysis/steps.h"
#include "core/base/run_sort.h"
#include "tests/core/detail_test_util.h"

namespace tw {
namespace {

const char* const kTrace = "hta/tests/data/nccl_parser_config/nccl_data.json.gz";  // 2 GPU streams, steps

using Pair = std::pair<int64_t, uint32_t>;
bool pair_less(const Pair& a, const Pair& b) { return a < b; }

void check_sorts_like_std(std::vector<Pair> v) {
  std::vector<Pair> expected = v;
  std::sort(expected.begin(), expected.end());
  sort_runs(v, pair_less);
  CHECK(v == expected);
}

}  // namespace

TEST_CASE("sort_runs: same order as std::sort on runs, sorted, reversed, random and tiny input") {
  const TraceModel& m = detail_test::data_trace(kTrace);
  // GPU op start times in row order: one ascending run per stream.
  std::vector<Pair> rows;
  for (uint32_t i = 0; i < m.gpu_ops.size(); ++i) rows.push_back({m.slices.ts_ns[m.gpu_ops.slice[i]], i});
  REQUIRE(rows.size() > 1000);
  REQUIRE(!std::is_sorted(rows.begin(), rows.end()));
  check_sorts_like_std(rows);
  // Three runs (odd count: one run is carried through a merge round unmerged), and many runs.
  std::vector<Pair> three = rows;
  three.insert(three.end(), rows.begin(), rows.begin() + 500);
  check_sorts_like_std(three);
  std::vector<Pair> chunks = rows;
  for (size_t b = 0; b < chunks.size(); b += 997)
    std::reverse(chunks.begin() + b, chunks.begin() + std::min(chunks.size(), b + 997));
  check_sorts_like_std(chunks);
  std::vector<Pair> sorted = rows;
  std::sort(sorted.begin(), sorted.end());
  check_sorts_like_std(sorted);
  check_sorts_like_std(std::vector<Pair>(sorted.rbegin(), sorted.rend()));  // every element a run: std::sort
  std::mt19937_64 rng(7);
  std::vector<Pair> random(5000);
  for (auto& p : random) p = {static_cast<int64_t>(rng() % 100), static_cast<uint32_t>(rng() % 3)};  // many ties
  check_sorts_like_std(random);
  check_sorts_like_std({});
  check_sorts_like_std({{5, 1}});
  check_sorts_like_std({{5, 1}, {4, 1}});
}

TEST_CASE("sort_runs: many runs of neighbours out of place are settled, then merged; far disorder too") {
  // Two threads' launches one after the other, each at equal microsecond times listed longer first:
  // neighbours swapped every few rows (far more runs than merging pays for), two real runs.
  std::vector<Pair> two(100000);
  for (uint32_t i = 0; i < two.size(); ++i) two[i] = {int64_t(i % 50000) * 20 + (i < 50000 ? 0 : 7), i};
  for (size_t i = 0; i + 1 < two.size(); i += 3) std::swap(two[i], two[i + 1]);
  check_sorts_like_std(two);
  // Random disorder: settling leaves too many runs, so the comparison sort finishes it.
  std::mt19937_64 rng(3);
  std::vector<Pair> shuffled = two;
  std::shuffle(shuffled.begin(), shuffled.end(), rng);
  check_sorts_like_std(shuffled);
  // settle_locally itself: an element within reach goes into place, one beyond it stays.
  std::vector<Pair> near = {{1, 0}, {3, 0}, {2, 0}, {4, 0}, {6, 0}, {5, 0}};
  detail::settle_locally(near.data(), near.size(), pair_less, 8);
  CHECK(std::is_sorted(near.begin(), near.end()));
  std::vector<Pair> far = {{2, 0}, {3, 0}, {4, 0}, {5, 0}, {1, 0}};
  detail::settle_locally(far.data(), far.size(), pair_less, 2);
  CHECK(far == std::vector<Pair>{{2, 0}, {3, 0}, {4, 0}, {5, 0}, {1, 0}});
  detail::settle_locally(far.data(), far.size(), pair_less, 4);
  CHECK(std::is_sorted(far.begin(), far.end()));
}

TEST_CASE("sort_runs: runs merged only with the runs they overlap, never across a run they reach past") {
  // Hand-made: a later run reaching below an earlier group must pull it in (a run that starts at or
  // above everything before it is not enough for a cut); equal values at a cut.
  check_sorts_like_std({{5, 0}, {10, 0}, {10, 1}, {20, 0}, {3, 0}, {30, 0}});
  check_sorts_like_std({{1, 0}, {4, 0}, {2, 0}, {3, 0}, {4, 0}, {5, 0}, {9, 0}, {6, 0}, {7, 0}});
  check_sorts_like_std({{4, 1}, {4, 0}, {4, 1}, {4, 0}, {8, 0}, {4, 2}});
  // Random: blocks of a few overlapping runs, the blocks in order or overlapping their neighbour,
  // as trace rows written a little out of order look, and as many runs as allowed before std::sort.
  std::mt19937_64 rng(3);
  for (int round = 0; round < 300; ++round) {
    std::vector<Pair> v;
    int64_t base = 0;
    const int blocks = 1 + int(rng() % 40);
    for (int b = 0; b < blocks; ++b) {
      const int runs = 1 + int(rng() % 4);
      for (int r = 0; r < runs; ++r) {
        int64_t x = base + int64_t(rng() % 50);
        for (int k = int(rng() % 30); k >= 0; --k) v.push_back({x += int64_t(rng() % 5), uint32_t(rng() % 3)});
      }
      base += rng() % 4 == 0 ? 20 : 60;  // sometimes the next block overlaps this one
    }
    check_sorts_like_std(v);
  }
}

TEST_CASE("sort_runs_each: each range sorted like std::sort, in place, one buffer for all") {
  const TraceModel& m = detail_test::data_trace(kTrace);
  std::vector<Pair> rows;
  for (uint32_t i = 0; i < m.gpu_ops.size(); ++i) rows.push_back({m.slices.ts_ns[m.gpu_ops.slice[i]], i});
  // Ranges of every kind: empty, one element, already sorted, a few runs, reversed (std::sort),
  // and a first range longer than the rest (the buffer is sized once by it, then reused).
  std::vector<Pair> v = rows;
  std::sort(v.begin(), v.begin() + 100);
  std::reverse(v.begin() + 300, v.begin() + 400);
  std::vector<size_t> bounds = {0, 0, 1, 100, 100, 400, 700, rows.size() / 2, rows.size()};
  std::vector<Pair> expected = v;
  for (size_t k = 0; k + 1 < bounds.size(); ++k)
    std::sort(expected.begin() + bounds[k], expected.begin() + bounds[k + 1]);
  sort_runs_each(v, bounds, pair_less);
  CHECK(v == expected);
  std::vector<Pair> big_first = rows;
  std::vector<size_t> b2 = {0, rows.size() - 50, rows.size()};
  expected = big_first;
  std::sort(expected.begin(), expected.end() - 50);
  std::sort(expected.end() - 50, expected.end());
  sort_runs_each(big_first, b2, pair_less);
  CHECK(big_first == expected);
}

TEST_CASE("FlatIdMap: finds and keeps the first slot of every key, as std::unordered_map::emplace") {
  FlatIdMap map;
  std::unordered_map<uint64_t, uint32_t> ref;
  CHECK(map.find(0) == FlatIdMap::kNone);
  std::mt19937_64 rng(11);
  for (uint32_t i = 0; i < 20000; ++i) {
    // Small keys repeat; also 0, the largest key, and two 32-bit ids packed as the analyses do.
    uint64_t key = i % 3 == 0 ? rng() % 500 : i % 3 == 1 ? (uint64_t(rng() % 50) << 32) | (rng() % 50) : rng();
    if (i == 100) key = 0;
    if (i == 200) key = UINT64_MAX;
    bool inserted = false;
    const uint32_t slot = map.emplace(key, i, &inserted);
    auto [it, fresh] = ref.emplace(key, i);
    CHECK(inserted == fresh);
    CHECK(slot == it->second);
  }
  CHECK(map.size() == ref.size());
  for (const auto& [key, slot] : ref) CHECK(map.find(key) == slot);
  CHECK(map.find(0x1234567890abcdefull) ==
        (ref.count(0x1234567890abcdefull) ? ref[0x1234567890abcdefull] : FlatIdMap::kNone));
}

TEST_CASE("gpu_rows_starting_in: the rows whose op starts in the window, in row order") {
  const TraceModel& m = detail_test::data_trace(kTrace);
  const std::vector<ProfilerStep> steps = find_profiler_steps(m);
  REQUIRE(steps.size() >= 2);
  std::vector<Interval> windows;
  for (const ProfilerStep& st : steps) windows.push_back({st.begin_ns, st.end_ns});
  windows.push_back({steps[0].begin_ns, steps.back().end_ns});
  windows.push_back({steps[1].end_ns, steps[0].begin_ns});  // end before begin: nothing
  windows.push_back({m.min_ts_ns, m.max_ts_ns + 1});        // everything
  const int64_t first_op = m.slices.ts_ns[m.gpu_ops.slice[0]];
  windows.push_back({first_op, first_op});      // empty
  windows.push_back({first_op, first_op + 1});  // ops starting at one instant
  size_t nonempty = 0;
  for (const Interval& w : windows) {
    std::vector<uint32_t> expected, got;
    for (uint32_t i = 0; i < m.gpu_ops.size(); ++i) {
      const int64_t ts = m.slices.ts_ns[m.gpu_ops.slice[i]];
      if (ts >= w.begin && ts < w.end) expected.push_back(i);
    }
    for (const auto& [first, last] : gpu_rows_starting_in(m, &w))
      for (uint32_t i = first; i < last; ++i) got.push_back(i);
    CHECK(got == expected);
    nonempty += !expected.empty();
  }
  CHECK(nonempty >= 4);
  const auto all = gpu_rows_starting_in(m, nullptr);
  REQUIRE(all.size() == 1);
  CHECK(all[0] == std::pair<uint32_t, uint32_t>(0, static_cast<uint32_t>(m.gpu_ops.size())));
}

namespace {

// The classes by the rule semantics, with std::regex (ECMAScript) as the matcher.
std::vector<KernelClass> reference_classes(const TraceModel& m, const KernelRules& rules) {
  std::vector<std::regex> res;
  for (const KernelRule& r : rules.rules)
    res.emplace_back(r.pattern.empty() ? std::string("x") : r.pattern,
                     r.icase ? std::regex::ECMAScript | std::regex::icase : std::regex::ECMAScript);
  std::vector<KernelClass> out;
  for (uint32_t row = 0; row < m.gpu_ops.size(); ++row) {
    const uint32_t sl = m.gpu_ops.slice[row];
    const EventKind k = m.slices.kind_at(sl);
    const uint8_t bit = k == EventKind::kMemcpy ? kRuleMemcpy : k == EventKind::kMemset ? kRuleMemset : kRuleKernel;
    std::string name(m.strings.get(m.slices.name.at(sl)));
    KernelClass cls = rules.fallback;
    for (size_t i = 0; i < rules.rules.size(); ++i) {
      const KernelRule& r = rules.rules[i];
      if (!(r.kinds & bit) || (r.needs_collective && m.gpu_ops.collective_args(row).collective == 0)) continue;
      if (r.pattern.empty() || std::regex_search(name, res[i])) {
        cls = r.cls;
        break;
      }
    }
    out.push_back(cls);
  }
  return out;
}

}  // namespace

TEST_CASE("kernel classes: the same as std::regex gives, for the built-in rules and varied patterns") {
  // Anchors, word boundaries, classes (negated, ranges), escapes (\\x too), counted repeats, lazy and
  // empty alternatives, '.', in both cases.
  const char* patterns[] = {"nccl|rccl",
                            "^void ",
                            "Kernel$",
                            "\\bat::",
                            "\\Bernel",
                            "[A-Z]{3,}",
                            "[^a-z_ ]{4}",
                            "\\d+x\\d+",
                            "\\W\\w\\s",
                            "\\S{40}",
                            "\\D\\d",
                            "ker.{2,5}l<",
                            "a.*?b|(|c)",
                            "(Memcpy|Memset) [HD]to[HD]",
                            "\\x4demcpy",
                            "[^A-Z]emset",
                            "^$",
                            "[.]cu|\\.|\\(",
                            "gemm|GEMM|Gemm",
                            "^(?:cudnn|cutlass)::"};
  std::vector<KernelRules> sets = {default_rules(), hta_rules()};
  for (const char* p : patterns) {
    for (bool icase : {false, true}) {
      KernelRules r;
      r.name = "user";
      r.rules.push_back({p, KernelClass::kCommunication, kRuleAnyGpuOp, icase, false, "test"});
      r.fallback = KernelClass::kComputation;
      sets.push_back(r);
    }
  }
  size_t matched_sets = 0;
  for (const char* trace :
       {kTrace, "deepseek_profile_data/train.json", "hta/tests/data/triton_example/triton_example.json.gz",
        "hta/tests/data/mtia_trace_single_rank/mtia_rank_0.json.gz",
        "kineto/tb_plugin/samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz"}) {
    const TraceModel& m = detail_test::data_trace(trace);
    REQUIRE(m.gpu_ops.size() > 0);
    for (const KernelRules& r : sets) {
      CAPTURE(trace);
      CAPTURE(r.rules.front().pattern);
      CAPTURE(r.rules.front().icase);
      const std::vector<KernelClass> got = classify_gpu_ops(m, r);
      CHECK(got == reference_classes(m, r));
      matched_sets += std::count(got.begin(), got.end(), KernelClass::kCommunication) > 0;
    }
  }
  CHECK(matched_sets > 40);  // the patterns do match names, so agreement is not vacuous
}

TEST_CASE("launch_stats: a window visited through launch_order gives what the pass over every launch gives") {
  const TraceModel& m = detail_test::data_trace(kTrace);
  const std::vector<uint32_t> order = launch_order(m);
  REQUIRE(order.size() == m.launches.size());
  const std::vector<ProfilerStep> steps = find_profiler_steps(m);
  REQUIRE(steps.size() >= 2);
  std::vector<Interval> windows = {{steps[0].begin_ns, steps.back().end_ns}, {steps[1].end_ns, steps[0].begin_ns}};
  for (const ProfilerStep& st : steps) windows.push_back({st.begin_ns, st.end_ns});
  size_t seen = 0;
  for (const Interval& w : windows) {
    LaunchOptions plain;
    plain.top = m.launches.size();  // every launch of the window, in delay order
    plain.queues = false;
    plain.window = &w;
    LaunchOptions ordered = plain;
    ordered.launch_order = &order;
    const LaunchesResult a = launch_stats(m, plain), b = launch_stats(m, ordered);
    REQUIRE(a.count == b.count);
    REQUIRE(a.worst_delays.size() == a.count);
    CHECK(a.worst_delays == b.worst_delays);
    CHECK(a.cpu.p50_ns == b.cpu.p50_ns);
    CHECK(a.short_op_names == b.short_op_names);
    CHECK(a.delay.p90_ns == b.delay.p90_ns);
    CHECK(a.sync_count == b.sync_count);
    seen += a.count;
  }
  CHECK(seen > 1000);
}

}  // namespace tw
