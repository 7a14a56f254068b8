#include "core/model/compact_int_column.h"

#include <algorithm>

#include "core/model/side_rows.h"

namespace tw {

void CompactIntColumn::push_back(int64_t id) {
  const uint32_t code = code_of(id);
  if (code == kEscaped) escaped_rows.push_back(static_cast<uint32_t>(codes.size())), escaped_ids.push_back(id);
  codes.push_back(code);
}

void CompactIntColumn::set_rows(const std::vector<uint32_t>& rows, const std::vector<int64_t>& ids) {
  for (size_t i = 0; i < rows.size(); ++i) codes[rows[i]] = code_of(ids[i]);
  set_side_rows(
      escaped_rows, rows, [&](size_t i) { return codes[rows[i]] == kEscaped; },
      [&](size_t i) { return std::tuple{ids[i]}; }, escaped_ids);
}

void CompactIntColumn::renumber(const std::vector<uint32_t>& new_index) {
  renumber_side_rows(new_index, escaped_rows, escaped_ids);
}

bool CompactIntColumn::escapes_fit(const CompactIntColumn& side, size_t first) const {
  return side.escaped_rows.size() == side.escaped_ids.size() &&
         side_rows_fit(codes, kEscaped, side.escaped_rows, first);
}

int64_t CompactIntColumn::escaped_at(size_t row) const {
  const size_t k = find_side_row(escaped_rows, static_cast<uint32_t>(row));
  return k < escaped_ids.size() ? escaped_ids[k] : kNoId;  // kNoId: only for a table escapes_fit refuses
}

}  // namespace tw
