#include "core/inflate/deflate_decoder.h"

#include <algorithm>
#include <cstring>

namespace tw::inflate {

namespace {

constexpr unsigned kFastInputBytes = 32;    // two refills of 8 bytes, with room to spare
constexpr unsigned kFastOutputBytes = 320;  // a literal, a 258-byte match and a chunk copy's overshoot
constexpr unsigned kSymbolBits = 48;        // the most one literal/length + distance can take
constexpr uint8_t kCodeLengthOrder[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};

inline void store_le64(uint8_t* p, uint64_t v) { std::memcpy(p, &v, 8); }
inline uint64_t load_word(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

inline void copy16(uint8_t* to, const uint8_t* from) {
  uint8_t v[16];
  std::memcpy(v, from, 16);
  std::memcpy(to, v, 16);
}

// Copies a match of `length` bytes from `dist` back. May write up to 31 bytes past the match: the
// caller has that room. A chunk is loaded only from bytes already written (chunk size <= dist).
inline void copy_match_fast(uint8_t* out, uint32_t dist, uint32_t length) {
  const uint8_t* src = out - dist;
  uint8_t* const end = out + length;
  if (dist >= 16) {
    copy16(out, src);  // most matches are short: two chunks without a loop
    copy16(out + 16, src + 16);
    for (out += 32, src += 32; out < end; out += 16, src += 16) copy16(out, src);
  } else if (dist >= 8) {
    do {
      store_le64(out, load_word(src));
      out += 8;
      src += 8;
    } while (out < end);
  } else if (dist == 1) {
    const uint64_t run = 0x0101010101010101ull * *src;
    do {
      store_le64(out, run);
      out += 8;
    } while (out < end);
  } else {
    do *out++ = *src++;
    while (out < end);
  }
}

inline DeflateStatus truncated_or(const BitReader& br, DeflateStatus otherwise) {
  return br.overrun() ? DeflateStatus::kTruncated : otherwise;
}

}  // namespace

void DeflateDecoder::reset() {
  stage_ = Stage::kBlockHeader;
  final_block_ = false;
  stored_left_ = 0;
}

DeflateStatus DeflateDecoder::decode(BitReader& br, bool last, uint8_t*& out, uint8_t* limit,
                                     const uint8_t* window_lo) {
  for (;;) {
    DeflateStatus s = DeflateStatus::kEnd;
    switch (stage_) {
      case Stage::kBlockHeader: s = block_header(br, last); break;
      case Stage::kStored: s = stored(br, last, out, limit); break;
      case Stage::kHuffman: s = huffman(br, last, out, limit, window_lo); break;
      case Stage::kEnd: return DeflateStatus::kEnd;
    }
    if (s != DeflateStatus::kEnd) return s;
  }
}

// kEnd from a stage: go on with the next stage (the block ended or its header was read).
DeflateStatus DeflateDecoder::block_done() {
  stage_ = final_block_ ? Stage::kEnd : Stage::kBlockHeader;
  return DeflateStatus::kEnd;
}

DeflateStatus DeflateDecoder::block_header(BitReader& br, bool last) {
  if (!last && br.available_bits() < 8 * kMaxHeaderBytes) return DeflateStatus::kNeedInput;
  br.refill_slow(last);
  final_block_ = br.take(1);
  const unsigned type = br.take(2);
  if (type == 0) {
    br.align_to_byte();
    br.refill_slow(last);
    const uint32_t len = br.take(16), nlen = br.take(16);
    if (br.overrun()) return DeflateStatus::kTruncated;
    if (len != (~nlen & 0xffff)) return DeflateStatus::kCorrupt;
    br.unread_bytes();  // the block's bytes are copied from the input
    stored_left_ = len;
    stage_ = Stage::kStored;
    return DeflateStatus::kEnd;
  }
  if (type == 1) {
    if (br.overrun()) return DeflateStatus::kTruncated;
    if (!fixed_tables_) {
      uint8_t lens[288 + 32];
      std::fill(lens, lens + 144, 8);
      std::fill(lens + 144, lens + 256, 9);
      std::fill(lens + 256, lens + 280, 7);
      std::fill(lens + 280, lens + 288, 8);
      std::fill(lens + 288, lens + 320, 5);
      build_table(CodeKind::kLitLen, lens, 288, litlen_, kLitLenEntries);
      build_table(CodeKind::kDistance, lens + 288, 32, distance_, kDistanceEntries);
      fixed_tables_ = true;
    }
    stage_ = Stage::kHuffman;
    return DeflateStatus::kEnd;
  }
  if (type == 2) return dynamic_tables(br, last);
  return truncated_or(br, DeflateStatus::kCorrupt);  // block type 3
}

DeflateStatus DeflateDecoder::dynamic_tables(BitReader& br, bool last) {
  // The whole header is there (or the input has ended): refill_slow always reaches 56 bits.
  br.refill_slow(last);
  const unsigned nlen = br.take(5) + 257, ndist = br.take(5) + 1, ncode = br.take(4) + 4;
  if (nlen > 286 || ndist > 30) return truncated_or(br, DeflateStatus::kCorrupt);
  uint8_t code_lens[19] = {};
  for (unsigned i = 0; i < ncode; ++i) {
    br.refill_slow(last);
    code_lens[kCodeLengthOrder[i]] = static_cast<uint8_t>(br.take(3));
  }
  if (br.overrun()) return DeflateStatus::kTruncated;
  uint32_t code_table[kCodeLengthEntries];
  fixed_tables_ = false;
  if (!build_table(CodeKind::kCodeLength, code_lens, 19, code_table, kCodeLengthEntries))
    return DeflateStatus::kCorrupt;
  uint8_t lens[286 + 30];
  const unsigned total = nlen + ndist;
  for (unsigned have = 0; have < total;) {
    br.refill_slow(last);
    const uint32_t e = code_table[br.peek(kCodeLengthRoot)];
    br.drop(entry_bits(e));
    const unsigned sym = entry_value(e);
    if (sym < 16) {
      lens[have++] = static_cast<uint8_t>(sym);
      continue;
    }
    unsigned repeat = 0;
    uint8_t value = 0;
    if (sym == 16) {
      repeat = 3 + br.take(2);
      if (have == 0) return truncated_or(br, DeflateStatus::kCorrupt);
      value = lens[have - 1];
    } else if (sym == 17) {
      repeat = 3 + br.take(3);
    } else {
      repeat = 11 + br.take(7);
    }
    if (have + repeat > total) return truncated_or(br, DeflateStatus::kCorrupt);
    std::fill(lens + have, lens + have + repeat, value);
    have += repeat;
  }
  if (br.overrun()) return DeflateStatus::kTruncated;
  if (lens[256] == 0) return DeflateStatus::kCorrupt;  // no end-of-block code
  if (!build_table(CodeKind::kLitLen, lens, nlen, litlen_, kLitLenEntries) ||
      !build_table(CodeKind::kDistance, lens + nlen, ndist, distance_, kDistanceEntries))
    return DeflateStatus::kCorrupt;
  stage_ = Stage::kHuffman;
  return DeflateStatus::kEnd;
}

DeflateStatus DeflateDecoder::stored(BitReader& br, bool last, uint8_t*& out, uint8_t* limit) {
  // The register is empty here: the header gave its whole bytes back.
  while (stored_left_ > 0) {
    const size_t n = std::min<size_t>({stored_left_, size_t(br.end - br.next), size_t(limit - out)});
    if (n == 0) {
      if (out == limit) return DeflateStatus::kOutputFull;
      return last ? DeflateStatus::kTruncated : DeflateStatus::kNeedInput;
    }
    std::memcpy(out, br.next, n);
    out += n;
    br.next += n;
    stored_left_ -= static_cast<uint32_t>(n);
  }
  return block_done();
}

DeflateStatus DeflateDecoder::huffman(BitReader& br_in, bool last, uint8_t*& out_ref, uint8_t* limit,
                                      const uint8_t* window_lo) {
  BitReader br = br_in;  // a local copy: the compiler keeps it in registers
  uint8_t* out = out_ref;
  const uint32_t* const lt = litlen_;
  const uint32_t* const dt = distance_;
  constexpr uint64_t kLitLenMask = low_bits(kLitLenRoot);
  constexpr uint64_t kDistanceMask = low_bits(kDistanceRoot);
  DeflateStatus status = DeflateStatus::kEnd;

  for (;;) {
    if (br.end - br.next >= kFastInputBytes && limit - out >= kFastOutputBytes) {
      const uint8_t* const in_stop = br.end - kFastInputBytes;
      uint8_t* const out_stop = limit - kFastOutputBytes;
      do {
        br.refill_fast();
        uint32_t e = lt[br.bits & kLitLenMask];
        if (e & kLiteral) {
          br.drop(entry_bits(e));
          *out++ = static_cast<uint8_t>(entry_value(e));
          e = lt[br.bits & kLitLenMask];
          if (e & kLiteral) {
            br.drop(entry_bits(e));
            *out++ = static_cast<uint8_t>(entry_value(e));
            continue;
          }
          br.refill_fast();
        }
        if (e & kSpecial) {
          if (e & kSubtable) {
            br.drop(kLitLenRoot);
            e = lt[entry_value(e) + br.peek(entry_code_bits(e))];
            if (e & kLiteral) {
              br.drop(entry_bits(e));
              *out++ = static_cast<uint8_t>(entry_value(e));
              continue;
            }
          }
          if (e & kEndOfBlock) {
            br.drop(entry_bits(e));
            status = block_done();
            goto leave;
          }
          if (e & kInvalid) {
            status = DeflateStatus::kCorrupt;
            goto leave;
          }
        }
        const uint32_t length = entry_amount(e, br.bits);
        br.drop(entry_bits(e));
        uint32_t d = dt[br.bits & kDistanceMask];
        if (d & kSubtable) {
          br.drop(kDistanceRoot);
          d = dt[entry_value(d) + br.peek(entry_code_bits(d))];
        }
        if (d & kInvalid) {
          status = DeflateStatus::kCorrupt;
          goto leave;
        }
        const uint32_t dist = entry_amount(d, br.bits);
        br.drop(entry_bits(d));
        if (dist > static_cast<size_t>(out - window_lo)) {
          status = DeflateStatus::kCorrupt;
          goto leave;
        }
        copy_match_fast(out, dist, length);
        out += length;
      } while (br.next < in_stop && out < out_stop);
    }

    // One symbol with every bound checked.
    br.refill_slow(last);
    if (br.count < kSymbolBits && !last) {
      status = DeflateStatus::kNeedInput;
      break;
    }
    const BitReader before = br;
    uint32_t e = lookup(lt, kLitLenRoot, br.bits, br.count);
    if (e & (kLiteral | kEndOfBlock | kInvalid)) {
      br.drop(entry_bits(e));
      if (br.overrun()) {
        status = DeflateStatus::kTruncated;
        break;
      }
      if (e & kEndOfBlock) {
        status = block_done();
        break;
      }
      if (e & kInvalid) {
        status = DeflateStatus::kCorrupt;
        break;
      }
      if (out == limit) {
        br = before;
        status = DeflateStatus::kOutputFull;
        break;
      }
      *out++ = static_cast<uint8_t>(entry_value(e));
      continue;
    }
    const uint32_t length = entry_amount(e, br.bits);
    br.drop(entry_bits(e));
    const uint32_t d = lookup(dt, kDistanceRoot, br.bits, br.count);
    if (d & kInvalid) {
      br.drop(entry_bits(d));
      status = truncated_or(br, DeflateStatus::kCorrupt);
      break;
    }
    const uint32_t dist = entry_amount(d, br.bits);
    br.drop(entry_bits(d));
    if (br.overrun()) {
      status = DeflateStatus::kTruncated;
      break;
    }
    if (dist > static_cast<size_t>(out - window_lo)) {
      status = DeflateStatus::kCorrupt;
      break;
    }
    if (static_cast<size_t>(limit - out) < length) {
      br = before;
      status = DeflateStatus::kOutputFull;
      break;
    }
    const uint8_t* src = out - dist;  // byte by byte: no room past `limit` is assumed here
    for (uint32_t i = 0; i < length; ++i) out[i] = src[i];
    out += length;
  }
leave:
  br_in = br;
  out_ref = out;
  return status;
}

}  // namespace tw::inflate
