// partition_from must give std::partition_point's answer from any hint: checked exhaustively on
// small sorted arrays with runs of equal values, for every hint and every threshold.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "core/base/partition_from.h"

using namespace tw;

TEST_CASE("partition_from: std::partition_point's answer from every hint") {
  std::mt19937 rng(5);
  for (int round = 0; round < 200; ++round) {
    size_t n = round < 20 ? size_t(round) : 1 + rng() % 300;
    std::vector<int> v(n);
    for (int& x : v) x = int(rng() % 40);  // many equal values
    std::sort(v.begin(), v.end());
    for (int threshold = -1; threshold <= 41; ++threshold) {
      auto below = [threshold](int x) { return x < threshold; };
      auto expected = std::partition_point(v.begin(), v.end(), below);
      for (size_t hint = 0; hint <= n; ++hint) {
        auto got = partition_from(v.begin(), v.end(), v.begin() + hint, below);
        REQUIRE_MESSAGE(got == expected, "n ", n, " threshold ", threshold, " hint ", hint);
      }
    }
  }
}
