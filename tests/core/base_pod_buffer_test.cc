// PodBuffer (core/base/pod_buffer.h): a vector's behaviour for the operations the flow endpoints
// use (append, reserve, resize with zeros, copy, move), and shrink_to keeping the values it keeps.
#include <doctest/doctest.h>

#include <cstdint>
#include <new>
#include <utility>

#include "core/base/pod_buffer.h"

using tw::PodBuffer;

namespace {
struct Point {
  uint64_t id;
  uint32_t a, b;
};
}  // namespace

TEST_CASE("PodBuffer appends, resizes with zeros, copies, moves and shrinks in place") {
  PodBuffer<Point> v;
  CHECK(v.empty());
  for (uint32_t i = 0; i < 1000; ++i) v.push_back(Point{i * 3ull, i, i + 1});
  REQUIRE(v.size() == 1000);
  CHECK(v.capacity() >= 1000);
  for (uint32_t i = 0; i < 1000; ++i) CHECK((v[i].id == i * 3ull && v[i].a == i && v[i].b == i + 1));

  v.resize(1200);  // new rows are zero, old ones kept
  CHECK(v[999].a == 999);
  CHECK((v[1000].id == 0 && v[1199].b == 0));

  PodBuffer<Point> copy = v;
  CHECK(copy.size() == 1200);
  CHECK(copy.data() != v.data());
  CHECK(copy[500].a == 500);

  v.reserve(5000);
  CHECK(v.capacity() >= 5000);
  v.shrink_to(600);  // the first 600 stay, the block is cut to them
  CHECK(v.size() == 600);
  CHECK(v.capacity() == 600);
  CHECK(v[599].a == 599);

  PodBuffer<Point> moved = std::move(v);
  CHECK(moved.size() == 600);
  CHECK(v.empty());  // NOLINT(bugprone-use-after-move): moved-from is empty, by contract
  CHECK(v.capacity() == 0);
  moved.shrink_to(0);
  CHECK((moved.size() == 0 && moved.capacity() == 0 && moved.data() == nullptr));

  copy = moved;  // an empty copy
  CHECK(copy.empty());
  CHECK_THROWS_AS(copy.reserve(SIZE_MAX / 4), std::bad_alloc);
  CHECK(copy.empty());
}
