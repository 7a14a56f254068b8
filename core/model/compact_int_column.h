// A column of int64 values in 4 bytes a row, for values that are nearly always small and
// non-negative: slice durations (below 4.29 s in ns but for a few long spans; the Kineto ids have
// their own pair column, id_pair_column.h). A trace is untrusted input: any int64, and kNoId,
// must read back exactly. A value in [0, kAbsent) is its own code; kNoId is kAbsent; any other
// (negative, 2^32 - 2 or more) is kEscaped, its value in a side table of (row, value) (side_rows.h).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tw {

constexpr int64_t kNoId = INT64_MIN;

struct CompactIntColumn {
  static constexpr uint32_t kAbsent = UINT32_MAX - 1;
  static constexpr uint32_t kEscaped = UINT32_MAX;

  std::vector<uint32_t> codes;         // one per row
  std::vector<uint32_t> escaped_rows;  // the rows coded kEscaped, ascending
  std::vector<int64_t> escaped_ids;    // their ids

  size_t size() const { return codes.size(); }
  int64_t at(size_t row) const {
    const uint32_t c = codes[row];
    return c < kAbsent ? int64_t(c) : c == kAbsent ? kNoId : escaped_at(row);
  }
  void push_back(int64_t id);
  // Rows given new values (rows strictly ascending, value i at rows[i]), in one pass over the side
  // table; set() one row.
  void set_rows(const std::vector<uint32_t>& rows, const std::vector<int64_t>& ids);
  void set(size_t row, int64_t id) { set_rows({static_cast<uint32_t>(row)}, {id}); }
  // Rows renumbered (old row -> new row) after the codes were permuted the same way.
  void renumber(const std::vector<uint32_t>& new_index);
  // True when `side`'s escaped rows, each plus `first`, are exactly the rows from `first` on coded
  // kEscaped here: a part's side table (its rows appended from `first`) is checked before it is
  // read, since a damaged part may carry anything. escapes_fit(*this, 0): this column's own.
  bool escapes_fit(const CompactIntColumn& side, size_t first) const;

  static uint32_t code_of(int64_t id) {
    return id == kNoId ? kAbsent : id >= 0 && id < kAbsent ? static_cast<uint32_t>(id) : kEscaped;
  }

  // f(column) for the side table's columns (the codes are the table's own row column).
  template <class F>
  void for_each_side_column(F&& f) {
    f(escaped_rows), f(escaped_ids);
  }
  template <class F>
  void for_each_side_column(F&& f) const {
    f(escaped_rows), f(escaped_ids);
  }

 private:
  int64_t escaped_at(size_t row) const;
};

}  // namespace tw
