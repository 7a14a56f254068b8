#include "core/model/time_column.h"

#include <algorithm>
#include <tuple>
#include <utility>

#include "core/model/side_rows.h"

namespace tw {

namespace {

// The start of the 2^32-ns window (codes up to kEscaped - 1) that holds most of `times` (sorted
// here): the earliest time when they all fit.
int64_t best_base(int64_t* times, size_t n) {
  std::sort(times, times + n);
  size_t best = 0, most = 0;
  for (size_t i = 0, j = 0; i < n && most < n - i; ++i) {
    j = std::max(j, i);
    while (j < n && uint64_t(times[j]) - uint64_t(times[i]) < TimeColumn::kEscaped) ++j;
    if (j - i > most) most = j - i, best = i;
  }
  return n ? times[best] : 0;
}

}  // namespace

void TimeColumn::put(size_t row, int64_t t) {
  const size_t b = row >> kBlockBits;
  if ((row & (kBlockRows - 1)) == 0) bases.resize(b), bases.push_back(base_around(t));
  const uint32_t code = code_under(bases[b], t);
  if (code == kEscaped) escaped_rows.push_back(static_cast<uint32_t>(row)), escaped_values.push_back(t);
  codes[row] = code;
  // The block is complete: with escapes (its side rows are the table's last), maybe a better base.
  if ((row & (kBlockRows - 1)) == kBlockRows - 1 && !escaped_rows.empty() && escaped_rows.back() >> kBlockBits == b)
    rebase(b, b + 1);
}

void TimeColumn::rebase(size_t b0, size_t b1) {
  const size_t k0 = static_cast<size_t>(
      std::lower_bound(escaped_rows.begin(), escaped_rows.end(), static_cast<uint32_t>(b0 << kBlockBits)) -
      escaped_rows.begin());
  const std::vector<uint32_t> rows(escaped_rows.begin() + static_cast<ptrdiff_t>(k0), escaped_rows.end());
  const std::vector<int64_t> values(escaped_values.begin() + static_cast<ptrdiff_t>(k0), escaped_values.end());
  escaped_rows.resize(k0), escaped_values.resize(k0);
  std::vector<int64_t> times(kBlockRows), sorted(kBlockRows);
  size_t k = 0;
  for (size_t b = b0; b < b1 && k < rows.size(); ++b) {
    const size_t first = b << kBlockBits, n = std::min(kBlockRows, codes.size() - first);
    if (rows[k] >= first + n) continue;  // no escapes: its base stays
    for (size_t i = 0; i < n; ++i) {
      const uint32_t c = codes[first + i];
      times[i] = c != kEscaped ? bases[b] + int64_t(c) : values[k++];
    }
    std::copy(times.begin(), times.begin() + static_cast<ptrdiff_t>(n), sorted.begin());
    bases[b] = best_base(sorted.data(), n);
    for (size_t i = 0; i < n; ++i) {
      const uint32_t code = code_under(bases[b], times[i]);
      if (code == kEscaped)
        escaped_rows.push_back(static_cast<uint32_t>(first + i)), escaped_values.push_back(times[i]);
      codes[first + i] = code;
    }
  }
}

void TimeColumn::push_back(int64_t t) {
  codes.push_back(0);
  put(codes.size() - 1, t);
}

void TimeColumn::set(size_t row, int64_t t) {
  const uint32_t code = code_under(bases[row >> kBlockBits], t);
  set_side_row(escaped_rows, static_cast<uint32_t>(row), code == kEscaped, std::tuple{t}, escaped_values);
  codes[row] = code;
}

void TimeColumn::permute(const std::vector<uint32_t>& where) {
  const size_t n = codes.size();
  std::vector<int64_t> new_bases(blocks(n), INT64_MAX);
  for (size_t i = 0; i < n; ++i) {
    int64_t& base = new_bases[where[i] >> kBlockBits];
    base = std::min(base, (*this)[i]);
  }
  // A block whose times span more than the code range (two tracks meet in it, or a sparse track)
  // escapes its latest ones here; rebase() then moves such a block's base to where most fit.
  std::vector<uint32_t> scratch(n);
  std::vector<std::pair<uint32_t, int64_t>> escaped;
  for (size_t i = 0; i < n; ++i) {
    const int64_t t = (*this)[i];
    const uint32_t row = where[i], code = code_under(new_bases[row >> kBlockBits], t);
    scratch[row] = code;
    if (code == kEscaped) escaped.emplace_back(row, t);
  }
  std::sort(escaped.begin(), escaped.end());
  // Copied back rather than swapped: the codes keep their block (and its room), as the other
  // columns do under permute_columns.
  std::copy(scratch.begin(), scratch.end(), codes.begin());
  bases = std::move(new_bases);
  escaped_rows.resize(escaped.size()), escaped_values.resize(escaped.size());
  for (size_t k = 0; k < escaped.size(); ++k) escaped_rows[k] = escaped[k].first, escaped_values[k] = escaped[k].second;
  if (!escaped.empty()) rebase(0, bases.size());
}

bool TimeColumn::part_fits(const TimeColumn& part, size_t first) const {
  return first <= codes.size() && part.bases.size() == blocks(codes.size() - first) &&
         part.escaped_rows.size() == part.escaped_values.size() &&
         side_rows_fit(codes, kEscaped, part.escaped_rows, first);
}

int64_t TimeColumn::escaped_at(size_t row) const {
  const size_t k = find_side_row(escaped_rows, static_cast<uint32_t>(row));
  return k < escaped_values.size() ? escaped_values[k] : 0;  // 0: only for a table part_fits refuses
}

}  // namespace tw
