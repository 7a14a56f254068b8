// SeparatorCache: the fast decoder's memory of how events are laid out. Writers lay out events alike
// (Kineto: per kind of event the same keys, order and indentation), so the bytes from one value to
// the next value (`,\n    "ts": `) or to the end of its object (`\n  }`) repeat; kept as a small
// tree of the sequences seen, in document order (an event's fields and its args), a separator equal
// to a remembered one needs no parsing: equal bytes in the same place (after a '{', or after a
// value) parse to the same key and position. One per decoding thread; what it holds never changes a
// decoded result, only how fast it is found (fast_event_decoder.cc).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "core/import/known_args.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#elif defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

namespace tw {

// Whether p[0, len) equals t[0, len), len <= 32, reading 32 bytes at both.
inline bool same_prefix32(const char* p, const char* t, unsigned len) {
  uint32_t need = len >= 32 ? ~0u : (1u << len) - 1;
#if defined(__SSE2__)
  auto eq = [](const char* a, const char* b) {
    return uint32_t(_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(a)),
                                                     _mm_loadu_si128(reinterpret_cast<const __m128i*>(b)))));
  };
  return ((eq(p, t) | eq(p + 16, t + 16) << 16) & need) == need;
#elif defined(__wasm_simd128__)
  auto eq = [](const char* a, const char* b) {
    return uint32_t(wasm_i8x16_bitmask(wasm_i8x16_eq(wasm_v128_load(a), wasm_v128_load(b))));
  };
  return ((eq(p, t) | eq(p + 16, t + 16) << 16) & need) == need;
#else
  return std::memcmp(p, t, len) == 0;
#endif
}

// One separator and the key it holds: a node of the tree.
struct Separator {
  static constexpr int kChildren = 4;
  char bytes[32];
  uint8_t len = 0;
  uint8_t key_begin = 0, key_len = 0;
  uint8_t field = 0;          // the event field the key names (the decoder's Field), or the object's end
  uint8_t known = kNotKnown;  // the KnownArg the key is, for an arg
  bool opens = false;         // follows the object's '{' (no comma): matches only there, and only such do
  uint8_t n_children = 0, next_replaced = 0;
  uint8_t children[kChildren] = {};  // nodes that followed this one
};

struct SeparatorCache {
  static constexpr int kNodes = 255;     // indexes fit a byte; when full, the tree starts over
  static constexpr uint8_t kLost = 255;  // no node: the sequence left the tree
  Separator nodes[kNodes];               // node 0 is an event's '{'
  int used = 1;

  // The child of `node` whose bytes p starts with (32 bytes readable at p), learned at an object's
  // start as well (`opens`) or not, or kLost. A node can be followed by both: after "args" come the
  // args object's first key, or, when args is not an object, the event's next `, "key":`. Inlined
  // into the decoder's loops (a call per separator is a measurable share of the wasm import).
  [[gnu::always_inline]] uint8_t find(uint8_t node, const char* p, bool opens) const {
    const Separator& n = nodes[node];
    for (int c = 0; c < n.n_children; ++c) {
      const Separator& s = nodes[n.children[c]];
      if (s.opens == opens && same_prefix32(p, s.bytes, s.len)) return n.children[c];
    }
    return kLost;
  }

  // Adds the separator just parsed, start[0, len) holding `key` (opens: right after a '{'), as a
  // child of `node` (children beyond kChildren replace the oldest in turn); returns the new node,
  // or kLost when node is kLost, the separator is too long to keep, or the tree was full and starts
  // over.
  uint8_t learn(uint8_t node, const char* start, size_t len, std::string_view key, uint8_t field, bool opens) {
    if (node == kLost || len > sizeof(Separator::bytes)) return kLost;
    if (used == kNodes) {  // rare: varied writers only
      used = 1;
      nodes[0].n_children = 0;
      return kLost;
    }
    const uint8_t idx = uint8_t(used++);
    Separator& s = nodes[idx];
    std::memcpy(s.bytes, start, len);
    s.len = uint8_t(len);
    s.key_begin = uint8_t(key.data() - start);
    s.key_len = uint8_t(key.size());
    s.field = field;
    s.known = known_arg_of(key);
    s.opens = opens;
    s.n_children = 0;
    Separator& parent = nodes[node];
    if (parent.n_children < Separator::kChildren) {
      parent.children[parent.n_children++] = idx;
    } else {
      parent.children[parent.next_replaced] = idx;
      parent.next_replaced = uint8_t((parent.next_replaced + 1) % Separator::kChildren);
    }
    return idx;
  }
};

}  // namespace tw
