#include "core/model/category_column.h"

#include <algorithm>

#include "core/model/side_rows.h"

namespace tw {

// A linear search: a trace has a handful of categories (a hostile one at most 255 compares a row).
uint8_t CategoryColumn::code_of(StringId id) {
  const auto it = std::find(values.begin(), values.end(), id);
  if (it != values.end()) return static_cast<uint8_t>(it - values.begin());
  if (values.size() == kEscaped) return kEscaped;
  values.push_back(id);
  return static_cast<uint8_t>(values.size() - 1);
}

void CategoryColumn::push_back(StringId id) {
  const uint8_t code = code_of(id);
  if (code == kEscaped) escaped_rows.push_back(static_cast<uint32_t>(codes.size())), escaped_ids.push_back(id);
  codes.push_back(code);
}

void CategoryColumn::set(size_t row, StringId id) {
  const uint8_t code = code_of(id);
  set_side_row(escaped_rows, static_cast<uint32_t>(row), code == kEscaped, std::tuple{id}, escaped_ids);
  codes[row] = code;
}

void CategoryColumn::renumber(const std::vector<uint32_t>& new_index) {
  renumber_side_rows(new_index, escaped_rows, escaped_ids);
}

bool CategoryColumn::part_fits(const CategoryColumn& part, size_t first, size_t strings) const {
  if (part.values.size() > kEscaped || part.escaped_ids.size() != part.escaped_rows.size()) return false;
  const auto below = [strings](StringId id) { return id < strings; };
  if (!std::all_of(part.values.begin(), part.values.end(), below) ||
      !std::all_of(part.escaped_ids.begin(), part.escaped_ids.end(), below))
    return false;
  for (size_t i = first; i < codes.size(); ++i)
    if (codes[i] != kEscaped && codes[i] >= part.values.size()) return false;
  return side_rows_fit(codes, kEscaped, part.escaped_rows, first);
}

// 0 (the empty string) for a row with no side row: only in a table part_fits refuses.
StringId CategoryColumn::escaped_at(size_t row) const {
  const size_t k = find_side_row(escaped_rows, static_cast<uint32_t>(row));
  return k < escaped_ids.size() ? escaped_ids[k] : 0;
}

}  // namespace tw
