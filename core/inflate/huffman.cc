#include "core/inflate/huffman.h"

#include <algorithm>

namespace tw::inflate {

namespace {

constexpr uint16_t kLengthBase[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                      31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
constexpr uint8_t kLengthExtra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                      2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
constexpr uint16_t kDistanceBase[30] = {1,    2,    3,    4,    5,    7,    9,    13,    17,    25,
                                        33,   49,   65,   97,   129,  193,  257,  385,   513,   769,
                                        1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
constexpr uint8_t kDistanceExtra[30] = {0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
                                        6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

uint32_t make_entry(uint32_t value, unsigned code_bits, unsigned extra_bits, uint32_t kind) {
  return value << 16 | kind | code_bits << 8 | (code_bits + extra_bits);
}

// The entry of symbol `sym` whose codeword takes `code_bits` bits at its level of the table.
uint32_t symbol_entry(CodeKind kind, unsigned sym, unsigned code_bits) {
  switch (kind) {
    case CodeKind::kLitLen:
      if (sym < 256) return make_entry(sym, code_bits, 0, kLiteral);
      if (sym == 256) return make_entry(0, code_bits, 0, kEndOfBlock);
      if (sym < 286) return make_entry(kLengthBase[sym - 257], code_bits, kLengthExtra[sym - 257], 0);
      return make_entry(0, code_bits, 0, kInvalid);  // 286, 287: in the fixed code, never valid
    case CodeKind::kDistance:
      if (sym < 30) return make_entry(kDistanceBase[sym], code_bits, kDistanceExtra[sym], 0);
      return make_entry(0, code_bits, 0, kInvalid);  // 30, 31: likewise
    case CodeKind::kCodeLength: return make_entry(sym, code_bits, 0, 0);
  }
  return make_entry(0, code_bits, 0, kInvalid);
}

unsigned root_bits(CodeKind kind) {
  switch (kind) {
    case CodeKind::kLitLen: return kLitLenRoot;
    case CodeKind::kDistance: return kDistanceRoot;
    case CodeKind::kCodeLength: return kCodeLengthRoot;
  }
  return kCodeLengthRoot;
}

uint32_t reverse_bits(uint32_t code, unsigned n) {
  uint32_t r = 0;
  for (unsigned i = 0; i < n; ++i, code >>= 1) r = r << 1 | (code & 1);
  return r;
}

}  // namespace

bool build_table(CodeKind kind, const uint8_t* lens, unsigned n, uint32_t* table, unsigned capacity) {
  const unsigned root = root_bits(kind);
  const unsigned root_size = 1u << root;
  if (n > 288 || capacity < root_size) return false;
  unsigned count[kMaxCodeBits + 1] = {};
  for (unsigned s = 0; s < n; ++s) {
    if (lens[s] > kMaxCodeBits) return false;
    ++count[lens[s]];
  }
  count[0] = 0;
  unsigned max = kMaxCodeBits;
  while (max > 0 && count[max] == 0) --max;
  if (max == 0) {
    // No codes: zlib makes every lookup invalid (one bit), or for the code-length code a zero length.
    const uint32_t e = kind == CodeKind::kCodeLength ? make_entry(0, 1, 0, 0) : make_entry(0, 1, 0, kInvalid);
    std::fill(table, table + root_size, e);
    return true;
  }
  int left = 1;
  for (unsigned len = 1; len <= kMaxCodeBits; ++len) {
    left = (left << 1) - static_cast<int>(count[len]);
    if (left < 0) return false;  // over-subscribed
  }
  if (left > 0) {
    if (kind == CodeKind::kCodeLength || max != 1) return false;  // incomplete
    std::fill(table, table + root_size, make_entry(0, 1, 0, kInvalid));
  }

  // Symbols in canonical order: by code length, then by symbol.
  uint16_t offset[kMaxCodeBits + 2] = {};
  for (unsigned len = 1; len <= kMaxCodeBits; ++len) offset[len + 1] = offset[len] + count[len];
  uint16_t sorted[288];
  for (unsigned s = 0; s < n; ++s)
    if (lens[s]) sorted[offset[lens[s]]++] = static_cast<uint16_t>(s);
  const unsigned symbols = offset[kMaxCodeBits + 1];

  unsigned left_of_len[kMaxCodeBits + 1];
  std::copy(count, count + kMaxCodeBits + 1, left_of_len);
  uint32_t code = 0;  // the canonical codeword, most significant bit first
  unsigned next_free = root_size, sub_start = 0, sub_bits = 0;
  uint32_t sub_prefix = ~0u;
  for (unsigned i = 0; i < symbols; ++i) {
    const unsigned sym = sorted[i], len = lens[sym];
    const uint32_t rev = reverse_bits(code, len);  // the codeword as it arrives in the bit buffer
    if (len <= root) {
      const uint32_t e = symbol_entry(kind, sym, len);
      for (uint32_t at = rev; at < root_size; at += 1u << len) table[at] = e;
    } else {
      const uint32_t prefix = rev & (root_size - 1);
      if (prefix != sub_prefix) {
        // A new subtable: as many index bits as the codes that share this prefix need.
        unsigned bits = len - root;
        int room = 1 << bits;
        while (bits + root < max) {
          room -= static_cast<int>(left_of_len[bits + root]);
          if (room <= 0) break;
          ++bits;
          room <<= 1;
        }
        if (next_free + (1u << bits) > capacity) return false;
        sub_prefix = prefix;
        sub_start = next_free;
        sub_bits = bits;
        next_free += 1u << bits;
        table[prefix] = sub_start << 16 | kSubtable | sub_bits << 8 | root;
      }
      const uint32_t e = symbol_entry(kind, sym, len - root);
      for (uint32_t at = rev >> root; at < (1u << sub_bits); at += 1u << (len - root)) table[sub_start + at] = e;
    }
    --left_of_len[len];
    ++code;
    if (i + 1 < symbols) code <<= lens[sorted[i + 1]] - len;
  }
  return true;
}

}  // namespace tw::inflate
