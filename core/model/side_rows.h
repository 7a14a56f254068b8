// Side tables: values that only a few rows of a table have, or that do not fit its column, kept
// beside it keyed by row (ascending), so that the other rows pay nothing for them. The keys follow
// the table's rows when they are reordered (finalize.cc) or appended from a part (absorb_part.cc).
#pragma once
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <tuple>
#include <vector>

#include "core/model/permute.h"

namespace tw {

// The index of `row` in `rows` (ascending), or rows.size() when it has no side row.
inline size_t find_side_row(const std::vector<uint32_t>& rows, uint32_t row) {
  auto it = std::lower_bound(rows.begin(), rows.end(), row);
  return it != rows.end() && *it == row ? static_cast<size_t>(it - rows.begin()) : rows.size();
}

// The keys renumbered by new_index (old row -> new row, as permute_columns leaves its order), and
// the side rows (keys and `cols`, one value per key) sorted by them again.
template <typename... Col>
void renumber_side_rows(const std::vector<uint32_t>& new_index, std::vector<uint32_t>& rows, Col&... cols) {
  for (uint32_t& r : rows) r = new_index[r];
  if (std::is_sorted(rows.begin(), rows.end())) return;
  std::vector<uint32_t> order(rows.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&rows](uint32_t a, uint32_t b) { return rows[a] < rows[b]; });
  permute_columns(order, rows, cols...);
}

// True when the keys ascend strictly and are below `n_rows`: a side table a damaged part may
// carry is refused before its keys index anything.
inline bool side_rows_valid(const std::vector<uint32_t>& rows, size_t n_rows) {
  for (size_t k = 0; k < rows.size(); ++k)
    if (rows[k] >= n_rows || (k && rows[k - 1] >= rows[k])) return false;
  return true;
}

// A row's code set anew (the set() of a column whose codes escape to a side table): its side row
// holds `values` (one per side column) when the new code is escaped, and is gone when it is not.
template <typename... Col>
void set_side_row(std::vector<uint32_t>& rows, uint32_t row, bool escaped, const std::tuple<Col...>& values,
                  std::vector<Col>&... cols) {
  const auto it = std::lower_bound(rows.begin(), rows.end(), row);
  const size_t k = static_cast<size_t>(it - rows.begin());
  const bool present = it != rows.end() && *it == row;
  const auto at = [k](auto& col) { return col.begin() + static_cast<ptrdiff_t>(k); };
  if (escaped && present) {
    std::apply([&](const Col&... v) { ((cols[k] = v), ...); }, values);
  } else if (escaped) {
    rows.insert(it, row);
    std::apply([&](const Col&... v) { (cols.insert(at(cols), v), ...); }, values);
  } else if (present) {
    rows.erase(it);
    (cols.erase(at(cols)), ...);
  }
}

// True when `rows` (a part's side keys), each plus `first`, are exactly the rows from `first` on
// coded `escaped` in `codes`: a part's side table is checked before it is read, since a damaged
// part may carry anything.
// (side_rows_fit_if: the rows whose code satisfies `keyed`, for a column with several such codes.)
template <typename Code, typename Keyed>
bool side_rows_fit_if(const std::vector<Code>& codes, Keyed keyed, const std::vector<uint32_t>& rows, size_t first) {
  if (first > codes.size() || !side_rows_valid(rows, codes.size() - first)) return false;
  for (uint32_t r : rows)
    if (!keyed(codes[first + r])) return false;
  return static_cast<size_t>(std::count_if(codes.begin() + static_cast<ptrdiff_t>(first), codes.end(), keyed)) ==
         rows.size();
}
template <typename Code>
bool side_rows_fit(const std::vector<Code>& codes, Code escaped, const std::vector<uint32_t>& rows, size_t first) {
  return side_rows_fit_if(
      codes, [escaped](Code c) { return c == escaped; }, rows, first);
}

}  // namespace tw
