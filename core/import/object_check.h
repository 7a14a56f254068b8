// ObjectCheck: finds where one JSON object ends in bytes that arrive in chunks, checking its syntax
// on the way, so a damaged event is noticed at the byte where it stops being JSON instead of
// swallowing the events after it (the splitter then resynchronises: event_splitter.cc).
//
// Strict about structure (brackets, strings, colons, commas, a line break inside a string: what
// damage looks like) and lenient about what stays inside one event: any run of letters, digits and
// + - . counts as one value (so 00012 or 1. reach the decoders, which judge and count them), as do
// escapes, other control bytes and trailing commas. Objects nested deeper than
// kCheckedDepth are only bracket-counted from there on; the decoders report them as too deep.
#pragma once
#include <cstddef>
#include <cstdint>

#include "core/base/byte_codec.h"

namespace tw {

class ObjectCheck {
 public:
  enum class Status : uint8_t { kMore, kDone, kBad };
  static constexpr int kCheckedDepth = 256;

  // Starts at the object's '{' (not yet fed).
  void reset();
  // Consumes p[0, n) up to the end of the object or the first byte that cannot belong to it.
  // Sets `used` to the bytes consumed: through the closing '}' (kDone), all of them (kMore), or up
  // to the offending byte, which is not consumed (kBad).
  Status feed(const char* p, size_t n, size_t& used);
  // Its state as bytes, with the splitter's (part_codec.cc).
  void encode(ByteWriter& w) const;
  bool decode(ByteReader& r);

 private:
  enum class S : uint8_t {
    kValue,       // a value is expected
    kKeyOrEnd,    // after '{': a key or '}'
    kKey,         // after ',' in an object: a key
    kColon,       // after a key
    kAfterValue,  // ',' or the closing bracket of the container
    kString,
    kEscape,
    kScalar,
    kDeep,  // beyond kCheckedDepth: brackets and strings only
  };
  void push(bool object);
  bool innermost_is_object() const { return (kinds_[(depth_ - 1) >> 6] >> ((depth_ - 1) & 63)) & 1; }
  Status close(char c);

  S s_ = S::kKeyOrEnd;
  bool key_ = false;                         // the string being read is an object key
  int depth_ = 0;                            // open containers, the outer object included
  uint64_t kinds_[kCheckedDepth / 64] = {};  // bit set: the container at that depth is an object
  // kDeep: nesting beyond the checked depth, and string state there.
  int64_t deep_ = 0;
  bool deep_string_ = false, deep_escape_ = false;
};

}  // namespace tw
