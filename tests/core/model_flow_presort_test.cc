// Sorting v1 flow points ahead of finish() (core/model/flow_presort.h) must not change anything:
// the merged runs give exactly the order a whole sort gives, whatever the run sizes, the merges and
// the points appended between steps; and an import with presort steps between its pushes (as the
// web worker makes while it waits for input) gives exactly the model of one without: the same
// flows in the same order, the same problems with the same first offsets.
#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "cli/file_reader.h"
#include "core/model/flow_presort.h"
#include "tests/core/import_test_util.h"
#include "tests/core/test_data.h"

using namespace tw;
using namespace tw::test;

namespace {

// Random points with few ids and keys (many ties up to the offset), all three orders, times that
// repeat; offsets unique, as each event has its own.
void add_random_points(FlowPoints& v1, std::mt19937& rng, size_t n, uint64_t& offset) {
  std::uniform_int_distribution<uint64_t> id(0, 40);
  std::uniform_int_distribution<int> key(0, 3), order(0, 2), ts(0, 9), coin(0, 1);
  for (size_t i = 0; i < n; ++i) {
    const int k = key(rng);
    const uint64_t large_id = coin(rng) ? (uint64_t(1) << 63) | id(rng) : id(rng);
    v1.add(large_id, static_cast<StringId>(7 - k), static_cast<StringId>(k), 0, ts(rng) * 1000,
           static_cast<uint8_t>(order(rng)), coin(rng) != 0, offset += 1 + rng() % 50);
  }
}

// The offsets of v1's points sorted the plain way (the order is total, so the answer is unique;
// each point has its own offset).
std::vector<uint64_t> sorted_whole(const FlowPoints& v1) {
  std::vector<FlowPoint> pts = v1.points;
  std::sort(pts.begin(), pts.end(), FlowPointLess{v1.keys.data()});
  std::vector<uint64_t> out;
  for (const FlowPoint& p : pts) out.push_back(p.offset());
  return out;
}

// flow_pairing_order's answer as the offsets of the points in that order (it may move the points
// not in a run; no indices: the points themselves), checked to list every point once.
std::vector<uint64_t> pairing_offsets(FlowPoints& v1) {
  const bool runs = !v1.run_ends.empty();
  std::vector<uint32_t> order = flow_pairing_order(v1);
  CHECK(order.empty() == (!runs || v1.points.empty()));
  std::vector<uint32_t> all(v1.points.size());
  std::iota(all.begin(), all.end(), 0u);
  if (order.empty()) order = all;
  std::vector<uint32_t> seen = order;
  std::sort(seen.begin(), seen.end());
  CHECK(seen == all);
  std::vector<uint64_t> out;
  for (uint32_t i : order) out.push_back(v1.points[i].offset());
  return out;
}

}  // namespace

TEST_CASE("presorted runs merge into the order of a whole sort, with points appended between steps") {
  for (uint32_t seed = 1; seed <= 40; ++seed) {
    CAPTURE(seed);
    std::mt19937 rng(seed);
    PresortLimits lim;
    lim.min_run = 1 + rng() % 40;
    lim.max_run = lim.min_run + rng() % 60;
    lim.max_merge = 1 + rng() % 400;
    FlowPoints v1;
    uint64_t offset = 0;
    size_t steps = 0, merges = 0;
    for (int round = 0; round < 30; ++round) {
      add_random_points(v1, rng, rng() % 90, offset);
      const size_t k = rng() % 6;  // a few steps, or none: the waits come and go
      for (size_t s = 0; s < k; ++s) {
        const size_t runs = v1.run_ends.size();
        if (!presort_flow_points(v1, lim)) break;
        ++steps;
        merges += v1.run_ends.size() < runs;
        // Each run is in order, and the runs cover a prefix of the points.
        size_t begin = 0;
        FlowPointLess less{v1.keys.data()};
        for (size_t end : v1.run_ends) {
          for (size_t i = begin + 1; i < end; ++i)
            REQUIRE_FALSE(less(v1.points[v1.presorted[i]], v1.points[v1.presorted[i - 1]]));
          begin = end;
        }
        REQUIRE(begin == v1.presorted.size());
        REQUIRE(v1.presorted.size() <= v1.points.size());
      }
    }
    CHECK(steps > 0);
    if (seed == 1) CHECK(merges > 0);
    const std::vector<uint64_t> want = sorted_whole(v1);
    CHECK(pairing_offsets(v1) == want);
    CHECK(v1.presorted.empty());
    CHECK(v1.run_ends.empty());
  }
}

TEST_CASE("flow_pairing_order with nothing sorted ahead, and with everything in one run") {
  std::mt19937 rng(99);
  FlowPoints v1;
  uint64_t offset = 0;
  add_random_points(v1, rng, 500, offset);
  const std::vector<uint64_t> want = sorted_whole(v1);
  FlowPoints copy = v1;
  CHECK(pairing_offsets(copy) == want);
  PresortLimits one_run;
  one_run.min_run = 1;
  one_run.max_run = 1000;
  REQUIRE(presort_flow_points(v1, one_run));
  CHECK_FALSE(presort_flow_points(v1, one_run));  // all in one run: nothing to do
  CHECK(pairing_offsets(v1) == want);
  FlowPoints empty;
  CHECK_FALSE(presort_flow_points(empty, one_run));
  CHECK(pairing_offsets(empty).empty());
}

TEST_CASE("an import with flow presort steps between its pushes equals one without") {
  for (const char* rel : {"kineto/tb_plugin/samples/resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz",
                          "hta/tests/data/nccl_parser_config/nccl_data.json.gz",
                          "hta/tests/data/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz"}) {
    CAPTURE(rel);
    const std::string text = read_data(rel);
    REQUIRE(!text.empty());
    // Small runs and merges, so that even a small trace's points end in many runs.
    PresortLimits lim;
    lim.min_run = 7;
    lim.max_run = 53;
    lim.max_merge = 300;
    auto import = [&](bool presort, size_t& steps) {
      auto imp = std::make_unique<TraceImporter>();
      for (size_t pos = 0; pos < text.size(); pos += 16384) {
        imp->push(text.data() + pos, std::min<size_t>(16384, text.size() - pos));
        if (presort)
          while (imp->presort_step(lim)) ++steps;
      }
      imp->finish();
      CHECK_FALSE(imp->presort_step(lim));  // finished: nothing left to sort
      return imp;
    };
    size_t none = 0, steps = 0;
    auto plain = import(false, none);
    auto ahead = import(true, steps);
    CHECK(steps > 10);
    CHECK(plain->model().flows.size() > 40);
    const std::string want = fingerprint(*plain), got = fingerprint(*ahead);
    CHECK_MESSAGE(got == want, first_difference(want, got));
  }
}
