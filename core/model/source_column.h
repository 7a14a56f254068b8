// Where each row's event lies in the input, in 8 bytes a row: its byte offset in the high 40 bits
// (1 TiB) and its length in the low 24 (16 MiB), the bytes the details of a slice are re-read from.
// An event of 16 MiB - 1 or more, or one past 1 TiB, is coded kEscaped and kept exactly in a side
// table of (row, offset, length) (side_rows.h): a trace is untrusted input, and no event may lose
// its source.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tw {

struct SourceColumn {
  static constexpr int kLengthBits = 24;
  static constexpr uint64_t kLengthMask = (uint64_t(1) << kLengthBits) - 1;  // a length of all ones: escaped
  static constexpr uint64_t kOffsetLimit = uint64_t(1) << (64 - kLengthBits);
  static constexpr uint64_t kEscaped = UINT64_MAX;

  std::vector<uint64_t> codes;            // one per row
  std::vector<uint32_t> escaped_rows;     // the rows coded kEscaped, ascending
  std::vector<uint64_t> escaped_offsets;  // their offsets
  std::vector<uint32_t> escaped_lengths;  // and lengths

  size_t size() const { return codes.size(); }
  uint64_t offset_at(size_t row) const {
    const uint64_t c = codes[row];
    return c != kEscaped ? c >> kLengthBits : escaped_offset(row);
  }
  uint32_t length_at(size_t row) const {
    const uint64_t c = codes[row];
    return c != kEscaped ? static_cast<uint32_t>(c & kLengthMask) : escaped_length(row);
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
  // kEscaped here (as CompactIntColumn::escapes_fit: a damaged part is refused before it is read).
  bool escapes_fit(const SourceColumn& side, size_t first) const;

  static uint64_t code_of(uint64_t offset, uint32_t length) {
    return offset < kOffsetLimit && length < kLengthMask ? offset << kLengthBits | length : kEscaped;
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
  uint64_t escaped_offset(size_t row) const;
  uint32_t escaped_length(size_t row) const;
};

}  // namespace tw
