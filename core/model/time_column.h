// The slices' start times in 4 bytes a row instead of 8: each block of 2^kBlockBits rows has one
// 64-bit base, and a row's code is its time minus its block's base. A block's rows lie close in
// time (in import order a file's events come a few at a time from each thread and stream, after
// finish() each track's rows are in time order), so nearly every code fits; a time that does not
// (a trace is untrusted input: any int64 must read back exactly) is coded kEscaped and kept in a
// side table of (row, time) (side_rows.h). A block's first row sets its base (half the code range
// below it, so times on both sides fit); a block that ends with escaped rows (its first row was
// the outlier, or it spans two tracks) is re-based on the window that holds most of its times, and
// finish() re-bases every block on its earliest time after the rows are sorted, then so again
// where that leaves escapes.
#pragma once
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <vector>

namespace tw {

struct TimeColumn {
  static constexpr int kBlockBits = 10;
  static constexpr size_t kBlockRows = size_t(1) << kBlockBits;
  static constexpr uint32_t kEscaped = UINT32_MAX;

  std::vector<uint32_t> codes;          // one per row
  std::vector<int64_t> bases;           // one per block of kBlockRows rows
  std::vector<uint32_t> escaped_rows;   // the rows coded kEscaped, ascending
  std::vector<int64_t> escaped_values;  // their times

  size_t size() const { return codes.size(); }
  bool empty() const { return codes.empty(); }
  size_t capacity() const { return codes.capacity(); }
  int64_t operator[](size_t row) const {
    const uint32_t c = codes[row];
    return c != kEscaped ? bases[row >> kBlockBits] + int64_t(c) : escaped_at(row);
  }
  void push_back(int64_t t);
  // Rows given new values (rows strictly ascending, value i at rows[i]), in one pass over the side
  // table; set() one row.
  void set_rows(const std::vector<uint32_t>& rows, const std::vector<int64_t>& times);
  void set(size_t row, int64_t t) { set_rows({static_cast<uint32_t>(row)}, {t}); }
  void reserve(size_t rows) { codes.reserve(rows), bases.reserve(blocks(rows)); }

  // Rows reordered: afterwards row where[i] holds what row i held (permute_columns' inverse order),
  // each block re-based on its earliest time. One 4-byte scratch per row in chunks (RowScratch), as
  // permute_columns.
  void permute(const std::vector<uint32_t>& where);
  // True when `part`'s side tables fit the rows from `first` on here, which hold its codes: a base
  // per block of its rows and its escaped rows exactly the ones coded kEscaped (a damaged part may
  // carry anything; it is refused before it is read).
  bool part_fits(const TimeColumn& part, size_t first) const;
  // The rows holding `part`'s codes (part_fits) recoded into this column's blocks; the part's n
  // rows, part row i at row_of(i) here (UINT32_MAX: a row dropped; the rows kept in order, at the
  // end of this column).
  template <class RowOf>
  void recode_part(const TimeColumn& part, size_t n, RowOf row_of);

  // A random-access iterator over the times (by value), for binary searches over rows.
  class const_iterator {
   public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = int64_t;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = int64_t;
    const_iterator() = default;
    const_iterator(const TimeColumn* c, size_t row) : c_(c), row_(row) {}
    int64_t operator*() const { return (*c_)[row_]; }
    int64_t operator[](difference_type k) const { return (*c_)[row_ + size_t(k)]; }
    const_iterator& operator++() { return ++row_, *this; }
    const_iterator operator++(int) { return const_iterator(c_, row_++); }
    const_iterator& operator--() { return --row_, *this; }
    const_iterator operator--(int) { return const_iterator(c_, row_--); }
    const_iterator& operator+=(difference_type k) { return row_ += size_t(k), *this; }
    const_iterator& operator-=(difference_type k) { return row_ -= size_t(k), *this; }
    friend const_iterator operator+(const_iterator a, difference_type k) { return a += k; }
    friend const_iterator operator+(difference_type k, const_iterator a) { return a += k; }
    friend const_iterator operator-(const_iterator a, difference_type k) { return a -= k; }
    friend difference_type operator-(const const_iterator& a, const const_iterator& b) {
      return difference_type(a.row_) - difference_type(b.row_);
    }
    friend bool operator==(const const_iterator& a, const const_iterator& b) { return a.row_ == b.row_; }
    friend auto operator<=>(const const_iterator& a, const const_iterator& b) { return a.row_ <=> b.row_; }

   private:
    const TimeColumn* c_ = nullptr;
    size_t row_ = 0;
  };
  const_iterator begin() const { return const_iterator(this, 0); }
  const_iterator end() const { return const_iterator(this, size()); }

  // f(column) for the bases and the side table (the codes are the table's own row column).
  template <class F>
  void for_each_side_column(F&& f) {
    f(bases), f(escaped_rows), f(escaped_values);
  }
  template <class F>
  void for_each_side_column(F&& f) const {
    f(bases), f(escaped_rows), f(escaped_values);
  }

  static size_t blocks(size_t rows) { return (rows + kBlockRows - 1) >> kBlockBits; }

  // A time's code under a base, or kEscaped when it does not fit (also FlowTimes').
  static uint32_t code_under(int64_t base, int64_t t) {
    const uint64_t d = uint64_t(t) - uint64_t(base);
    return t >= base && d < kEscaped ? static_cast<uint32_t>(d) : kEscaped;
  }
  // The base of a block whose first time is t: half the code range below it.
  static int64_t base_around(int64_t t) {
    return t < INT64_MIN + (int64_t(1) << 31) ? INT64_MIN : t - (int64_t(1) << 31);
  }

 private:
  // Row `row` (the next one, or one rewritten in place in row order) coded as t: a block's first
  // row sets its base, and a block that ends with escapes is re-based (rebase).
  void put(size_t row, int64_t t);
  // Each block of [b0, b1) that has escaped rows re-based on the 2^32-ns window holding most of its
  // times, and its rows coded anew. The side table's rows from block b0 on must all lie in these
  // blocks: it is rebuilt from there.
  void rebase(size_t b0, size_t b1);
  int64_t escaped_at(size_t row) const;
};

template <class RowOf>
void TimeColumn::recode_part(const TimeColumn& part, size_t n, RowOf row_of) {
  size_t k = 0;  // the part's next escaped row
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t row = row_of(i);
    const bool part_escaped = k < part.escaped_rows.size() && part.escaped_rows[k] == i;
    const int64_t escaped = part_escaped ? part.escaped_values[k++] : 0;
    if (row == UINT32_MAX) continue;
    put(row, part_escaped ? escaped : part.bases[i >> kBlockBits] + int64_t(codes[row]));
  }
}

}  // namespace tw
