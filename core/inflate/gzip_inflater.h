// GzipInflater: a gzip file (every member of it) inflated as its compressed bytes arrive, in
// bounded memory (an input buffer and a 32 KB window plus an output chunk, ~2 MB by default,
// whatever the file). Pull-style, so a binding needs no callbacks and no copies: the caller writes
// compressed bytes into the inflater's own input buffer (input_space + commit_input, or push),
// then calls inflate() until it returns an empty span; each span lies in the inflater's output
// buffer (after the window of the bytes before it) and stays valid until the next call.
//
// Damage is the CLI's and the page's (web/load/input/gzip_damage.ts): a member whose CRC-32 or
// size trailer is wrong keeps all its data, is reported as trailer damage of that member, and the
// next member is read; input that ends inside a member is truncated; invalid deflate data, or
// anything but a gzip header where a member should start, is corrupt: nothing after it is inflated.
// What was inflated before the damage is always handed out.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/inflate/bit_reader.h"
#include "core/inflate/deflate_decoder.h"
#include "core/inflate/gzip_header.h"

namespace tw::inflate {

struct GzipDamage {
  enum class Kind { kTrailer, kTruncated, kCorrupt };
  Kind kind;
  int member;  // 1-based: the member it was found in
};

class GzipInflater {
 public:
  static constexpr size_t kWindowBytes = 32 << 10;

  explicit GzipInflater(size_t input_bytes = size_t(1) << 20, size_t output_bytes = size_t(1) << 20);

  // Free room at the end of the input buffer, never empty while inflate() wants input; write
  // compressed bytes there and commit them.
  std::span<uint8_t> input_space();
  void commit_input(size_t n);
  // Copies up to n bytes into the input buffer; returns how many it took (call inflate() for room).
  size_t push(const uint8_t* p, size_t n);
  // No more input: the rest is inflated to its end, a member cut short is truncated.
  void end_input();

  // The next inflated bytes; empty when all the input so far is used (or the inflation ended).
  std::span<const uint8_t> inflate();

  // Done (end_input() and every member read) or stopped at damage: inflate() gives nothing more.
  bool finished() const { return stage_ == Stage::kFinished; }
  // In the order found.
  const std::vector<GzipDamage>& damage() const { return damage_; }
  int members() const { return member_; }  // started so far
  // Compressed bytes used so far (committed, less what waits in the input buffer and whole bytes
  // in the bit buffer): with the output so far, the file's compression ratio up to here.
  uint64_t input_used() const;

 private:
  enum class Stage { kBetweenMembers, kHeader, kDeflate, kTrailerCrc, kTrailerSkip, kTrailerSize, kFinished };
  void run();
  // The trailer's next 4 bytes; false when they have not arrived (at the end of the input: truncated).
  bool trailer_word(uint32_t& v);
  void account();  // CRC and size of the output since the last call
  void stop(GzipDamage::Kind kind);
  void slide_window();

  std::vector<uint8_t> input_;
  uint64_t committed_ = 0;       // every byte committed to the input buffer
  std::vector<uint8_t> output_;  // the window, then the room for one inflate()'s output
  BitReader br_;                 // br_.next / br_.end: the input not used yet
  bool last_ = false;
  Stage stage_ = Stage::kBetweenMembers;
  int member_ = 0;
  GzipHeaderReader header_;
  DeflateDecoder deflate_;
  uint8_t* out_ = nullptr;
  size_t window_lo_ = 0;  // offset in output_ of the member's first byte still kept
  uint8_t* accounted_ = nullptr;
  uint32_t crc_ = 0;
  uint32_t size_ = 0;  // the member's size modulo 2^32
  unsigned skip_ = 0;  // bytes of a wrong trailer still to pass over
  std::vector<GzipDamage> damage_;
};

}  // namespace tw::inflate
