// Exact decimal parsing. Trace timestamps are microseconds written with up to nanosecond (or finer)
// precision, e.g. "ts": 4458676983543.183. Going through a double would lose the last digits of
// large timestamps, so the text is parsed as a decimal and scaled by a power of ten in integers.
#pragma once
#include <cstdint>
#include <string_view>

namespace tw {

// Parses a JSON number (optionally with surrounding whitespace) and returns round(value * 10^shift)
// in `out` (half away from zero). Returns false for anything that is not a number or that does not
// fit in int64. "-0" gives 0.
bool parse_decimal_scaled(std::string_view text, int shift, int64_t& out);

// Parses an integer that fits in int64 (no fraction, no exponent). False otherwise.
bool parse_int64(std::string_view text, int64_t& out);

// Microseconds text -> nanoseconds.
inline bool parse_us_to_ns(std::string_view text, int64_t& out) { return parse_decimal_scaled(text, 3, out); }

}  // namespace tw
