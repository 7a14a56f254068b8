#include "core/model/time_column.h"

#include <algorithm>
#include <tuple>
#include <utility>

#include "core/model/permute.h"
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
  // In place: a block's new base fits at least the rows its old one did (the best window holds
  // most), so its escapes never outnumber the old ones and the table is rewritten behind its reads.
  size_t k = static_cast<size_t>(
      std::lower_bound(escaped_rows.begin(), escaped_rows.end(), static_cast<uint32_t>(b0 << kBlockBits)) -
      escaped_rows.begin());
  size_t w = k;
  std::vector<int64_t> times(2 * kBlockRows);  // a block's times, then the same sorted
  int64_t* sorted = times.data() + kBlockRows;
  for (size_t b = b0; b < b1 && k < escaped_rows.size(); ++b) {
    const size_t first = b << kBlockBits, n = std::min(kBlockRows, codes.size() - first);
    if (escaped_rows[k] >= first + n) continue;  // no escapes: its base stays
    const size_t k_first = k;
    for (size_t i = 0; i < n; ++i) {
      const uint32_t c = codes[first + i];
      times[i] = c != kEscaped ? bases[b] + int64_t(c) : escaped_values[k++];
    }
    std::copy(times.begin(), times.begin() + static_cast<ptrdiff_t>(n), sorted);
    const int64_t base = best_base(sorted, n);
    if (base == bases[b]) {  // its escapes are outliers: they stay as they are
      for (size_t j = k_first; j < k; ++j, ++w)
        escaped_rows[w] = escaped_rows[j], escaped_values[w] = escaped_values[j];
      continue;
    }
    bases[b] = base;
    for (size_t i = 0; i < n; ++i) {
      const uint32_t code = code_under(base, times[i]);
      if (code == kEscaped) escaped_rows[w] = static_cast<uint32_t>(first + i), escaped_values[w++] = times[i];
      codes[first + i] = code;
    }
  }
  escaped_rows.resize(w), escaped_values.resize(w);
}

void TimeColumn::push_back(int64_t t) {
  codes.push_back(0);
  put(codes.size() - 1, t);
}

void TimeColumn::set_rows(const std::vector<uint32_t>& rows, const std::vector<int64_t>& times) {
  if (rows.empty()) return;
  for (size_t i = 0; i < rows.size(); ++i) codes[rows[i]] = code_under(bases[rows[i] >> kBlockBits], times[i]);
  set_side_rows(
      escaped_rows, rows, [&](size_t i) { return codes[rows[i]] == kEscaped; },
      [&](size_t i) { return std::tuple{times[i]}; }, escaped_values);
  // New times far from their block's (a B's, set on an E's placeholder row): re-based where they
  // escape, from the first block set on to the end (which holds every side row from there).
  rebase(rows.front() >> kBlockBits, bases.size());
}

void TimeColumn::permute(const std::vector<uint32_t>& where) {
  const size_t n = codes.size();
  // The times in row order, the escaped ones by a cursor over the side table rather than a search
  // each (a hostile file can escape most rows).
  const auto for_each_time = [&](auto f) {
    size_t k = 0;
    for (size_t i = 0; i < n; ++i) {
      const uint32_t c = codes[i];
      f(i, c != kEscaped ? bases[i >> kBlockBits] + int64_t(c) : k < escaped_values.size() ? escaped_values[k++] : 0);
    }
  };
  std::vector<int64_t> new_bases(blocks(n), INT64_MAX);
  for_each_time([&](size_t i, int64_t t) {
    int64_t& base = new_bases[where[i] >> kBlockBits];
    base = std::min(base, t);
  });
  // A block whose times span more than the code range (two tracks meet in it, or a sparse track)
  // escapes its latest ones here; rebase() then moves such a block's base to where most fit.
  RowScratch scratch(n);
  std::vector<std::pair<uint32_t, int64_t>> escaped;
  for_each_time([&](size_t i, int64_t t) {
    const uint32_t row = where[i], code = code_under(new_bases[row >> kBlockBits], t);
    scratch[row] = code;
    if (code == kEscaped) escaped.emplace_back(row, t);
  });
  std::sort(escaped.begin(), escaped.end());
  // Copied back rather than swapped: the codes keep their block (and its room), as the other
  // columns do under permute_columns.
  scratch.copy_to(codes.data());
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
