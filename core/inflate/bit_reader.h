// The DEFLATE bit reader: a 64-bit buffer that takes input bits from the low end (DEFLATE packs
// them least significant first). Two refills: `refill_fast` loads eight bytes unaligned and keeps
// the whole bytes that fit, without a branch (the caller guarantees 8 readable bytes), and
// `refill_slow` goes byte by byte up to the end of what has arrived; at the end of the last input
// it adds zero bytes ("phantom" bytes) so a decoder can decode the final symbols the same way and
// find afterwards, with `overrun()`, whether it used bits the input does not have (truncated).
//
// Invariant: bits at and above `count` are zero or the input's next bits (a fast refill loads a
// byte it does not keep yet; the next refill ORs the same bits again), so both refills mix freely.
#pragma once
#include <bit>
#include <cstdint>
#include <cstring>

namespace tw::inflate {

inline uint64_t load_le64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap64(v);
  return v;
}

inline constexpr uint64_t low_bits(unsigned n) { return (uint64_t(1) << n) - 1; }  // n < 64

struct BitReader {
  uint64_t bits = 0;
  unsigned count = 0;    // valid bits in `bits`, at most 63
  unsigned phantom = 0;  // zero bytes added past the end of the last input (on top of the real bits)
  const uint8_t* next = nullptr;
  const uint8_t* end = nullptr;

  // Needs next + 8 <= end. Afterwards count is 56..63.
  void refill_fast() {
    bits |= load_le64(next) << count;
    next += (63 - count) >> 3;
    count |= 56;
  }
  // Up to 56..63 bits, or fewer when the input that has arrived ends (unless `last`: zero bytes).
  void refill_slow(bool last) {
    while (count < 56) {
      if (next < end) bits |= uint64_t(*next++) << count;
      else if (last) ++phantom;
      else break;
      count += 8;
    }
  }
  // Bits the register holds plus the bytes not loaded yet.
  uint64_t available_bits() const { return count + 8 * uint64_t(end - next); }
  uint32_t peek(unsigned n) const { return static_cast<uint32_t>(bits & low_bits(n)); }
  void drop(unsigned n) {
    bits >>= n;
    count -= n;
  }
  uint32_t take(unsigned n) {
    const uint32_t v = peek(n);
    drop(n);
    return v;
  }
  // Whether a phantom bit was consumed: the decoding needed more input than there is.
  bool overrun() const { return count < 8 * phantom; }
  // Gives back the whole bytes the register holds (they are still in the input buffer): the
  // register keeps the bits of a partly used byte only.
  // Phantom bytes are dropped (call only when !overrun()).
  void unread_bytes() {
    const unsigned real = count - 8 * phantom;
    next -= real >> 3;
    count = real & 7;
    phantom = 0;
    bits &= low_bits(count);
  }
  // Drops the bits of a partly used byte (stored blocks and the gzip trailer start on a byte).
  void align_to_byte() { drop(count & 7); }
};

}  // namespace tw::inflate
