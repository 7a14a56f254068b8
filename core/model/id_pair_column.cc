#include "core/model/id_pair_column.h"

#include <algorithm>
#include <bit>
#include <tuple>

#include "core/model/side_rows.h"

namespace tw {

namespace {

bool fits_code(int64_t id) { return id >= 0 && id < IdPairColumn::kAbsentId; }

uint32_t shaped(IdPairColumn::Shape shape, int64_t id) {
  return uint32_t(shape) << IdPairColumn::kShapeShift | static_cast<uint32_t>(id);
}

}  // namespace

uint32_t IdPairColumn::code_of(int64_t correlation, int64_t external_id, uint32_t& second) {
  if (correlation == kNoId) {
    if (external_id == kNoId) return shaped(kExternal, kAbsentId);
    return fits_code(external_id) ? shaped(kExternal, external_id) : kEscaped;
  }
  if (!fits_code(correlation)) return kEscaped;
  if (external_id == kNoId) return shaped(kCorrelation, correlation);
  if (external_id == correlation) return shaped(kSame, correlation);
  if (external_id < 0 || external_id > int64_t(UINT32_MAX)) return kEscaped;
  second = static_cast<uint32_t>(external_id);
  return shaped(kDiffer, correlation);
}

void IdPairColumn::push_back(int64_t correlation, int64_t external_id) {
  uint32_t second = 0;
  const uint32_t code = code_of(correlation, external_id, second);
  const auto row = static_cast<uint32_t>(codes.size());
  if (code == kEscaped)
    escaped_rows.push_back(row), escaped_correlations.push_back(correlation),
        escaped_external_ids.push_back(external_id);
  else if (is_differ(code)) second_rows.push_back(row), second_ids.push_back(second);
  codes.push_back(code);
}

void IdPairColumn::set_rows(const std::vector<uint32_t>& rows, const std::vector<int64_t>& correlations,
                            const std::vector<int64_t>& external_ids) {
  std::vector<uint32_t> seconds(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) codes[rows[i]] = code_of(correlations[i], external_ids[i], seconds[i]);
  const auto code = [&](size_t i) { return codes[rows[i]]; };
  set_side_rows(
      second_rows, rows, [&](size_t i) { return is_differ(code(i)); }, [&](size_t i) { return std::tuple{seconds[i]}; },
      second_ids);
  set_side_rows(
      escaped_rows, rows, [&](size_t i) { return code(i) == kEscaped; },
      [&](size_t i) {
        return std::tuple{correlations[i], external_ids[i]};
      },
      escaped_correlations, escaped_external_ids);
}

// The kDiffer rows may be a large share (a trace whose runtime calls and kernels have two ids), so
// their side table is not sorted anew: each id goes to its row's rank among the kDiffer codes, which
// are permuted already (the count of them before it: a prefix count per 64 rows, and the rows of
// its 64 that are kDiffer as bits, counted below it in one step).
void IdPairColumn::renumber(const std::vector<uint32_t>& new_index) {
  renumber_side_rows(new_index, escaped_rows, escaped_correlations, escaped_external_ids);
  for (uint32_t& r : second_rows) r = new_index[r];
  if (std::is_sorted(second_rows.begin(), second_rows.end())) return;
  const size_t blocks = (codes.size() >> 6) + 1;
  std::vector<uint64_t> differ(blocks, 0);
  for (size_t i = 0; i < codes.size(); ++i) differ[i >> 6] |= uint64_t(is_differ(codes[i])) << (i & 63);
  std::vector<uint32_t> before(blocks, 0);
  for (size_t b = 0, count = 0; b < blocks; ++b)
    before[b] = static_cast<uint32_t>(count), count += std::popcount(differ[b]);
  std::vector<uint32_t> ids(second_ids.size());
  for (size_t k = 0; k < second_rows.size(); ++k) {
    const uint32_t r = second_rows[k];
    const uint64_t below = (uint64_t(1) << (r & 63)) - 1;
    ids[before[r >> 6] + std::popcount(differ[r >> 6] & below)] = second_ids[k];
  }
  second_ids.swap(ids);
  size_t k = 0;  // the kDiffer rows again, in order, from their bits
  for (size_t b = 0; b < blocks; ++b)
    for (uint64_t bits = differ[b]; bits; bits &= bits - 1)
      second_rows[k++] = static_cast<uint32_t>(b << 6 | std::countr_zero(bits));
}

bool IdPairColumn::escapes_fit(const IdPairColumn& side, size_t first) const {
  if (side.second_rows.size() != side.second_ids.size() ||
      side.escaped_rows.size() != side.escaped_correlations.size() ||
      side.escaped_rows.size() != side.escaped_external_ids.size())
    return false;
  return side_rows_fit(codes, kEscaped, side.escaped_rows, first) &&
         side_rows_fit_if(codes, is_differ, side.second_rows, first);
}

int64_t IdPairColumn::second_at(size_t row) const {
  const size_t k = find_side_row(second_rows, static_cast<uint32_t>(row));
  return k < second_ids.size() ? int64_t(second_ids[k]) : kNoId;  // kNoId: only for a table escapes_fit refuses
}

int64_t IdPairColumn::escaped_correlation(size_t row) const {
  const size_t k = find_side_row(escaped_rows, static_cast<uint32_t>(row));
  return k < escaped_correlations.size() ? escaped_correlations[k] : kNoId;
}

int64_t IdPairColumn::escaped_external_id(size_t row) const {
  const size_t k = find_side_row(escaped_rows, static_cast<uint32_t>(row));
  return k < escaped_external_ids.size() ? escaped_external_ids[k] : kNoId;
}

}  // namespace tw
