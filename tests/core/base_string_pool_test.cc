// StringPool (core/base/string_pool.h): dense ids, id 0 = "", views stay valid as the pool grows;
// same_bytes (its word-wise text compare).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/base/same_bytes.h"
#include "core/base/string_pool.h"

TEST_CASE("string pool: interning gives stable dense ids") {
  tw::StringPool pool;
  CHECK(pool.size() == 1);
  CHECK(pool.intern("") == 0);
  CHECK(pool.get(0).empty());
  tw::StringId a = pool.intern("aten::mm");
  tw::StringId b = pool.intern("cudaLaunchKernel");
  CHECK(a == 1);
  CHECK(b == 2);
  CHECK(pool.intern("aten::mm") == a);
  CHECK(pool.find("cudaLaunchKernel") == b);
  CHECK(pool.find("missing") == 0);
  CHECK(pool.get(a) == "aten::mm");
  // Embedded NUL bytes and invalid UTF-8 are just bytes.
  std::string odd("a\0b\xff", 4);
  tw::StringId c = pool.intern(odd);
  CHECK(pool.get(c) == odd);
  CHECK(pool.intern(std::string("a\0c", 3)) != c);
}

TEST_CASE("string pool: views stay valid while the pool grows, big strings included") {
  tw::StringPool pool;
  std::vector<std::string> texts;
  std::vector<tw::StringId> ids;
  for (int i = 0; i < 20000; ++i) {
    texts.push_back("name-" + std::to_string(i) + std::string(i % 97, 'x'));
    if (i % 5000 == 0) texts.push_back(std::string(400000 + i, 'B'));  // larger than a quarter chunk
  }
  for (const std::string& t : texts) ids.push_back(pool.intern(t));
  std::string_view first = pool.get(ids[0]);
  for (size_t i = 0; i < texts.size(); ++i) {
    REQUIRE(pool.get(ids[i]) == texts[i]);
    REQUIRE(pool.intern(texts[i]) == ids[i]);
  }
  CHECK(first == texts[0]);
  CHECK(pool.memory_bytes() > 0);
}

TEST_CASE("same_bytes equals string_view == for every length and every differing position") {
  std::string a(40, 'x'), b;
  for (size_t n = 0; n <= a.size(); ++n) {
    std::string_view s(a.data(), n);
    b.assign(a, 0, n);
    CHECK(tw::same_bytes(s, b));
    if (n < a.size()) CHECK(!tw::same_bytes(s, std::string_view(a.data(), n + 1)));  // lengths differ
    for (size_t k = 0; k < n; ++k) {
      b[k] = 'y';
      CHECK(!tw::same_bytes(s, b));
      b[k] = 'x';
    }
  }
}
