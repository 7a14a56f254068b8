// A gzip member's header (RFC 1952), read as its bytes arrive: the 10 fixed bytes, then FEXTRA,
// FNAME, FCOMMENT and FHCRC when the flags say so (names and comments of any length are skipped
// as they stream by). Refused as zlib refuses them: not 1f 8b, a method other than 8 (deflate),
// a reserved flag bit, a header CRC that does not match.
#pragma once
#include <cstddef>
#include <cstdint>

namespace tw::inflate {

enum class HeaderStatus { kDone, kNeedInput, kCorrupt, kTruncated };

class GzipHeaderReader {
 public:
  void reset();
  // Reads header bytes from [next, end) (`next` advances); `last`: the input has ended.
  HeaderStatus read(const uint8_t*& next, const uint8_t* end, bool last);

 private:
  enum class Stage { kFixed, kExtraLength, kExtra, kName, kComment, kHeaderCrc, kDone };
  HeaderStatus fixed(const uint8_t*& next, const uint8_t* end, bool last);
  void check(const uint8_t* p, size_t n);

  Stage stage_ = Stage::kFixed;
  uint8_t flags_ = 0;
  uint32_t extra_left_ = 0;
  uint32_t crc_ = 0;  // of the header so far, when FHCRC is set
};

}  // namespace tw::inflate
