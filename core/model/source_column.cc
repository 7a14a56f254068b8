#include "core/model/source_column.h"

#include "core/model/side_rows.h"

namespace tw {

void SourceColumn::push_back(uint64_t offset, uint32_t length) {
  const uint64_t code = code_of(offset, length);
  if (code == kEscaped) {
    escaped_rows.push_back(static_cast<uint32_t>(codes.size()));
    escaped_offsets.push_back(offset), escaped_lengths.push_back(length);
  }
  codes.push_back(code);
}

void SourceColumn::set(size_t row, uint64_t offset, uint32_t length) {
  const uint64_t code = code_of(offset, length);
  set_side_row(escaped_rows, static_cast<uint32_t>(row), code == kEscaped, std::tuple{offset, length}, escaped_offsets,
               escaped_lengths);
  codes[row] = code;
}

void SourceColumn::renumber(const std::vector<uint32_t>& new_index) {
  renumber_side_rows(new_index, escaped_rows, escaped_offsets, escaped_lengths);
}

bool SourceColumn::escapes_fit(const SourceColumn& side, size_t first) const {
  const size_t n = side.escaped_rows.size();
  return side.escaped_offsets.size() == n && side.escaped_lengths.size() == n &&
         side_rows_fit(codes, kEscaped, side.escaped_rows, first);
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
