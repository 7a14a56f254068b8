// Side tables: values that only a few rows of a table have, or that do not fit its column, kept
// beside it keyed by row (ascending), so that the other rows pay nothing for them. The keys follow
// the table's rows when they are reordered (finalize.cc) or appended from a part (absorb_part.cc).
#pragma once
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <tuple>
#include <type_traits>
#include <vector>

#include "core/model/permute.h"

namespace tw {

// The index of `row` in `rows` (ascending), or rows.size() when it has no side row. Keys are
// rows, or any other unique ascending key (a flow endpoint's input offset: FlowTimes).
template <typename Key>
size_t find_side_row(const std::vector<Key>& rows, std::type_identity_t<Key> row) {
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

// Rows' codes set anew (the set() of a column whose codes escape to a side table), `set` strictly
// ascending: row set[i]'s side row holds value(i) (a tuple, one value per side column) when
// escaped(i), and is gone when not. One merge of the table from the first row set on: an insert
// per row would move the rest of the table each time, and a hostile file can pair a million B's
// open across a part's cut (absorb_part.cc).
template <typename Escaped, typename Value, typename... Col>
void set_side_rows(std::vector<uint32_t>& rows, const std::vector<uint32_t>& set, Escaped escaped, Value value,
                   std::vector<Col>&... cols) {
  if (set.empty()) return;
  const auto from = static_cast<ptrdiff_t>(std::lower_bound(rows.begin(), rows.end(), set.front()) - rows.begin());
  const std::vector<uint32_t> tail(rows.begin() + from, rows.end());
  const std::tuple<std::vector<Col>...> tail_cols{std::vector<Col>(cols.begin() + from, cols.end())...};
  rows.resize(static_cast<size_t>(from)), (cols.resize(static_cast<size_t>(from)), ...);
  size_t t = 0;
  const auto keep_tail = [&] {
    rows.push_back(tail[t]);
    std::apply([&](const std::vector<Col>&... tc) { (cols.push_back(tc[t]), ...); }, tail_cols);
    ++t;
  };
  for (size_t i = 0; i < set.size(); ++i) {
    while (t < tail.size() && tail[t] < set[i]) keep_tail();
    if (t < tail.size() && tail[t] == set[i]) ++t;  // its old side row
    if (!escaped(i)) continue;
    rows.push_back(set[i]);
    std::apply([&](const Col&... v) { (cols.push_back(v), ...); }, value(i));
  }
  while (t < tail.size()) keep_tail();
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
