#include "core/inflate/gzip_inflater.h"

#include <algorithm>
#include <cstring>

#include "core/inflate/crc32.h"

namespace tw::inflate {

GzipInflater::GzipInflater(size_t input_bytes, size_t output_bytes)
    : input_(std::max<size_t>(input_bytes, 4 * kMaxHeaderBytes)),
      output_(kWindowBytes + std::max<size_t>(output_bytes, 4096)) {
  br_.next = br_.end = input_.data();
  out_ = accounted_ = output_.data();
}

std::span<uint8_t> GzipInflater::input_space() {
  uint8_t* const begin = input_.data();
  if (br_.next != begin) {
    const size_t left = br_.end - br_.next;
    std::memmove(begin, br_.next, left);
    br_.next = begin;
    br_.end = begin + left;
  }
  uint8_t* const tail = begin + (br_.end - begin);
  return {tail, input_.size() - static_cast<size_t>(tail - begin)};
}

void GzipInflater::commit_input(size_t n) {
  const size_t room = input_.size() - static_cast<size_t>(br_.end - input_.data());
  br_.end += std::min(n, room);
  committed_ += std::min(n, room);
}

uint64_t GzipInflater::input_used() const {
  // (The bit buffer may hold zero bytes past the end of the last input: never below 0.)
  const uint64_t waiting = static_cast<uint64_t>(br_.end - br_.next) + br_.count / 8;
  return committed_ > waiting ? committed_ - waiting : 0;
}

size_t GzipInflater::push(const uint8_t* p, size_t n) {
  if (last_ || finished()) return n;  // nothing more is read: the bytes are dropped
  const std::span<uint8_t> room = input_space();
  const size_t take = std::min(n, room.size());
  if (take) std::memcpy(room.data(), p, take);
  commit_input(take);
  return take;
}

void GzipInflater::end_input() { last_ = true; }

void GzipInflater::slide_window() {
  uint8_t* const begin = output_.data();
  const size_t used = out_ - begin;
  if (used <= kWindowBytes) return;
  const size_t shift = used - kWindowBytes;
  std::memmove(begin, out_ - kWindowBytes, kWindowBytes);
  out_ -= shift;
  window_lo_ = window_lo_ > shift ? window_lo_ - shift : 0;
}

void GzipInflater::account() {
  const size_t n = out_ - accounted_;
  crc_ = crc32(crc_, accounted_, n);
  size_ += static_cast<uint32_t>(n);
  accounted_ = out_;
}

void GzipInflater::stop(GzipDamage::Kind kind) {
  damage_.push_back({kind, member_});
  stage_ = Stage::kFinished;
}

std::span<const uint8_t> GzipInflater::inflate() {
  if (finished()) return {};
  slide_window();
  uint8_t* const start = out_;
  accounted_ = out_;
  run();
  account();
  // The bytes the bit reader holds go back to the input buffer, which may be compacted next.
  if (stage_ == Stage::kDeflate) br_.unread_bytes();
  return {start, static_cast<size_t>(out_ - start)};
}

bool GzipInflater::trailer_word(uint32_t& v) {
  if (br_.end - br_.next < 4) {
    if (last_) stop(GzipDamage::Kind::kTruncated);
    return false;
  }
  const uint8_t* p = br_.next;
  v = p[0] | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
  br_.next += 4;
  return true;
}

void GzipInflater::run() {
  uint8_t* const limit = output_.data() + output_.size();
  for (;;) {
    switch (stage_) {
      case Stage::kBetweenMembers:
        if (br_.next == br_.end) {
          // Input without a single member is cut short too (as zlib sees it).
          if (last_) member_ == 0 ? stop(GzipDamage::Kind::kTruncated) : void(stage_ = Stage::kFinished);
          return;
        }
        ++member_;
        header_.reset();
        stage_ = Stage::kHeader;
        break;
      case Stage::kHeader:
        switch (header_.read(br_.next, br_.end, last_)) {
          case HeaderStatus::kNeedInput: return;
          case HeaderStatus::kCorrupt: return stop(GzipDamage::Kind::kCorrupt);
          case HeaderStatus::kTruncated: return stop(GzipDamage::Kind::kTruncated);
          case HeaderStatus::kDone: break;
        }
        deflate_.reset();
        br_.bits = 0;
        br_.count = br_.phantom = 0;
        account();
        crc_ = size_ = 0;
        window_lo_ = out_ - output_.data();
        stage_ = Stage::kDeflate;
        break;
      case Stage::kDeflate:
        switch (deflate_.decode(br_, last_, out_, limit, output_.data() + window_lo_)) {
          case DeflateStatus::kNeedInput:
          case DeflateStatus::kOutputFull: return;
          case DeflateStatus::kCorrupt: return stop(GzipDamage::Kind::kCorrupt);
          case DeflateStatus::kTruncated: return stop(GzipDamage::Kind::kTruncated);
          case DeflateStatus::kEnd: break;
        }
        br_.align_to_byte();
        br_.unread_bytes();
        account();
        stage_ = Stage::kTrailerCrc;
        break;
      case Stage::kTrailerCrc: {
        uint32_t crc = 0;
        if (!trailer_word(crc)) return;
        if (crc != crc_) {
          // zlib stops at a wrong CRC-32 without reading the size: its 4 bytes are passed over.
          damage_.push_back({GzipDamage::Kind::kTrailer, member_});
          skip_ = 4;
          stage_ = Stage::kTrailerSkip;
        } else {
          stage_ = Stage::kTrailerSize;
        }
        break;
      }
      case Stage::kTrailerSkip: {
        const unsigned n = static_cast<unsigned>(std::min<size_t>(skip_, br_.end - br_.next));
        br_.next += n;
        skip_ -= n;
        if (skip_ > 0 && !last_) return;
        stage_ = Stage::kBetweenMembers;
        break;
      }
      case Stage::kTrailerSize: {
        uint32_t size = 0;
        if (!trailer_word(size)) return;
        if (size != size_) damage_.push_back({GzipDamage::Kind::kTrailer, member_});
        stage_ = Stage::kBetweenMembers;
        break;
      }
      case Stage::kFinished: return;
    }
  }
}

}  // namespace tw::inflate
