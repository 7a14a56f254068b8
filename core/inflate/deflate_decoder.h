// A raw DEFLATE (RFC 1951) stream decoder that can stop at any input boundary and go on when more
// arrives: between calls it keeps the block it is in (tables, or a stored block's bytes left) and
// the bit reader, at a symbol's boundary. A block header is decoded only once kMaxHeaderBytes are
// there (or the input has ended), so it is never left half read.
//
// The Huffman blocks run a fast loop while 32+ input bytes and 320+ bytes of output room remain:
// branch-free 8-byte refills, one table lookup per literal (two literals a refill), matches copied
// 16 or 8 bytes at a time. At the edges one symbol at a time with every bound checked. Errors are zlib's
// (docs: core/inflate/README.md): the output before the first invalid symbol is kept.
#pragma once
#include <cstdint>

#include "core/inflate/bit_reader.h"
#include "core/inflate/huffman.h"

namespace tw::inflate {

enum class DeflateStatus {
  kNeedInput,   // every bit that has arrived is used: push more (or say the input ended)
  kOutputFull,  // the output room is used up
  kEnd,         // the final block ended
  kCorrupt,     // invalid data
  kTruncated,   // the input ended inside the stream
};

// Enough input for any block header (a dynamic one is at most ~563 bytes).
inline constexpr unsigned kMaxHeaderBytes = 640;

class DeflateDecoder {
 public:
  // For a new stream.
  void reset();
  // Decodes from `br` into [out, limit) (`out` advances); `last`: the input has ended.
  // `window_lo`: the first byte a match may copy from (the stream's first byte, or the oldest
  // kept). Returns at the end of the final block, when input or room runs out, or at an error.
  DeflateStatus decode(BitReader& br, bool last, uint8_t*& out, uint8_t* limit, const uint8_t* window_lo);

 private:
  enum class Stage { kBlockHeader, kStored, kHuffman, kEnd };
  DeflateStatus block_header(BitReader& br, bool last);
  DeflateStatus dynamic_tables(BitReader& br, bool last);
  DeflateStatus stored(BitReader& br, bool last, uint8_t*& out, uint8_t* limit);
  DeflateStatus huffman(BitReader& br, bool last, uint8_t*& out, uint8_t* limit, const uint8_t* window_lo);
  DeflateStatus block_done();

  Stage stage_ = Stage::kBlockHeader;
  bool final_block_ = false;
  bool fixed_tables_ = false;  // the tables hold the fixed code
  uint32_t stored_left_ = 0;
  uint32_t litlen_[kLitLenEntries];
  uint32_t distance_[kDistanceEntries];
};

}  // namespace tw::inflate
