// Equality of two byte strings, a word at a time. Not `std::string_view ==`: that is memcmp, which
// in the wasm build is emscripten's byte loop behind a call, and every event's name is interned and
// its args looked up by key.
#pragma once
#include <cstdint>
#include <cstring>
#include <string_view>

namespace tw {

inline bool same_bytes(std::string_view a, std::string_view b) {
  size_t n = a.size();
  if (n != b.size()) return false;
  const char* p = a.data();
  const char* q = b.data();
  auto word = [](const char* s) {
    uint64_t w;
    std::memcpy(&w, s, 8);
    return w;
  };
  auto half = [](const char* s) {
    uint32_t w;
    std::memcpy(&w, s, 4);
    return w;
  };
  if (n >= 8) {
    for (size_t i = 0; i + 8 <= n; i += 8)
      if (word(p + i) != word(q + i)) return false;
    return word(p + n - 8) == word(q + n - 8);  // the tail, overlapping the last full word
  }
  if (n >= 4) return half(p) == half(q) && half(p + n - 4) == half(q + n - 4);
  for (size_t i = 0; i < n; ++i)
    if (p[i] != q[i]) return false;
  return true;
}

}  // namespace tw
