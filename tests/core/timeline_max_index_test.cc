// MaxIndex (core/timeline/max_index.h) against a plain scan: the lowest position of the largest
// value in random ranges of random sequences, with many ties, at sizes that need 1 to 4 levels.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "core/timeline/max_index.h"

using namespace tw;

namespace {

uint32_t scan_argmax(const std::vector<int64_t>& v, uint32_t lo, uint32_t hi) {
  uint32_t best = lo;
  for (uint32_t i = lo + 1; i < hi; ++i)
    if (v[i] > v[best]) best = i;
  return best;
}

}  // namespace

TEST_CASE("MaxIndex: argmax equals a scan (lowest position on ties), ranges of every shape") {
  std::mt19937_64 rng(20261207);
  for (uint32_t n : {1u, 15u, 16u, 17u, 255u, 256u, 257u, 4095u, 4097u, 70001u}) {
    for (int64_t spread : {int64_t(3), int64_t(1) << 40}) {  // few values: ties everywhere
      std::vector<int64_t> v(n);
      for (auto& x : v) x = static_cast<int64_t>(rng() % static_cast<uint64_t>(spread)) - spread / 2;
      MaxIndex idx;
      uint64_t reads = 0;
      auto value = [&](uint32_t i) {
        ++reads;
        return v[i];
      };
      idx.build(n, value);
      for (int q = 0; q < 3000; ++q) {
        uint32_t lo = static_cast<uint32_t>(rng() % n);
        uint32_t hi = lo + 1 + static_cast<uint32_t>(rng() % (q % 3 == 0 ? 40 : n - lo));
        if (hi > n) hi = n;
        REQUIRE(idx.argmax(lo, hi, value) == scan_argmax(v, lo, hi));
      }
      CHECK(idx.argmax(0, n, value) == scan_argmax(v, 0, n));
    }
  }
}

TEST_CASE("MaxIndex: an edge whose block maximum lies inside it is not read value by value") {
  // Ascending values: every block's maximum is its last position, so a range that ends on a block's
  // end takes the block's entry; one that starts inside a block and ends on its end reads nothing.
  std::vector<int64_t> v(4096);
  for (uint32_t i = 0; i < v.size(); ++i) v[i] = i;
  MaxIndex idx;
  uint64_t reads = 0;
  auto value = [&](uint32_t i) {
    ++reads;
    return v[i];
  };
  idx.build(static_cast<uint32_t>(v.size()), value);
  reads = 0;
  CHECK(idx.argmax(3, 16, value) == 15);
  CHECK(reads == 0);
  CHECK(idx.argmax(5, 4095, value) == 4094);  // the right edge [4080, 4095) is read: 15 values
  CHECK(reads == 15);
}
