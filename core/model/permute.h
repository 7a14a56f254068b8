// Applying a sort order to table columns with little extra memory: one 4-byte-per-row scratch
// serves every column (8-byte columns are moved as two 32-bit halves), so finalisation needs the
// order and the scratch (8 bytes per row) on top of the model, instead of a whole new column per
// column (12 bytes per row; in wasm the heap never shrinks, so such a peak stays). The scratch is
// held in chunks (RowScratch), not one block: blocks the import freed just before (its flow points'
// tail, a released column) are holes smaller than 4 bytes a row, which chunks fill and one block
// would pass by, growing the heap for good.
// Each value is scattered to its new row, reading the column in sequence: the sort is by track and
// a file interleaves its tracks, so writes go to one sequential stream per track, while gathering
// (reading from them) came back to each cache line once per track in it. Following the
// permutation's cycles in place would be a chain of dependent random loads. Scattering measured
// faster than gathering in finish() (docs/performance.md, "finish() and the summary").
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

namespace tw {

// n 32-bit values, uninitialised, in chunks of 1 MiB (the last one shorter).
class RowScratch {
 public:
  explicit RowScratch(size_t n) : n_(n) {
    chunks_.reserve((n + kChunk - 1) / kChunk);
    for (size_t at = 0; at < n; at += kChunk)
      chunks_.emplace_back(new uint32_t[std::min(kChunk, n - at)]);  // not zeroed: every row is written first
  }
  uint32_t& operator[](size_t i) { return chunks_[i >> kBits][i & (kChunk - 1)]; }
  // All n values to out[0, n), a chunk at a time (a column that keeps its block takes them back).
  void copy_to(uint32_t* out) const {
    for (size_t k = 0, at = 0; at < n_; ++k, at += kChunk)
      std::memcpy(out + at, chunks_[k].get(), std::min(kChunk, n_ - at) * sizeof(uint32_t));
  }

 private:
  static constexpr unsigned kBits = 18;
  static constexpr size_t kChunk = size_t(1) << kBits;
  size_t n_;
  std::vector<std::unique_ptr<uint32_t[]>> chunks_;
};

namespace detail {

template <typename T>
using Bits = std::conditional_t<sizeof(T) == 8, uint64_t, uint32_t>;

template <typename T>
Bits<T> to_bits(T v) {
  if constexpr (std::is_enum_v<T>) return static_cast<Bits<T>>(static_cast<std::underlying_type_t<T>>(v));
  else return static_cast<Bits<T>>(v);
}

template <typename T>
T from_bits(Bits<T> b) {
  if constexpr (std::is_enum_v<T>) return static_cast<T>(static_cast<std::underlying_type_t<T>>(b));
  else return static_cast<T>(b);
}

// Afterwards v[where[i]] holds what v[i] held (where: the inverse of the sort order). T is an
// integer or enum type of up to 8 bytes.
template <typename T>
void scatter(const std::vector<uint32_t>& where, std::vector<T>& v, RowScratch& scratch) {
  static_assert(std::is_integral_v<T> || std::is_enum_v<T>, "integer columns only");
  static_assert(sizeof(T) <= 8, "at most 8 bytes per value");
  const size_t n = where.size();
  if constexpr (sizeof(T) <= 4) {
    for (size_t i = 0; i < n; ++i) scratch[where[i]] = static_cast<uint32_t>(to_bits(v[i]));
    for (size_t i = 0; i < n; ++i) v[i] = from_bits<T>(static_cast<Bits<T>>(scratch[i]));
  } else {
    // Low halves first; the high halves stay in the old order until their own two passes.
    for (size_t i = 0; i < n; ++i) scratch[where[i]] = static_cast<uint32_t>(to_bits(v[i]));
    for (size_t i = 0; i < n; ++i) v[i] = from_bits<T>((to_bits(v[i]) & ~uint64_t(0xffffffffu)) | scratch[i]);
    for (size_t i = 0; i < n; ++i) scratch[where[i]] = static_cast<uint32_t>(to_bits(v[i]) >> 32);
    for (size_t i = 0; i < n; ++i) v[i] = from_bits<T>((uint64_t(scratch[i]) << 32) | (to_bits(v[i]) & 0xffffffffu));
  }
}

}  // namespace detail

// Reorders every column so that row i afterwards holds what row order[i] held, and leaves `order`
// as the inverse permutation (order[old row] = new row), which the scatter goes by. Every column
// has order.size() rows.
template <typename... Col>
void permute_columns(std::vector<uint32_t>& order, Col&... cols) {
  const size_t n = order.size();
  RowScratch scratch(n);
  for (uint32_t i = 0; i < n; ++i) scratch[order[i]] = i;
  scratch.copy_to(order.data());  // copied back: the order keeps its block
  (detail::scatter(order, cols, scratch), ...);
}

}  // namespace tw
