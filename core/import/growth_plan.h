// GrowthPlan: how much to reserve when a model table is full during import.
//
// Doubling (std::vector's own policy) leaves up to half of every column unused at the end, and in
// wasm each outgrown block stays behind as a hole in a heap that never shrinks, so the peak heap
// becomes several times the model. When the total input size is known (file size, or the gzip trailer's
// uncompressed size), the final row count is projected from the rows per input byte seen so far,
// so a table is typically reallocated once to about its final size.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace tw {

struct GrowthPlan {
  uint64_t size_hint = 0;  // expected total input bytes; 0 = unknown (plain doubling)
  uint64_t seen = 0;       // input offset of the event being imported
  uint64_t begin = 0;      // input offset where this import began (a later part's start)

  // Projections made before this much input are too noisy (a trace's first megabytes are rarely
  // typical of the whole, and a projection that falls short costs a second reallocation near the
  // end, the largest one); small tables just double.
  static constexpr uint64_t kMinSeen = uint64_t(32) << 20;
  static constexpr double kMargin = 1.08;  // projected rows x this, so one reservation usually lasts
  // The smallest plausible event ({"ph":"X","ts":1,"dur":1,"pid":1,"tid":1}) bounds any projection.
  static constexpr uint64_t kMinEventBytes = 40;

  size_t target(size_t size) const {
    size_t doubled = std::max<size_t>(1024, size * 2);
    uint64_t read = seen - std::min(seen, begin);
    if (size_hint == 0 || read < kMinSeen || read >= size_hint) return doubled;
    double projected = double(size) * double(size_hint) / double(read) * kMargin + 4096;
    size_t at_least = size + size / 8 + 1024;  // never creep by tiny steps
    size_t at_most = std::max<size_t>(doubled, size_t(size_hint / kMinEventBytes));
    return std::clamp<size_t>(size_t(projected), at_least, at_most);
  }

  // Reserves `table` (anything with size() and reserve()) for more rows when it is full.
  template <typename Table, typename Column>
  void before_append(Table& table, const Column& first_column) const {
    if (first_column.size() == first_column.capacity()) table.reserve(target(first_column.size()));
  }
};

}  // namespace tw
