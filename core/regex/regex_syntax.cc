#include "core/regex/regex_syntax.h"

#include <cctype>

namespace tw {

long regex_escape_value(const std::string& p, size_t& i) {
  const char e = i + 1 < p.size() ? p[i + 1] : '\\';
  i += 2;
  if (e == 'x' || e == 'u') {
    const size_t digits = e == 'x' ? 2 : 4;
    long v = 0;
    for (size_t k = 0; k < digits; ++k, ++i) {
      if (i >= p.size() || !std::isxdigit(static_cast<unsigned char>(p[i]))) return -1;
      const char h = p[i];
      v = v * 16 + (h <= '9' ? h - '0' : (h | 0x20) - 'a' + 10);
    }
    return v;
  }
  switch (e) {
    case 'n': return '\n';
    case 't': return '\t';
    case 'r': return '\r';
    case 'f': return '\f';
    case 'v': return '\v';
    case '0': return 0;
    default: return static_cast<unsigned char>(e);
  }
}

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Parses "{m}", "{m,}", "{m,n}" at p[i] == '{'; advances i past '}'.
bool parse_brace(const std::string& p, size_t& i) {
  size_t j = i + 1;
  auto number = [&](long& v) {
    if (j >= p.size() || !is_digit(p[j])) return false;
    v = 0;
    while (j < p.size() && is_digit(p[j])) {
      v = v * 10 + (p[j] - '0');
      if (v > 100000) return false;
      ++j;
    }
    return true;
  };
  long lo = 0, hi = 0;
  if (!number(lo)) return false;
  if (j < p.size() && p[j] == ',') {
    ++j;
    if (j < p.size() && p[j] != '}') {
      if (!number(hi) || hi < lo) return false;
    }
  }
  if (j >= p.size() || p[j] != '}') return false;
  i = j + 1;
  return true;
}

// Parses a bracket expression at p[i] == '['; advances i past ']'.
bool parse_class(const std::string& p, size_t& i) {
  size_t j = i + 1;
  if (j < p.size() && p[j] == '^') ++j;
  int prev = -1;  // previous single char (for ranges), -1 when none
  bool in_range = false;
  while (j < p.size() && p[j] != ']') {
    const bool dash = p[j] == '-';  // an escaped \- is a literal, never a range
    int c;
    if (p[j] == '\\') {
      if (j + 1 >= p.size()) return false;
      char e = p[j + 1];
      if (std::isalpha(static_cast<unsigned char>(e)) && std::string("dDsSwW").find(e) != std::string::npos) {
        if (in_range) return false;  // [a-\d] is an error
        j += 2;
        prev = -1;
        continue;
      }
      const long v = e == 'b' ? (j += 2, '\b') : regex_escape_value(p, j);
      if (v < 0) return false;
      c = static_cast<int>(v);
    } else if (p[j] == '[') {
      return false;  // POSIX [:class:] and nested brackets are not accepted
    } else {
      c = static_cast<unsigned char>(p[j]);
      ++j;
    }
    if (in_range) {
      if (prev < 0 || c < prev) return false;
      in_range = false;
      prev = -1;
      continue;
    }
    if (dash && prev >= 0 && j < p.size() && p[j] != ']') {
      in_range = true;
      continue;
    }
    prev = c;
  }
  if (j >= p.size() || in_range) return false;
  i = j + 1;
  return true;
}

}  // namespace

bool regex_syntax_ok(const std::string& p) {
  if (p.size() > 4096) return false;
  int depth = 0, groups = 0;
  bool atom = false;        // a quantifier may follow
  bool quantified = false;  // the last token was a quantifier
  size_t i = 0;
  while (i < p.size()) {
    const char c = p[i];
    switch (c) {
      case '\\': {
        if (i + 1 >= p.size()) return false;
        const char e = p[i + 1];
        if (is_digit(e) && e != '0') {
          if (e - '0' > groups) return false;
        }
        const bool assertion = e == 'b' || e == 'B';
        if (regex_escape_value(p, i) < 0) return false;
        atom = !assertion;
        quantified = false;
        break;
      }
      case '[':
        if (!parse_class(p, i)) return false;
        atom = true;
        quantified = false;
        break;
      case '(':
        if (i + 1 < p.size() && p[i + 1] == '?') {
          if (i + 2 >= p.size()) return false;
          const char k = p[i + 2];
          if (k != ':' && k != '=' && k != '!') return false;
          i += 3;
        } else {
          ++groups;
          ++i;
        }
        ++depth;
        atom = false;
        quantified = false;
        break;
      case ')':
        if (depth == 0) return false;
        --depth;
        ++i;
        atom = true;
        quantified = false;
        break;
      case '|':
        ++i;
        atom = false;
        quantified = false;
        break;
      case '^':
      case '$':
        ++i;
        atom = false;
        quantified = false;
        break;
      case '*':
      case '+':
      case '?':
        if (quantified && c == '?') {  // lazy marker
          ++i;
          quantified = false;
          atom = false;
          break;
        }
        if (!atom) return false;
        ++i;
        atom = false;
        quantified = true;
        break;
      case '{':
        if (!atom || !parse_brace(p, i)) return false;
        atom = false;
        quantified = true;
        break;
      case '}':
      case ']': return false;  // write \} or \] for the literal
      default:
        ++i;
        atom = true;
        quantified = false;
        break;
    }
  }
  return depth == 0;
}

}  // namespace tw
