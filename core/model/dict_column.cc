#include "core/model/dict_column.h"

#include <algorithm>

#include "core/model/side_rows.h"

namespace tw {

template <class Code>
Code DictColumn<Code>::code_of(uint32_t id) {
  if (indexed_ != values.size()) {
    code_by_id_.clear();
    for (size_t c = 0; c < values.size(); ++c) {
      if (values[c] >= code_by_id_.size()) code_by_id_.resize(size_t(values[c]) + 1, kEscaped);
      code_by_id_[values[c]] = static_cast<Code>(c);
    }
    indexed_ = values.size();
  }
  if (id < code_by_id_.size() && code_by_id_[id] != kEscaped) return code_by_id_[id];
  if (values.size() == kEscaped) return kEscaped;
  if (id >= code_by_id_.size()) code_by_id_.resize(size_t(id) + 1, kEscaped);
  code_by_id_[id] = static_cast<Code>(values.size());
  values.push_back(id);
  indexed_ = values.size();
  return code_by_id_[id];
}

template <class Code>
void DictColumn<Code>::push_back(uint32_t id) {
  const Code code = code_of(id);
  if (code == kEscaped) escaped_rows.push_back(static_cast<uint32_t>(codes.size())), escaped_ids.push_back(id);
  codes.push_back(code);
}

template <class Code>
void DictColumn<Code>::set_rows(const std::vector<uint32_t>& rows, const std::vector<uint32_t>& ids) {
  for (size_t i = 0; i < rows.size(); ++i) codes[rows[i]] = code_of(ids[i]);
  set_side_rows(
      escaped_rows, rows, [&](size_t i) { return codes[rows[i]] == kEscaped; },
      [&](size_t i) { return std::tuple{ids[i]}; }, escaped_ids);
}

template <class Code>
void DictColumn<Code>::renumber(const std::vector<uint32_t>& new_index) {
  renumber_side_rows(new_index, escaped_rows, escaped_ids);
}

template <class Code>
bool DictColumn<Code>::part_fits(const DictColumn& part, size_t first, size_t limit) const {
  if (part.values.size() > kEscaped || part.escaped_ids.size() != part.escaped_rows.size()) return false;
  const auto below = [limit](uint32_t id) { return id < limit; };
  if (!std::all_of(part.values.begin(), part.values.end(), below) ||
      !std::all_of(part.escaped_ids.begin(), part.escaped_ids.end(), below))
    return false;
  for (size_t i = first; i < codes.size(); ++i)
    if (codes[i] != kEscaped && codes[i] >= part.values.size()) return false;
  return side_rows_fit(codes, kEscaped, part.escaped_rows, first);
}

template <class Code>
void DictColumn<Code>::release() {
  *this = DictColumn();
}

// 0 for a row with no side row: only in a table part_fits refuses.
template <class Code>
uint32_t DictColumn<Code>::escaped_at(size_t row) const {
  const size_t k = find_side_row(escaped_rows, static_cast<uint32_t>(row));
  return k < escaped_ids.size() ? escaped_ids[k] : 0;
}

template struct DictColumn<uint8_t>;
template struct DictColumn<uint16_t>;

}  // namespace tw
