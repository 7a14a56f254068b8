// Hostile input imported in parts (import_parts.h): a mutated real trace cut where the page would
// cut it (likely_event_start) or anywhere, each later part absorbed through its bytes as a part
// worker hands it over, must give the model, problems and stats of one import in order. A cut the
// later part cannot judge (inside a string the mutation opened, after a broken structure) must be
// refused and re-read, never change the model: "a wrong guess costs time, never a different model"
// (web/load/parts/plan.ts). TW_FUZZ_ROUNDS / TW_FUZZ_SEED run a longer session by hand.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "tests/core/fuzz_util.h"
#include "tests/core/import_parts_util.h"

using namespace tw;
using namespace tw::test;

TEST_CASE("parts: fuzzed mutations of real traces, cut at likely and at random points" * doctest::timeout(300)) {
  const std::vector<std::string> seeds = import_fuzz_seeds();
  for (const std::string& s : seeds) REQUIRE(s.size() > 100);
  std::mt19937 rng(fuzz_seed(2468013u));
  const int kRounds = fuzz_rounds(240);
  size_t cuts = 0, absorbed = 0, likely_cuts = 0, likely_absorbed = 0;
  for (int round = 0; round < kRounds; ++round) {
    const std::string text = mutate_trace(seeds[round % seeds.size()], rng);
    CAPTURE(round);
    if (text.size() < 64) continue;
    const std::string expected = fingerprint(*import_whole(text));
    std::vector<uint64_t> starts;
    if (round % 2 == 0) {
      starts = likely_starts(text, 2 + static_cast<int>(rng() % 3));
    } else {
      std::uniform_int_distribution<uint64_t> at(1, text.size() - 1);
      for (int k = 1 + static_cast<int>(rng() % 3); k > 0; --k) starts.push_back(at(rng));
      std::sort(starts.begin(), starts.end());
      starts.erase(std::unique(starts.begin(), starts.end()), starts.end());
    }
    if (starts.empty()) continue;
    PartsImport r = import_in_parts(text, starts, static_cast<uint32_t>(round), 1 + rng() % 4096, round % 3 != 0);
    cuts += starts.size(), absorbed += r.absorbed;
    if (round % 2 == 0) likely_cuts += starts.size(), likely_absorbed += r.absorbed;
    const std::string got = fingerprint(*r.importer);
    CHECK_MESSAGE(got == expected, "cut at ", starts.front(), " (", starts.size(), " cuts)\n",
                  first_difference(expected, got));
  }
  MESSAGE("fuzzed parts absorbed: ", absorbed, " of ", cuts, "; at likely event starts ", likely_absorbed, " of ",
          likely_cuts);
  // The comparison above must not pass by refusing every part: most mutations leave a likely cut
  // between two intact events, and those parts are absorbed.
  CHECK(likely_absorbed * 3 > likely_cuts);
}
