// Canonical Huffman decode tables for DEFLATE, built from code lengths. One lookup of the next
// `root` input bits gives an entry; a code longer than `root` bits goes through a second-level
// subtable. An entry packs all the decoder needs for a symbol, so the literal/length path takes
// one load in the common case:
//   bits 0-7    bits to drop: the codeword's, plus a length's or distance's extra bits
//   bits 8-11   the codeword's bits (where the extra bits start); a subtable pointer: its index bits
//   bits 12-15  kind: literal, end of block, subtable pointer, invalid (none: a length or distance)
//   bits 16-31  the literal byte, the length or distance base, the subtable's first entry
// What zlib accepts, this accepts: over-subscribed codes are errors, an incomplete code only when
// it is a single code of length 1 (its other half decodes as invalid), a distance code without
// codes decodes everything as invalid, and a code-length code without codes decodes every symbol
// as a zero length (what zlib's inflate does; the missing end of block then fails).
#pragma once
#include <cstdint>

namespace tw::inflate {

inline constexpr uint32_t kLiteral = 0x8000;
inline constexpr uint32_t kSubtable = 0x4000;
inline constexpr uint32_t kEndOfBlock = 0x2000;
inline constexpr uint32_t kInvalid = 0x1000;
inline constexpr uint32_t kSpecial = kSubtable | kEndOfBlock | kInvalid;

inline unsigned entry_bits(uint32_t e) { return e & 0xff; }
inline unsigned entry_code_bits(uint32_t e) { return (e >> 8) & 0xf; }
inline uint32_t entry_value(uint32_t e) { return e >> 16; }

enum class CodeKind { kLitLen, kDistance, kCodeLength };

inline constexpr unsigned kLitLenRoot = 11;
inline constexpr unsigned kDistanceRoot = 8;
inline constexpr unsigned kCodeLengthRoot = 7;
// Room for the root table and every subtable (zlib's `enough` gives 2342 and 402 for these roots;
// the builder checks the bound anyway).
inline constexpr unsigned kLitLenEntries = 2560;
inline constexpr unsigned kDistanceEntries = 640;
inline constexpr unsigned kCodeLengthEntries = 1u << kCodeLengthRoot;

inline constexpr unsigned kMaxCodeBits = 15;

// Builds the table of `n` symbols with code lengths `lens` (0: unused); false when zlib would
// reject them. `capacity`: the table's entries.
bool build_table(CodeKind kind, const uint8_t* lens, unsigned n, uint32_t* table, unsigned capacity);

// The decoded entry for the next bits of `bits` (the subtable pointer's root bits are dropped from
// `bits`/`count` when it is followed).
inline uint32_t lookup(const uint32_t* table, unsigned root, uint64_t& bits, unsigned& count) {
  uint32_t e = table[bits & ((uint64_t(1) << root) - 1)];
  if (e & kSubtable) {
    bits >>= root;
    count -= root;
    e = table[entry_value(e) + (bits & ((uint64_t(1) << entry_code_bits(e)) - 1))];
  }
  return e;
}

// A length or distance: its base plus its extra bits, which follow the codeword in `bits`.
inline uint32_t entry_amount(uint32_t e, uint64_t bits) {
  return entry_value(e) + static_cast<uint32_t>((bits & ((uint64_t(1) << entry_bits(e)) - 1)) >> entry_code_bits(e));
}

}  // namespace tw::inflate
