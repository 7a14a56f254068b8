// Where each row's event lies in the input, in 6 bytes a row: a 48-bit code, its low 32 bits in
// `lo` and its high 16 in `hi`, with the event's byte offset in the high 36 bits and its length in
// the low 12 (4 KiB), the bytes the details of a slice are re-read from. Kineto's events are a few
// hundred bytes (none of 4 KiB in either 1 GB trace here), and 6 bytes, not 8, are 2 of the ~26 a
// slice costs. An event of 4 KiB or more, or one from just under 64 GiB on, is coded escaped (`hi`
// all ones, which no fitting offset reaches) and kept exactly in a side table of (row, offset,
// length) (side_rows.h): a trace is untrusted input, and no event may lose its source. An escaped
// row costs 16 bytes beside its 6, against at least 4 KiB of input.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tw {

struct SourceColumn {
  static constexpr int kLengthBits = 12;
  static constexpr uint32_t kLengthLimit = uint32_t(1) << kLengthBits;  // the first length that escapes
  static constexpr uint16_t kEscapedHi = UINT16_MAX;                    // `hi` of an escaped row
  // The first offset that escapes: every fitting one has a `hi` below kEscapedHi.
  static constexpr uint64_t kOffsetLimit = uint64_t(kEscapedHi) << (32 - kLengthBits);

  std::vector<uint32_t> lo;               // one per row: the code's low 32 bits
  std::vector<uint16_t> hi;               // and its high 16
  std::vector<uint32_t> escaped_rows;     // the rows whose `hi` is kEscapedHi, ascending
  std::vector<uint64_t> escaped_offsets;  // their offsets
  std::vector<uint32_t> escaped_lengths;  // and lengths

  size_t size() const { return lo.size(); }
  uint64_t offset_at(size_t row) const {
    return hi[row] != kEscapedHi ? code_at(row) >> kLengthBits : escaped_offset(row);
  }
  uint32_t length_at(size_t row) const {
    return hi[row] != kEscapedHi ? lo[row] & (kLengthLimit - 1) : escaped_length(row);
  }
  void push_back(uint64_t offset, uint32_t length);
  // Rows given new values (rows strictly ascending, value i at rows[i]), in one pass over the side
  // table; set() one row.
  void set_rows(const std::vector<uint32_t>& rows, const std::vector<uint64_t>& offsets,
                const std::vector<uint32_t>& lengths);
  void set(size_t row, uint64_t offset, uint32_t length) { set_rows({static_cast<uint32_t>(row)}, {offset}, {length}); }
  // Rows renumbered (old row -> new row) after the codes were permuted the same way.
  void renumber(const std::vector<uint32_t>& new_index);
  // True when `side`'s escaped rows, each plus `first`, are exactly the rows from `first` on coded
  // escaped here (as CompactIntColumn::escapes_fit: a damaged part is refused before it is read).
  bool escapes_fit(const SourceColumn& side, size_t first) const;

  static bool fits(uint64_t offset, uint32_t length) { return offset < kOffsetLimit && length < kLengthLimit; }
  // The 48-bit code of a range: `hi` (its top 16 bits) kEscapedHi and `lo` 0 for one that does not fit.
  static uint64_t code_of(uint64_t offset, uint32_t length) {
    return fits(offset, length) ? offset << kLengthBits | length : uint64_t(kEscapedHi) << 32;
  }

  template <class F>
  void for_each_side_column(F&& f) {
    f(escaped_rows), f(escaped_offsets), f(escaped_lengths);
  }
  template <class F>
  void for_each_side_column(F&& f) const {
    f(escaped_rows), f(escaped_offsets), f(escaped_lengths);
  }

 private:
  uint64_t code_at(size_t row) const { return uint64_t(hi[row]) << 32 | lo[row]; }
  uint64_t escaped_offset(size_t row) const;
  uint32_t escaped_length(size_t row) const;
};

}  // namespace tw
