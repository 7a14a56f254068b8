#include "core/model/source_column.h"

#include "core/model/side_rows.h"

namespace tw {

void SourceColumn::push_back(uint64_t offset, uint32_t length) {
  const uint64_t code = code_of(offset, length);
  if (code >> 32 == kEscapedHi) {
    escaped_rows.push_back(static_cast<uint32_t>(lo.size()));
    escaped_offsets.push_back(offset), escaped_lengths.push_back(length);
  }
  lo.push_back(static_cast<uint32_t>(code)), hi.push_back(static_cast<uint16_t>(code >> 32));
}

void SourceColumn::set_rows(const std::vector<uint32_t>& rows, const std::vector<uint64_t>& offsets,
                            const std::vector<uint32_t>& lengths) {
  for (size_t i = 0; i < rows.size(); ++i) {
    const uint64_t code = code_of(offsets[i], lengths[i]);
    lo[rows[i]] = static_cast<uint32_t>(code), hi[rows[i]] = static_cast<uint16_t>(code >> 32);
  }
  set_side_rows(
      escaped_rows, rows, [&](size_t i) { return hi[rows[i]] == kEscapedHi; },
      [&](size_t i) {
        return std::tuple{offsets[i], lengths[i]};
      },
      escaped_offsets, escaped_lengths);
}

void SourceColumn::renumber(const std::vector<uint32_t>& new_index) {
  renumber_side_rows(new_index, escaped_rows, escaped_offsets, escaped_lengths);
}

bool SourceColumn::escapes_fit(const SourceColumn& side, size_t first) const {
  const size_t n = side.escaped_rows.size();
  return side.escaped_offsets.size() == n && side.escaped_lengths.size() == n &&
         side_rows_fit(hi, kEscapedHi, side.escaped_rows, first);
}

// 0 for a row with no side row: only in a table escapes_fit refuses.
uint64_t SourceColumn::escaped_offset(size_t row) const {
  const size_t k = find_side_row(escaped_rows, static_cast<uint32_t>(row));
  return k < escaped_offsets.size() ? escaped_offsets[k] : 0;
}

uint32_t SourceColumn::escaped_length(size_t row) const {
  const size_t k = find_side_row(escaped_rows, static_cast<uint32_t>(row));
  return k < escaped_lengths.size() ? escaped_lengths[k] : 0;
}

}  // namespace tw
