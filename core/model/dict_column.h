// A column of 4-byte ids (string ids, track indexes) in one or two bytes a row: a trace names its
// slices with few distinct names, categories and tracks (a Kineto trace: a few hundred names, a
// handful of categories, tens of tracks), so a row holds an index into `values`, the first
// kEscaped distinct ids in the order they came. A trace is untrusted input and may have any number
// of them: a row whose id found no room is coded kEscaped and its id kept exactly in a side table
// of (row, id) (side_rows.h). CategoryColumn (a slice's "cat") codes in one byte, IdColumn (its
// name, and its track while the import fills the table) in two.
#pragma once
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace tw {

template <class Code>
struct DictColumn {
  static constexpr Code kEscaped = std::numeric_limits<Code>::max();

  std::vector<Code> codes;             // one per row
  std::vector<uint32_t> values;        // code -> id, at most kEscaped of them
  std::vector<uint32_t> escaped_rows;  // the rows coded kEscaped, ascending
  std::vector<uint32_t> escaped_ids;   // their ids

  size_t size() const { return codes.size(); }
  uint32_t at(size_t row) const {
    const Code c = codes[row];
    return c != kEscaped ? values[c] : escaped_at(row);
  }
  void push_back(uint32_t id);
  // Rows given new values (rows strictly ascending, value i at rows[i]), in one pass over the side
  // table; set() one row.
  void set_rows(const std::vector<uint32_t>& rows, const std::vector<uint32_t>& ids);
  void set(size_t row, uint32_t id) { set_rows({static_cast<uint32_t>(row)}, {id}); }
  // Rows renumbered (old row -> new row) after the codes were permuted the same way.
  void renumber(const std::vector<uint32_t>& new_index);
  // True when the rows from `first` on hold a part's codes that `part` (the part's own column:
  // its values and side table) reads back with ids below `limit`: a damaged part may carry
  // anything, so it is checked before it is read.
  bool part_fits(const DictColumn& part, size_t first, size_t limit) const;
  // The rows holding `part`'s codes (part_fits), recoded into this column's with each id renamed by
  // `rename`; the part's n rows, part row i at row_of(i) here (UINT32_MAX: a row dropped; the rows
  // kept in order).
  template <class RowOf, class Rename>
  void recode_part(const DictColumn& part, size_t n, RowOf row_of, Rename rename);
  // Every column emptied and freed (the track column, once finish() has grouped the rows).
  void release();

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
  Code code_of(uint32_t id);  // its index in values, added if there is room; else kEscaped
  uint32_t escaped_at(size_t row) const;

  // id -> its code, kEscaped where it has none: the lookup behind code_of, so that a row costs one
  // load however many values there are. Not part of the model: rebuilt from `values` whenever it
  // has fallen behind them (a column read from a part, or copied).
  std::vector<Code> code_by_id_;
  size_t indexed_ = 0;  // how many of `values` code_by_id_ holds
};

using CategoryColumn = DictColumn<uint8_t>;
using IdColumn = DictColumn<uint16_t>;

template <class Code>
template <class RowOf, class Rename>
void DictColumn<Code>::recode_part(const DictColumn& part, size_t n, RowOf row_of, Rename rename) {
  std::vector<Code> code_map(part.values.size());
  std::vector<uint32_t> renamed(part.values.size());
  for (size_t c = 0; c < part.values.size(); ++c)
    renamed[c] = rename(part.values[c]), code_map[c] = code_of(renamed[c]);
  size_t k = 0;  // the part's next escaped row
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t row = row_of(i);
    const bool part_escaped = k < part.escaped_rows.size() && part.escaped_rows[k] == i;
    const uint32_t escaped_id = part_escaped ? part.escaped_ids[k++] : 0;
    if (row == UINT32_MAX) continue;
    const Code c = codes[row];
    const uint32_t id = part_escaped ? rename(escaped_id) : renamed[c];
    const Code here = part_escaped ? code_of(id) : code_map[c];
    if (here == kEscaped) escaped_rows.push_back(row), escaped_ids.push_back(id);
    codes[row] = here;
  }
}

extern template struct DictColumn<uint8_t>;
extern template struct DictColumn<uint16_t>;

}  // namespace tw
