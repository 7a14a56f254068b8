#include "core/import/json_oddities.h"

#include <algorithm>

namespace tw {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// The UTF-16 unit of a \u escape starting at s[i] ('\\'), or -1 when s[i..] is not one.
int escape_unit(std::string_view s, size_t i) {
  if (i + 6 > s.size() || s[i] != '\\' || s[i + 1] != 'u') return -1;
  int v = 0;
  for (size_t k = i + 2; k < i + 6; ++k) {
    char c = s[k];
    int d = is_digit(c) ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}

// The offset in `raw` of the first lone surrogate escape, or npos.
size_t first_lone_surrogate(std::string_view raw) {
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] != '\\') continue;
    int u = escape_unit(raw, i);
    if (u < 0xD800 || u > 0xDFFF) {
      ++i;  // an escape of two bytes (\\, \") or a \u of a plain unit: its second byte is no escape
      continue;
    }
    if (u <= 0xDBFF) {
      int low = escape_unit(raw, i + 6);
      if (low >= 0xDC00 && low <= 0xDFFF) {
        i += 11;  // a pair
        continue;
      }
    }
    return i;
  }
  return std::string_view::npos;
}

bool ends_token(char c) { return c == ',' || c == '}' || c == ']' || c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// The offset in `event` of the first value outside strings that is meant as a number and is not a
// JSON one, with its length in `len`; npos when there is none.
size_t first_non_json_number(std::string_view event, size_t& len) {
  bool in_string = false;
  for (size_t i = 0; i < event.size(); ++i) {
    char c = event[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
      continue;
    }
    if (ends_token(c) || c == ':' || c == '{' || c == '[') continue;
    size_t end = i;
    while (end < event.size() && !ends_token(event[end]) && event[end] != ':') ++end;
    std::string_view token = event.substr(i, end - i);
    if (looks_like_number(token) && !is_json_number(token)) {
      len = token.size();
      return i;
    }
    i = end - 1;
  }
  return std::string_view::npos;
}

}  // namespace

bool is_json_number(std::string_view t) {
  size_t i = 0, n = t.size();
  if (i < n && t[i] == '-') ++i;
  if (i >= n || !is_digit(t[i])) return false;
  if (t[i] == '0') {
    ++i;
  } else {
    while (i < n && is_digit(t[i])) ++i;
  }
  if (i < n && t[i] == '.') {
    if (++i >= n || !is_digit(t[i])) return false;
    while (i < n && is_digit(t[i])) ++i;
  }
  if (i < n && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    if (i < n && (t[i] == '+' || t[i] == '-')) ++i;
    if (i >= n || !is_digit(t[i])) return false;
    while (i < n && is_digit(t[i])) ++i;
  }
  return i == n;
}

bool looks_like_number(std::string_view t) {
  if (t.empty()) return false;
  char c = t[0];
  if (c == '-' || c == '+' || c == '.' || is_digit(c)) return true;
  return t.substr(0, 3) == "NaN" || t.substr(0, 8) == "Infinity";
}

bool has_lone_surrogate(std::string_view raw) { return first_lone_surrogate(raw) != std::string_view::npos; }

std::string oddity_example(std::string_view event, bool surrogate) {
  size_t len = 6;
  size_t at = surrogate ? first_lone_surrogate(event) : first_non_json_number(event, len);
  if (at == std::string_view::npos) return std::string();
  // Enough context to find it in the file: the key before it, a little after.
  constexpr size_t kBefore = 24, kAfter = 16, kMaxLen = 40;
  size_t begin = at > kBefore ? at - kBefore : 0;
  size_t end = std::min(event.size(), at + std::min(len, kMaxLen) + kAfter);
  return std::string(event.substr(begin, end - begin));
}

}  // namespace tw
