// A slice's category ("cat") in one byte a row instead of a 4-byte string id: a trace names nearly
// every event with a few categories (Kineto: cpu_op, cuda_runtime, kernel, ...), so a row holds an
// index into `values`, the first 255 distinct ids in the order they came. A trace is untrusted
// input and may use any number of categories: a row whose id found no room is coded kEscaped and
// its id kept exactly in a side table of (row, id) (side_rows.h).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/base/string_pool.h"

namespace tw {

struct CategoryColumn {
  static constexpr uint8_t kEscaped = 255;

  std::vector<uint8_t> codes;          // one per row
  std::vector<StringId> values;        // code -> id, at most kEscaped of them
  std::vector<uint32_t> escaped_rows;  // the rows coded kEscaped, ascending
  std::vector<StringId> escaped_ids;   // their ids

  size_t size() const { return codes.size(); }
  StringId at(size_t row) const {
    const uint8_t c = codes[row];
    return c != kEscaped ? values[c] : escaped_at(row);
  }
  void push_back(StringId id);
  void set(size_t row, StringId id);
  // Rows renumbered (old row -> new row) after the codes were permuted the same way.
  void renumber(const std::vector<uint32_t>& new_index);
  // True when the rows from `first` on hold a part's codes that `part` (the part's own column:
  // its values and side table) reads back with ids below `strings`: a damaged part may carry
  // anything, so it is checked before it is read.
  bool part_fits(const CategoryColumn& part, size_t first, size_t strings) const;
  // The rows holding `part`'s codes (part_fits), recoded into this column's with each id renamed by
  // `rename`; the part's n rows, part row i at row_of(i) here (UINT32_MAX: a row dropped; the rows
  // kept in order).
  template <class RowOf, class Rename>
  void recode_part(const CategoryColumn& part, size_t n, RowOf row_of, Rename rename);

  // f(column) for the dictionary and the side table (the codes are the table's own row column).
  template <class F>
  void for_each_side_column(F&& f) {
    f(values), f(escaped_rows), f(escaped_ids);
  }
  template <class F>
  void for_each_side_column(F&& f) const {
    f(values), f(escaped_rows), f(escaped_ids);
  }

 private:
  uint8_t code_of(StringId id);  // its index in values, added if there is room; else kEscaped
  StringId escaped_at(size_t row) const;
};

template <class RowOf, class Rename>
void CategoryColumn::recode_part(const CategoryColumn& part, size_t n, RowOf row_of, Rename rename) {
  std::vector<uint8_t> code_map(part.values.size());
  std::vector<StringId> renamed(part.values.size());
  for (size_t c = 0; c < part.values.size(); ++c)
    renamed[c] = rename(part.values[c]), code_map[c] = code_of(renamed[c]);
  size_t k = 0;  // the part's next escaped row
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t row = row_of(i);
    const bool part_escaped = k < part.escaped_rows.size() && part.escaped_rows[k] == i;
    const StringId escaped_id = part_escaped ? part.escaped_ids[k++] : 0;
    if (row == UINT32_MAX) continue;
    const uint8_t c = codes[row];
    const StringId id = part_escaped ? rename(escaped_id) : renamed[c];
    const uint8_t here = part_escaped ? code_of(id) : code_map[c];
    if (here == kEscaped) escaped_rows.push_back(row), escaped_ids.push_back(id);
    codes[row] = here;
  }
}

}  // namespace tw
