#include "core/model/id_column.h"

#include <algorithm>

#include "core/model/side_rows.h"

namespace tw {

void IdColumn::push_back(int64_t id) {
  const uint32_t code = code_of(id);
  if (code == kEscaped) escaped_rows.push_back(static_cast<uint32_t>(codes.size())), escaped_ids.push_back(id);
  codes.push_back(code);
}

void IdColumn::set(size_t row, int64_t id) {
  const uint32_t code = code_of(id);
  const auto at = std::lower_bound(escaped_rows.begin(), escaped_rows.end(), static_cast<uint32_t>(row));
  const size_t k = static_cast<size_t>(at - escaped_rows.begin());
  const bool had = codes[row] == kEscaped && at != escaped_rows.end() && *at == row;
  if (code == kEscaped && had) {
    escaped_ids[k] = id;
  } else if (code == kEscaped) {
    escaped_rows.insert(at, static_cast<uint32_t>(row));
    escaped_ids.insert(escaped_ids.begin() + static_cast<ptrdiff_t>(k), id);
  } else if (had) {
    escaped_rows.erase(at);
    escaped_ids.erase(escaped_ids.begin() + static_cast<ptrdiff_t>(k));
  }
  codes[row] = code;
}

void IdColumn::renumber(const std::vector<uint32_t>& new_index) {
  renumber_side_rows(new_index, escaped_rows, escaped_ids);
}

bool IdColumn::escapes_fit(const IdColumn& side, size_t first) const {
  const std::vector<uint32_t>& rows = side.escaped_rows;
  if (first > codes.size() || rows.size() != side.escaped_ids.size()) return false;
  if (!side_rows_valid(rows, codes.size() - first)) return false;
  for (uint32_t r : rows)
    if (codes[first + r] != kEscaped) return false;
  return static_cast<size_t>(std::count(codes.begin() + static_cast<ptrdiff_t>(first), codes.end(), kEscaped)) ==
         rows.size();
}

int64_t IdColumn::escaped_at(size_t row) const {
  const size_t k = find_side_row(escaped_rows, static_cast<uint32_t>(row));
  return k < escaped_ids.size() ? escaped_ids[k] : kNoId;  // kNoId: only for a table escapes_fit refuses
}

}  // namespace tw
