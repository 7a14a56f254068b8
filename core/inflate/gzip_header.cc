#include "core/inflate/gzip_header.h"

#include <algorithm>
#include <cstring>

#include "core/inflate/crc32.h"

namespace tw::inflate {

namespace {

constexpr uint8_t kFlagHeaderCrc = 0x02, kFlagExtra = 0x04, kFlagName = 0x08, kFlagComment = 0x10;
constexpr uint8_t kReservedFlags = 0xe0;
constexpr unsigned kFixedBytes = 10;

}  // namespace

void GzipHeaderReader::reset() {
  stage_ = Stage::kFixed;
  flags_ = 0;
  extra_left_ = 0;
  crc_ = 0;
}

void GzipHeaderReader::check(const uint8_t* p, size_t n) {
  if (flags_ & kFlagHeaderCrc) crc_ = crc32(crc_, p, n);
}

HeaderStatus GzipHeaderReader::fixed(const uint8_t*& next, const uint8_t* end, bool last) {
  const size_t have = end - next;
  // zlib looks at the magic once 2 bytes are there, at the method and flags once 4 are.
  if (have >= 2 && (next[0] != 0x1f || next[1] != 0x8b)) return HeaderStatus::kCorrupt;
  if (have >= 4 && (next[2] != 8 || (next[3] & kReservedFlags))) return HeaderStatus::kCorrupt;
  if (have < kFixedBytes) return last ? HeaderStatus::kTruncated : HeaderStatus::kNeedInput;
  flags_ = next[3];
  check(next, kFixedBytes);
  next += kFixedBytes;
  stage_ = Stage::kExtraLength;
  return HeaderStatus::kDone;
}

HeaderStatus GzipHeaderReader::read(const uint8_t*& next, const uint8_t* end, bool last) {
  const HeaderStatus wait = last ? HeaderStatus::kTruncated : HeaderStatus::kNeedInput;
  for (;;) {
    switch (stage_) {
      case Stage::kFixed: {
        const HeaderStatus s = fixed(next, end, last);
        if (s != HeaderStatus::kDone) return s;
        break;
      }
      case Stage::kExtraLength:
        if (!(flags_ & kFlagExtra)) {
          stage_ = Stage::kName;
          break;
        }
        if (end - next < 2) return wait;
        extra_left_ = next[0] | uint32_t(next[1]) << 8;
        check(next, 2);
        next += 2;
        stage_ = Stage::kExtra;
        break;
      case Stage::kExtra: {
        const size_t n = std::min<size_t>(extra_left_, end - next);
        check(next, n);
        next += n;
        extra_left_ -= static_cast<uint32_t>(n);
        if (extra_left_ > 0) return wait;
        stage_ = Stage::kName;
        break;
      }
      case Stage::kName:
      case Stage::kComment: {
        const bool name = stage_ == Stage::kName;
        if (flags_ & (name ? kFlagName : kFlagComment)) {
          const auto* zero = static_cast<const uint8_t*>(std::memchr(next, 0, end - next));
          const uint8_t* stop = zero ? zero + 1 : end;
          check(next, stop - next);
          next = stop;
          if (!zero) return wait;
        }
        stage_ = name ? Stage::kComment : Stage::kHeaderCrc;
        break;
      }
      case Stage::kHeaderCrc:
        if (flags_ & kFlagHeaderCrc) {
          if (end - next < 2) return wait;
          const uint32_t stored = next[0] | uint32_t(next[1]) << 8;
          next += 2;
          if (stored != (crc_ & 0xffff)) return HeaderStatus::kCorrupt;
        }
        stage_ = Stage::kDone;
        break;
      case Stage::kDone: return HeaderStatus::kDone;
    }
  }
}

}  // namespace tw::inflate
