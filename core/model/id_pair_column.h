// Kineto's two ids of a slice, "correlation" and "External id", in one 4-byte code a row where the
// pair allows it. Most rows have one of them (a CPU op its External id, a runtime call or kernel of
// some Kineto versions its correlation) or both equal (a runtime call and its kernel in most traces
// here), so one id and the pair's shape tell both. The rows whose ids differ (a runtime call and its
// kernel in others) keep the External id (up to 2^32 - 1) in a side table beside the code (8 bytes,
// as two columns would have cost); any other pair (an id negative, a code's id from 2^30 - 2, a
// differing External id from 2^32) is escaped whole.
// A trace is untrusted input: any pair of int64 values, and kNoId, must read back exactly.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/model/compact_int_column.h"

namespace tw {

struct IdPairColumn {
  // A code: the shape in the top 2 bits, an id in the low 30.
  enum Shape : uint32_t {
    kExternal = 0,     // the id is the External id, no correlation (kAbsentId: neither)
    kSame = 1,         // both are the id
    kCorrelation = 2,  // the id is the correlation, no External id
    kDiffer = 3,       // the id is the correlation, the External id is in the side table `second`
  };
  static constexpr int kShapeShift = 30;
  static constexpr uint32_t kIdMask = (uint32_t(1) << kShapeShift) - 1;
  static constexpr uint32_t kAbsentId = kIdMask - 1;  // with kExternal: neither id
  static constexpr uint32_t kEscaped = UINT32_MAX;    // both ids in the escaped side table

  std::vector<uint32_t> codes;  // one per row
  // The kDiffer rows' External ids, ascending by row (side_rows.h).
  std::vector<uint32_t> second_rows;
  std::vector<uint32_t> second_ids;
  // The kEscaped rows' ids, ascending by row.
  std::vector<uint32_t> escaped_rows;
  std::vector<int64_t> escaped_correlations;
  std::vector<int64_t> escaped_external_ids;

  size_t size() const { return codes.size(); }
  int64_t correlation_at(size_t row) const {
    const uint32_t c = codes[row];
    if (c == kEscaped) return escaped_correlation(row);
    return c >> kShapeShift == kExternal ? kNoId : int64_t(c & kIdMask);
  }
  int64_t external_id_at(size_t row) const {
    const uint32_t c = codes[row];
    switch (c >> kShapeShift) {
      case kExternal: return (c & kIdMask) == kAbsentId ? kNoId : int64_t(c & kIdMask);
      case kSame: return int64_t(c & kIdMask);
      case kCorrelation: return kNoId;
      default: return c == kEscaped ? escaped_external_id(row) : second_at(row);
    }
  }
  void push_back(int64_t correlation, int64_t external_id);
  // Rows given new values (rows strictly ascending, value i at rows[i]), in one pass over the side
  // table; set() one row.
  void set_rows(const std::vector<uint32_t>& rows, const std::vector<int64_t>& correlations,
                const std::vector<int64_t>& external_ids);
  void set(size_t row, int64_t correlation, int64_t external_id) {
    set_rows({static_cast<uint32_t>(row)}, {correlation}, {external_id});
  }
  // Rows renumbered (old row -> new row) after the codes were permuted the same way.
  void renumber(const std::vector<uint32_t>& new_index);
  // True when `side`'s side tables, each row plus `first`, are exactly the rows from `first` on
  // coded kDiffer and kEscaped here (a damaged part is refused before it is read).
  bool escapes_fit(const IdPairColumn& side, size_t first) const;
  // Appends `part`'s side tables at the rows row_of(part row) gives (UINT32_MAX: a dropped row,
  // which has no ids), after its codes were appended the same way.
  // The room it reserves leaves some for finish()'s few rows and the pairs closed across a cut,
  // as the absorb does for the other columns, so neither doubles the table.
  template <class RowOf>
  void append_part_sides(const IdPairColumn& part, RowOf&& row_of) {
    const size_t need = second_rows.size() + part.second_rows.size();
    if (need > second_rows.capacity()) reserve_second(need + need / 256 + 1024);
    for (size_t k = 0; k < part.second_rows.size(); ++k)
      if (const uint32_t r = row_of(part.second_rows[k]); r != UINT32_MAX)
        second_rows.push_back(r), second_ids.push_back(part.second_ids[k]);
    for (size_t k = 0; k < part.escaped_rows.size(); ++k)
      if (const uint32_t r = row_of(part.escaped_rows[k]); r != UINT32_MAX)
        escaped_rows.push_back(r), escaped_correlations.push_back(part.escaped_correlations[k]),
            escaped_external_ids.push_back(part.escaped_external_ids[k]);
  }

  // The kDiffer side table reserved for n rows: it may hold half the rows, so the import reserves
  // it by its growth plan (growth_plan.h) rather than letting it double, when a pair that needs it
  // finds it full.
  void reserve_second(size_t n) { second_rows.reserve(n), second_ids.reserve(n); }
  bool second_full() const { return second_rows.size() == second_rows.capacity(); }
  static bool is_differ(uint32_t code) { return code >> kShapeShift == kDiffer && code != kEscaped; }
  static bool needs_second(int64_t correlation, int64_t external_id) {
    uint32_t second = 0;
    return is_differ(code_of(correlation, external_id, second));
  }

  // The code of a pair; `second` is set to the External id a kDiffer code leaves to the side table.
  static uint32_t code_of(int64_t correlation, int64_t external_id, uint32_t& second);

  template <class F>
  void for_each_side_column(F&& f) {
    f(second_rows), f(second_ids), f(escaped_rows), f(escaped_correlations), f(escaped_external_ids);
  }
  template <class F>
  void for_each_side_column(F&& f) const {
    f(second_rows), f(second_ids), f(escaped_rows), f(escaped_correlations), f(escaped_external_ids);
  }

 private:
  int64_t second_at(size_t row) const;
  int64_t escaped_correlation(size_t row) const;
  int64_t escaped_external_id(size_t row) const;
};

}  // namespace tw
