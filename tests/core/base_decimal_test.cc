// Exact decimal -> integer nanoseconds (core/base/decimal.h): no binary floating point on the way.
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>

#include "core/base/decimal.h"

namespace {

int64_t us_to_ns(const char* text) {
  int64_t out = -12345;
  REQUIRE_MESSAGE(tw::parse_us_to_ns(text, out), text);
  return out;
}

bool us_fails(const char* text) {
  int64_t out = 0;
  return !tw::parse_us_to_ns(text, out);
}

}  // namespace

TEST_CASE("decimal: microseconds with fractional digits convert exactly to ns") {
  CHECK(us_to_ns("4458676983543.183") == 4458676983543183);
  CHECK(us_to_ns("1712195495519689.047") == 1712195495519689047);  // Kineto ns-precision timestamp
  CHECK(us_to_ns("63.813") == 63813);
  CHECK(us_to_ns("0") == 0);
  CHECK(us_to_ns("7") == 7000);
  CHECK(us_to_ns("12.5") == 12500);
  CHECK(us_to_ns("  42.25\n") == 42250);  // surrounding whitespace is allowed
}

TEST_CASE("decimal: exponents") {
  CHECK(us_to_ns("1e3") == 1000000);
  CHECK(us_to_ns("1E3") == 1000000);
  CHECK(us_to_ns("1.5e-3") == 2);  // 1.5 ns rounds half away from zero
  CHECK(us_to_ns("2.5e+2") == 250000);
  CHECK(us_to_ns("123456e-6") == 123);
  CHECK(us_to_ns("1e-400") == 0);  // far below a nanosecond
}

TEST_CASE("decimal: negative zero and signs") {
  CHECK(us_to_ns("-0") == 0);
  CHECK(us_to_ns("-0.0") == 0);
  CHECK(us_to_ns("-1.25") == -1250);
  CHECK(us_to_ns("+3") == 3000);
}

TEST_CASE("decimal: sub-nanosecond digits round half away from zero") {
  CHECK(us_to_ns("0.0005") == 1);
  CHECK(us_to_ns("0.0004") == 0);
  CHECK(us_to_ns("0.00049999") == 0);
  CHECK(us_to_ns("-0.0005") == -1);
  CHECK(us_to_ns("1.0015") == 1002);
  CHECK(us_to_ns("1.00149") == 1001);
  // More significant digits than fit in 64 bits: the extra digits still decide the rounding.
  CHECK(us_to_ns("1234567890123456.7895") == 1234567890123456790);
  CHECK(us_to_ns("0.000999999999999999999999") == 1);
}

TEST_CASE("decimal: values outside int64 nanoseconds or not numbers are rejected") {
  CHECK(us_fails("1e400"));
  CHECK(us_fails("9223372036854775.808"));  // one ns past INT64_MAX
  CHECK(us_to_ns("9223372036854775.807") == std::numeric_limits<int64_t>::max());
  CHECK(us_to_ns("-9223372036854775.807") == -std::numeric_limits<int64_t>::max());
  CHECK(us_fails("18446744073709551616"));
  CHECK(us_fails("NaN"));
  CHECK(us_fails("nan"));
  CHECK(us_fails("Infinity"));
  CHECK(us_fails("inf"));
  CHECK(us_fails(""));
  CHECK(us_fails("-"));
  CHECK(us_fails("."));
  CHECK(us_fails("1e"));
  CHECK(us_fails("1e+"));
  CHECK(us_fails("12abc"));
  CHECK(us_fails("0x10"));
  CHECK(us_fails("1 2"));
  CHECK(us_fails("true"));
}

TEST_CASE("decimal: parse_decimal_scaled with other shifts") {
  int64_t v = 0;
  CHECK(tw::parse_decimal_scaled("1.5", 0, v));
  CHECK(v == 2);
  CHECK(tw::parse_decimal_scaled("1.5", 6, v));
  CHECK(v == 1500000);
  CHECK(tw::parse_decimal_scaled("7.0", 0, v));
  CHECK(v == 7);
}

TEST_CASE("decimal: parse_int64 accepts exactly the int64 range") {
  int64_t v = 0;
  CHECK(tw::parse_int64("9223372036854775807", v));
  CHECK(v == std::numeric_limits<int64_t>::max());
  CHECK(tw::parse_int64("-9223372036854775808", v));
  CHECK(v == std::numeric_limits<int64_t>::min());
  CHECK_FALSE(tw::parse_int64("9223372036854775808", v));
  CHECK_FALSE(tw::parse_int64("-9223372036854775809", v));
  CHECK_FALSE(tw::parse_int64("18446744073709551616", v));
  CHECK_FALSE(tw::parse_int64("1.0", v));
  CHECK_FALSE(tw::parse_int64("1e3", v));
  CHECK_FALSE(tw::parse_int64("", v));
  CHECK_FALSE(tw::parse_int64("-", v));
  CHECK(tw::parse_int64(" 42 ", v));
  CHECK(v == 42);
  CHECK(tw::parse_int64("-0", v));
  CHECK(v == 0);
}
