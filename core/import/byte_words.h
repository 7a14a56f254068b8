// Eight bytes at a time (SWAR) for the fast decoder (fast_event_decoder.cc): which bytes of a word
// end a plain string or a digit run, and the value of a run of digits. Words are read
// little-endian, so the lowest byte is the first in the text.
#pragma once
#include <cstdint>

namespace tw {

inline constexpr uint64_t kOnes = 0x0101010101010101ULL, kHighs = 0x8080808080808080ULL;

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the byte words are read little-endian");

// The high bit of each of 8 bytes that is '"', '\\', < 0x20 or >= 0x80, so a string's bytes are checked
// a word at a time. A borrow can set a false bit only above a true one, so the lowest bit is exact.
inline uint64_t special_bytes(uint64_t w) {
  uint64_t q = w ^ (kOnes * '"'), b = w ^ (kOnes * '\\');
  return (((q - kOnes) & ~q) | ((b - kOnes) & ~b) | (w - kOnes * 0x20) | w) & kHighs;
}

// The high bit of each of 8 bytes that is not '0'..'9' (lowest bit exact, as above): bytes below
// '0' borrow in the subtraction, bytes above '9' reach 0x80 when 0x76 is added.
inline uint64_t non_digits(uint64_t w) {
  uint64_t x = w - kOnes * '0';
  return (x | (x + kOnes * 0x76)) & kHighs;
}

// The value of the first k (1..8) bytes of w, all '0'..'9', the first the most significant: they
// are moved to the top of the word (the bytes below become leading zeros), then summed in pairs,
// fours and eights with one multiply each. Bytes after the k-th may be anything: a borrow of the
// subtraction only runs upwards, and they are shifted out.
inline uint64_t digits_value(uint64_t w, unsigned k) {
  uint64_t x = (w - kOnes * '0') << (8 * (8 - k));
  x = ((x * (1 + (10 << 8))) >> 8) & 0x00FF00FF00FF00FFULL;
  x = ((x * (1 + (100 << 16))) >> 16) & 0x0000FFFF0000FFFFULL;
  return (x * (1 + (10000ULL << 32))) >> 32;
}

inline constexpr uint64_t kPow10[] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};

}  // namespace tw
