// json_nesting_within: brackets count only outside strings, an escaped quote does not end a string,
// and the limit is inclusive.
#include <doctest/doctest.h>

#include <string>

#include "core/base/json_depth.h"

using tw::json_nesting_within;

TEST_CASE("json depth: the limit is inclusive") {
  CHECK(json_nesting_within("[[[1]]]", 3));
  CHECK_FALSE(json_nesting_within("[[[1]]]", 2));
  CHECK(json_nesting_within("{\"a\":{\"b\":[1,{}]}}", 4));
  CHECK_FALSE(json_nesting_within("{\"a\":{\"b\":[1,{}]}}", 3));
  CHECK(json_nesting_within("", 0));
  CHECK(json_nesting_within("1", 0));
  CHECK_FALSE(json_nesting_within("[]", 0));
}

TEST_CASE("json depth: brackets inside strings do not count, escapes do not end a string") {
  CHECK(json_nesting_within("[\"[[[[{{{{\"]", 1));
  CHECK(json_nesting_within("[\"a\\\"[[[[\"]", 1));           // \" stays inside the string
  CHECK_FALSE(json_nesting_within("[\"a\\\\\"[[[1]]]]", 3));  // \\ ends with the quote after it
  CHECK(json_nesting_within("[\"a\\\\\"[[[1]]]]", 4));
  CHECK(json_nesting_within("\"\\", 0));  // a lone trailing backslash
  CHECK(json_nesting_within(std::string(100000, '[').insert(0, "\""), 0));
  CHECK_FALSE(json_nesting_within(std::string(100000, '['), 256));
}

TEST_CASE("json depth: closing brackets only lower the depth") {
  CHECK(json_nesting_within("]]]][[", 2));
  CHECK(json_nesting_within("[][][][]", 1));
  CHECK_FALSE(json_nesting_within("[[]][[[]]]", 2));
}
