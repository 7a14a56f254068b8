// How deep JSON nests, counted before untrusted bytes reach nlohmann: its parser and dump() recurse
// once per level, and the wasm stack is small, so a value nested 100k deep must be refused first.
#pragma once
#include <string_view>

namespace tw {

// True when no object or array in `text` (outside strings) opens deeper than `limit` levels.
// Brackets inside strings do not count; a backslash escapes the byte after it.
inline bool json_nesting_within(std::string_view text, int limit) {
  int depth = 0;
  bool in_string = false, escape = false;
  for (char c : text) {
    if (in_string) {
      if (escape) escape = false;
      else if (c == '\\') escape = true;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      if (++depth > limit) return false;
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
  return true;
}

}  // namespace tw
