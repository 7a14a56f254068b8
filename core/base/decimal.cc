#include "core/base/decimal.h"

#include <limits>

namespace tw {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

}  // namespace

bool parse_decimal_scaled(std::string_view text, int shift, int64_t& out) {
  std::string_view s = trim(text);
  size_t i = 0;
  bool negative = false;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) negative = s[i++] == '-';
  // Collect significant digits and the position of the decimal point.
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max() / 10 - 10;
  uint64_t mantissa = 0;
  int exp10 = 0;  // value = mantissa * 10^exp10
  bool any_digit = false;
  int first_dropped = -1;
  for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
    any_digit = true;
    if (mantissa <= kMax) {
      mantissa = mantissa * 10 + static_cast<uint64_t>(s[i] - '0');
    } else {
      if (first_dropped < 0) first_dropped = s[i] - '0';
      ++exp10;
    }
  }
  if (i < s.size() && s[i] == '.') {
    ++i;
    for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
      any_digit = true;
      if (mantissa <= kMax) {
        mantissa = mantissa * 10 + static_cast<uint64_t>(s[i] - '0');
        --exp10;
      } else {
        if (first_dropped < 0) first_dropped = s[i] - '0';
      }
    }
  }
  if (!any_digit) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    bool eneg = false;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) eneg = s[i++] == '-';
    if (i >= s.size() || s[i] < '0' || s[i] > '9') return false;
    int e = 0;
    for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
      if (e < 100000) e = e * 10 + (s[i] - '0');
    }
    exp10 += eneg ? -e : e;
  }
  if (i != s.size()) return false;
  exp10 += shift;
  if (mantissa == 0) {
    out = 0;
    return true;
  }
  // Scale up: every multiplication must stay below 2^63.
  if (exp10 >= 0) {
    if (exp10 > 19) return false;
    uint64_t v = mantissa;
    for (int k = 0; k < exp10; ++k) {
      if (v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) / 10) return false;
      v *= 10;
    }
    if (v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return false;
    out = negative ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
    return true;
  }
  // Scale down with rounding half away from zero, using the first removed digit.
  int drop = -exp10;
  uint64_t v = mantissa;
  int round_digit = first_dropped;  // digit just below the kept ones, if mantissa overflowed
  if (drop > 20) {
    v = 0;
    round_digit = 0;
  } else {
    for (int k = 0; k < drop; ++k) {
      round_digit = static_cast<int>(v % 10);
      v /= 10;
    }
  }
  if (round_digit >= 5) ++v;
  if (v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return false;
  out = negative ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
  return true;
}

bool parse_int64(std::string_view text, int64_t& out) {
  std::string_view s = trim(text);
  size_t i = 0;
  bool negative = false;
  if (i < s.size() && s[i] == '-') negative = true, ++i;
  if (i >= s.size()) return false;
  uint64_t v = 0;
  if (s.size() - i <= 18) {  // cannot overflow: no per-digit range check (a division each)
    for (; i < s.size(); ++i) {
      unsigned d = static_cast<unsigned char>(s[i]) - unsigned('0');
      if (d > 9) return false;
      v = v * 10 + d;
    }
    out = negative ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
    return true;
  }
  const uint64_t limit = negative ? uint64_t(1) << 63 : (uint64_t(1) << 63) - 1;
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    uint64_t d = static_cast<uint64_t>(s[i] - '0');
    if (v > (limit - d) / 10) return false;
    v = v * 10 + d;
  }
  out = negative ? static_cast<int64_t>(0 - v) : static_cast<int64_t>(v);
  return true;
}

}  // namespace tw
