#include "core/import/fast_event_decoder.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "core/base/decimal.h"
#include "core/base/same_bytes.h"
#include "core/import/byte_words.h"
#include "core/import/duplicate_keys.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#elif defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

namespace tw {

namespace {

// Deeper events are left to simdjson (limit 1024), which decides whether they are too deep.
constexpr int kMaxDepth = 32;

#if defined(__SSE2__) || defined(__wasm_simd128__)
#define TW_FAST_DECODE_SIMD 1
// Bit i set when byte i of p[0, 16) is special (as special_bytes). The signed compare with 0x20
// is true for bytes < 0x20 and for bytes >= 0x80, both special.
inline uint32_t special16(const char* p) {
#if defined(__SSE2__)
  __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  __m128i m = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
  return uint32_t(_mm_movemask_epi8(_mm_or_si128(m, _mm_cmplt_epi8(v, _mm_set1_epi8(0x20)))));
#else
  v128_t v = wasm_v128_load(p);
  v128_t m = wasm_v128_or(wasm_i8x16_eq(v, wasm_i8x16_splat('"')), wasm_i8x16_eq(v, wasm_i8x16_splat('\\')));
  return wasm_i8x16_bitmask(wasm_v128_or(m, wasm_i8x16_lt(v, wasm_i8x16_splat(0x20))));
#endif
}
#endif

inline bool is_digit(char c) { return c >= '0' && c <= '9'; }

// The event fields EventDecoder::decode_fields reads; kOther values are validated and skipped.
enum Field : uint8_t {
  kOther,
  kPh,
  kPid,
  kName,
  kCat,
  kTs,
  kTid,
  kDur,
  kId,
  kArgs,
  kScope,
  kBp,
  kBindId,
  kFlowIn,
  kFlowOut,
};

// The field of a separator that ends its object (`\n  }`): remembered like a key's, so an event's
// end is found by one compare as well (without it, every object's end was a failed lookup).
constexpr uint8_t kObjectEnd = 0xFF;

uint8_t field_of(std::string_view key) {
  if (key.empty() || key.size() > 8) return kOther;
  switch (key[0]) {
    case 'p': return same_bytes(key, "ph") ? kPh : same_bytes(key, "pid") ? kPid : kOther;
    case 'n': return same_bytes(key, "name") ? kName : kOther;
    case 'c': return same_bytes(key, "cat") ? kCat : kOther;
    case 't': return same_bytes(key, "ts") ? kTs : same_bytes(key, "tid") ? kTid : kOther;
    case 'd': return same_bytes(key, "dur") ? kDur : kOther;
    case 'i': return same_bytes(key, "id") || same_bytes(key, "id2") ? kId : kOther;
    case 'a': return same_bytes(key, "args") ? kArgs : kOther;
    case 's': return same_bytes(key, "s") ? kScope : kOther;
    case 'b': return same_bytes(key, "bp") ? kBp : same_bytes(key, "bind_id") ? kBindId : kOther;
    case 'f': return same_bytes(key, "flow_in") ? kFlowIn : same_bytes(key, "flow_out") ? kFlowOut : kOther;
    default: return kOther;
  }
}

// A strict JSON reader over [p, end). Each value parser starts at the value's first byte and
// returns false on anything that is not strictly valid (or not of the clean kind: escapes).
// `depth` is the nesting of the container holding the value (the event object is 1).
//
// The readers on a clean event's path are always_inline: clang (the wasm build) left them as calls,
// and a call in wasm passes the Reader and its out-parameters through linear memory, where inlined
// they stay in locals (docs/performance.md, "Fast decoder and known-args index"). Rare forms stay
// out of line (parse_separator, other_id, skip).
struct Reader {
  const char* p;
  const char* end;
  SeparatorCache* seps;
  uint8_t node = 0;  // in seps: the last separator passed (SeparatorCache::kLost: not in the tree)

  // The separator before an object's next value: p after '{' (first) or after a value. Returns 1
  // with p at the value and its key (and the event field it names), 0 with p after the '}' that
  // ended the object, -1 on invalid input. Grammar: `{` ws (`}` | key) or ws (`,` key | `}`),
  // key = string ws `:` ws. A remembered separator is the whole work; parsing one is kept out of
  // line, so that inlining this into the decoding loops stays cheap (with both in one function the
  // native import was slower).
  [[gnu::always_inline]] int separator(bool first, std::string_view& k, uint8_t& field) {
    if (node != SeparatorCache::kLost && end - p >= 32) {
      if (uint8_t next = seps->find(node, p, first); next != SeparatorCache::kLost) {
        const Separator& s = seps->nodes[next];
        k = std::string_view(p + s.key_begin, s.key_len);
        field = s.field;
        p += s.len;
        node = next;
        return s.field == kObjectEnd ? 0 : 1;
      }
    }
    return parse_separator(first, k, field);
  }

  [[gnu::noinline]] int parse_separator(bool first, std::string_view& k, uint8_t& field) {
    const char* start = p;
    if (first ? eat('}') : !eat(',')) {
      if (!first && !eat('}')) return -1;
      node = seps->learn(node, start, size_t(p - start), std::string_view(start, 0), kObjectEnd, first);
      return 0;
    }
    if (!key(k)) return -1;
    ws();
    field = field_of(k);
    node = seps->learn(node, start, size_t(p - start), k, field, first);
    return 1;
  }

  void ws() {
    // One compare and one bit test per byte (Kineto indents with runs of 5-7 spaces).
    constexpr uint64_t kWs = (1ULL << ' ') | (1ULL << '\n') | (1ULL << '\r') | (1ULL << '\t');
    while (p < end && static_cast<unsigned char>(*p) <= ' ' && ((kWs >> *p) & 1)) ++p;
  }
  // The next byte after whitespace; '\0' at the end (no value starts with it).
  char peek() {
    ws();
    return p < end ? *p : '\0';
  }
  bool eat(char c) {
    if (peek() != c) return false;
    ++p;
    return true;
  }
  bool literal(const char* word, size_t len) {
    if (size_t(end - p) < len) return false;
    for (size_t k = 0; k < len; ++k)  // not memcmp: a call (and a byte loop) in wasm
      if (p[k] != word[k]) return false;
    p += len;
    return true;
  }

  // Skips a run of digits, 8 at a time while it lasts (timestamps have ~17).
  void digits() {
    while (end - p >= 8) {
      uint64_t w;
      std::memcpy(&w, p, 8);
      if (uint64_t m = non_digits(w)) {
        p += __builtin_ctzll(m) >> 3;
        return;
      }
      p += 8;
    }
    while (p < end && is_digit(*p)) ++p;
  }

  // One UTF-8 sequence of 2-4 bytes at p (same rules as repair_utf8 and simdjson's validation).
  bool utf8() {
    auto* u = reinterpret_cast<const unsigned char*>(p);
    unsigned char c = u[0];
    size_t len = (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (len == 0 || size_t(end - p) < len) return false;
    for (size_t k = 1; k < len; ++k)
      if ((u[k] & 0xC0) != 0x80) return false;
    if (len == 2 && c < 0xC2) return false;
    if (len == 3) {
      uint32_t cp = ((c & 0x0F) << 12) | ((u[1] & 0x3F) << 6) | (u[2] & 0x3F);
      if (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    }
    if (len == 4) {
      uint32_t cp = ((c & 0x07) << 18) | ((u[1] & 0x3F) << 12) | ((u[2] & 0x3F) << 6) | (u[3] & 0x3F);
      if (cp < 0x10000 || cp > 0x10FFFF) return false;
    }
    p += len;
    return true;
  }

  // Advances p to the first byte that special_bytes() flags, or to `end`.
  void to_special() {
#ifdef TW_FAST_DECODE_SIMD
    for (; end - p >= 16; p += 16)
      if (uint32_t m = special16(p)) {
        p += __builtin_ctz(m);
        return;
      }
#endif
    for (; end - p >= 8; p += 8) {
      uint64_t w;
      std::memcpy(&w, p, 8);
      if (uint64_t m = special_bytes(w)) {
        p += __builtin_ctzll(m) >> 3;
        return;
      }
    }
    while (p < end) {
      unsigned char c = static_cast<unsigned char>(*p);
      if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) return;
      ++p;
    }
  }

  // p at the opening quote. Without escapes the raw bytes are the string (as simdjson's view).
  [[gnu::always_inline]] bool string(std::string_view& out) {
    const char* s = ++p;
    for (;;) {
      to_special();
      if (p >= end) return false;
      unsigned char c = static_cast<unsigned char>(*p);
      if (c == '"') {
        out = std::string_view(s, size_t(p - s));
        ++p;
        return true;
      }
      if (c < 0x80 || !utf8()) return false;  // a backslash or control byte, or bad UTF-8
    }
  }

  // Strict JSON number grammar; `out` is its text (= simdjson's raw token, trimmed).
  bool number(std::string_view& out) {
    const char* s = p;
    if (p < end && *p == '-') ++p;
    if (p >= end || !is_digit(*p)) return false;
    if (*p++ != '0') digits();
    if (p < end && *p == '.') {
      ++p;
      if (p >= end || !is_digit(*p)) return false;
      digits();
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
      ++p;
      if (p < end && (*p == '+' || *p == '-')) ++p;
      if (p >= end || !is_digit(*p)) return false;
      digits();
    }
    out = std::string_view(s, size_t(p - s));
    return true;
  }

  // The common forms parsed in the pass that scans them; anything else (exponents, more digits,
  // a leading zero, no digit after '.') returns false with p unmoved, for number() and the parsers
  // of core/base/decimal.h, whose results these equal.
  //
  // -?digits with 1..max digits and no leading zero, accumulated in v (p moves past what it read).
  [[gnu::always_inline]] bool plain_digits(size_t max, bool& neg, uint64_t& v) {
    neg = p < end && *p == '-';
    if (neg) ++p;
    const char* d = p;
    v = 0;
    if (end - p >= 16) {  // two words: the run's length from their non-digit bits, then its value
      uint64_t w0, w1;
      std::memcpy(&w0, p, 8);
      std::memcpy(&w1, p + 8, 8);
      const uint64_t m0 = non_digits(w0), m1 = non_digits(w1);
      const size_t n = m0 ? size_t(__builtin_ctzll(m0)) >> 3 : m1 ? 8 + (size_t(__builtin_ctzll(m1)) >> 3) : 16;
      // Runs of 16 or more digits go to the byte loop below, which checks max for them. Here
      // n <= 15, so n > max never holds for today's callers (max 15 or 18); the check keeps the
      // function right for any max.
      if (n < 16) {
        if (n == 0 || n > max) return false;
        v = n <= 8 ? digits_value(w0, unsigned(n))
                   : digits_value(w0, 8) * kPow10[n - 8] + digits_value(w1, unsigned(n - 8));
        p += n;
        return n == 1 || *d != '0';
      }
    }
    while (p < end && is_digit(*p) && size_t(p - d) <= max) v = v * 10 + unsigned(*p++ - '0');
    size_t n = size_t(p - d);
    return n > 0 && n <= max && (n == 1 || *d != '0');
  }
  // -?digits, at most 18 digits and no fraction or exponent: parse_int64 of the text.
  [[gnu::always_inline]] bool plain_int(int64_t& out) {
    const char* start = p;
    bool neg;
    uint64_t v;
    if (!plain_digits(18, neg, v) || (p < end && (*p == '.' || *p == 'e' || *p == 'E'))) {
      p = start;
      return false;
    }
    out = neg ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
    return true;
  }
  // Microseconds as -?digits[.digits] with at most 15 integer digits and no exponent, in
  // nanoseconds: parse_us_to_ns of the text (rounded half away from zero on the first digit below
  // the nanosecond, which parse_decimal_scaled also keeps whenever there are <= 15 integer digits).
  [[gnu::always_inline]] bool plain_us(int64_t& out) {
    const char* start = p;
    bool neg;
    uint64_t v;
    bool plain = plain_digits(15, neg, v);
    int frac = 0;
    unsigned round = 0;
    if (plain && p < end && *p == '.') {
      const char* f = ++p;
      for (; p < end && is_digit(*p) && frac < 3; ++p, ++frac) v = v * 10 + unsigned(*p - '0');
      plain = p > f;
      if (plain && p < end && is_digit(*p)) {
        round = *p >= '5';
        digits();
      }
    }
    if (!plain || (p < end && (*p == 'e' || *p == 'E'))) {
      p = start;
      return false;
    }
    for (; frac < 3; ++frac) v *= 10;
    v += round;
    out = neg ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
    return true;
  }

  // A key of at most 6 plain bytes (no escape, control or non-ASCII byte) directly followed by its
  // colon, as writers put them ("ph": "X"), read with one 8-byte load: p at the opening quote. The
  // same key and end position as string() and eat(':') give; false leaves p unmoved.
  bool short_key(std::string_view& k) {
    if (end - p < 9) return false;
    uint64_t w;
    std::memcpy(&w, p + 1, 8);
    uint64_t q = w ^ (kOnes * '"');
    uint64_t quotes = (q - kOnes) & ~q & kHighs;  // the lowest set bit is exact (see special_bytes)
    if (!quotes) return false;
    unsigned len = unsigned(__builtin_ctzll(quotes)) >> 3;
    if (len > 6 || p[len + 2] != ':') return false;
    if (len > 0 && (special_bytes(w) & (~uint64_t(0) >> (64 - 8 * len)))) return false;
    k = std::string_view(p + 1, len);
    p += len + 3;
    return true;
  }
  bool key(std::string_view& k) { return peek() == '"' && (short_key(k) || (string(k) && eat(':'))); }

  // Validates and skips any value.
  bool skip(int depth) {
    std::string_view t;
    switch (peek()) {
      case '"': return string(t);
      case 't': return literal("true", 4);
      case 'f': return literal("false", 5);
      case 'n': return literal("null", 4);
      case '{':
        if (depth + 1 > kMaxDepth) return false;
        ++p;
        if (eat('}')) return true;
        do {
          if (!key(t) || !skip(depth + 1)) return false;
        } while (eat(','));
        return eat('}');
      case '[':
        if (depth + 1 > kMaxDepth) return false;
        ++p;
        if (eat(']')) return true;
        do {
          if (!skip(depth + 1)) return false;
        } while (eat(','));
        return eat(']');
      default: return number(t);
    }
  }

  // read_scalar_text: 1 when `out` holds a string's contents or a number's text, 2 for any other
  // (valid, skipped) value, 0 on invalid input.
  [[gnu::always_inline]] int text(std::string_view& out, int depth) {
    char c = peek();
    if (c == '"') return string(out) ? 1 : 0;
    if (c == '-' || is_digit(c)) return number(out) ? 1 : 0;
    return skip(depth) ? 2 : 0;
  }

  // ph, name, cat, s, bp: the text, or empty for other values.
  [[gnu::always_inline]] bool text_field(std::string_view& out, int depth) {
    int r = text(out, depth);
    if (r == 2) out = std::string_view();
    return r != 0;
  }

  // read_time: ts/dur as numbers or strings holding numbers, in microseconds.
  [[gnu::always_inline]] bool time(bool& has, bool& ok, int64_t& out, int depth) {
    has = true;
    ok = false;
    char c = peek();
    if ((c == '-' || is_digit(c)) && plain_us(out)) {
      ok = true;
      return true;
    }
    std::string_view t;
    int r = text(t, depth);
    if (r == 1) ok = parse_us_to_ns(t, out);
    return r != 0;
  }

  // read_id: a number or string; for an object (id2) the first field's value, one level only.
  // The common plain integer inline, the rest out of line.
  [[gnu::always_inline]] bool id(RawId& id, int depth) {
    id.present = true;
    char c = peek();
    if (c == '-' || is_digit(c)) {
      const char* s = p;
      if (plain_int(id.value)) {
        id.is_string = false;  // a duplicate key may have set it
        id.numeric = true;
        id.text = std::string_view(s, size_t(p - s));
        return true;
      }
    }
    return other_id(id, depth);
  }
  [[gnu::noinline]] bool other_id(RawId& id, int depth) {
    std::string_view t;
    char c = peek();
    if (c == '{') {
      if (depth + 1 > kMaxDepth) return false;
      ++p;
      if (eat('}')) return true;
      if (!key(t)) return false;
      if (peek() == '{' ? !skip(depth + 1) : !this->id(id, depth + 1)) return false;
      while (eat(','))
        if (!key(t) || !skip(depth + 1)) return false;
      return eat('}');
    }
    bool is_string = c == '"';
    int r = text(t, depth);
    if (r == 1) {
      id.is_string = is_string;
      id.text = t;
      id.numeric = parse_int64(t, id.value);
    }
    return r != 0;
  }

  // read_bool: true only for the literal true.
  bool boolean(bool& b, int depth) {
    char c = peek();
    b = c == 't';
    if (c == 't') return literal("true", 4);
    if (c == 'f') return literal("false", 5);
    return skip(depth);
  }

  // An args array: up to 3 leading integers, stopping at the first other element (read_args).
  bool int_array(RawArg& a, int depth) {
    if (depth + 1 > kMaxDepth) return false;
    ++p;
    if (eat(']')) return true;
    bool stopped = false;
    do {
      char c = peek();
      if (!stopped && a.n_ints < 3 && (c == '-' || is_digit(c))) {
        std::string_view t;
        int64_t x = 0;
        bool plain = plain_int(x);
        if (!plain && !number(t)) return false;
        if (plain || parse_int64(t, x)) {
          a.ints[a.n_ints++] = x;
        } else {
          stopped = true;
        }
      } else {
        stopped = true;
        if (!skip(depth + 1)) return false;
      }
    } while (eat(','));
    return eat(']');
  }

  bool args(RawEvent& e, int depth) {
    if (peek() != '{') return skip(depth);  // args that are not an object are ignored
    if (depth + 1 > kMaxDepth) return false;
    int d = depth + 1;
    ++p;
    e.has_args = true;
    for (bool first = true;; first = false) {
      std::string_view k;
      uint8_t field;
      int got = separator(first, k, field);
      if (got <= 0) return got == 0;
      if (e.n_args >= kMaxArgs) {
        e.args_overflow = true;
        if (!skip(d)) return false;
        continue;
      }
      // The key's KnownArg: learned with its separator, or (not kept in the tree) looked up.
      const uint8_t known = node != SeparatorCache::kLost ? seps->nodes[node].known : known_arg_of(k);
      RawArg& a = e.args[e.n_args];
      a.key = k;
      a.n_ints = 0;
      a.text = std::string_view();
      a.has_int = false;
      char c = peek();
      bool ok;
      if (c == '"') {
        a.type = ArgType::kString;
        ok = string(a.text);
      } else if (c == 't' || c == 'f') {
        a.type = ArgType::kBool;
        ok = c == 't' ? literal("true", 4) : literal("false", 5);
        a.text = c == 't' ? "true" : "false";
      } else if (c == 'n') {
        a.type = ArgType::kNull;
        ok = literal("null", 4);
      } else if (c == '{') {
        a.type = ArgType::kObject;
        ok = skip(d);
      } else if (c == '[') {
        a.type = ArgType::kArray;
        ok = int_array(a, d);
      } else {
        a.type = ArgType::kNumber;
        const char* s = p;
        a.has_int = plain_int(a.int_value);
        if (a.has_int) a.text = std::string_view(s, size_t(p - s));
        ok = a.has_int || number(a.text);
      }
      if (!ok) return false;
      note_known_arg(e, known);
      ++e.n_args;
    }
  }
};

// Bits for duplicate-key detection (duplicate_keys.h).
using namespace duplicate_keys;

// The duplicate-key bit of each Field (0: not checked, as in decode_fields).
constexpr uint32_t kSeenBit[] = {0,    kKPh,   kKPid, kKName, kKCat,  kKTs, kKTid, kKDur,
                                 kKId, kKArgs, kKS,   kKBp,   kKBind, 0,    0};
static_assert(sizeof(kSeenBit) / sizeof(kSeenBit[0]) == kFlowOut + 1, "one bit per Field");

// One field's value, mirroring EventDecoder::decode_fields rule by rule.
bool read_value(Reader& r, Field f, RawEvent& e, uint32_t& seen) {
  constexpr int d = 1;
  if (uint32_t bit = kSeenBit[f]) {
    if (seen & bit) e.duplicate_key = true;
    seen |= bit;
  }
  bool b = false;
  switch (f) {
    case kPh: e.has_ph = true; return r.text_field(e.ph, d);
    case kPid: return r.id(e.pid, d);
    case kName: e.has_name = true; return r.text_field(e.name, d);
    case kCat: return r.text_field(e.cat, d);
    case kTs: return r.time(e.has_ts, e.ts_ok, e.ts_ns, d);
    case kTid: return r.id(e.tid, d);
    case kDur: return r.time(e.has_dur, e.dur_ok, e.dur_ns, d);
    case kId: return r.id(e.id, d);
    case kArgs: return r.args(e, d);
    case kScope: return r.text_field(e.scope, d);
    case kBp: return r.text_field(e.bp, d);
    case kBindId: return r.id(e.bind_id, d);
    case kFlowIn:
    case kFlowOut:
      if (!r.boolean(b, d)) return false;
      (f == kFlowIn ? e.flow_in : e.flow_out) = b;
      return true;
    case kOther: break;
  }
  return r.skip(d);
}

}  // namespace

size_t fast_decode_object(const char* p, size_t n, RawEvent& e, SeparatorCache& cache) {
  if (n == 0 || *p != '{') return 0;
  Reader r{p + 1, p + n, &cache};
  reset_before_args(e);
  uint32_t seen = 0;
  for (bool first = true;; first = false) {
    std::string_view key;
    uint8_t field;
    int got = r.separator(first, key, field);
    if (got < 0) return 0;
    if (got == 0) break;
    if (!read_value(r, Field(field), e, seen)) return 0;
  }
  return size_t(r.p - p);
}

bool fast_decode_event(const char* p, size_t n, RawEvent& e, SeparatorCache& cache) {
  Reader r{p, p + n, &cache};
  r.ws();
  size_t len = fast_decode_object(r.p, size_t(r.end - r.p), e, cache);
  if (len == 0) return false;
  r.p += len;
  r.ws();
  return r.p == r.end;
}

}  // namespace tw
