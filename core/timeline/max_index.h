// MaxIndex: the position of the largest value in any range [lo, hi) of a fixed sequence, in
// O(kFanout * levels) time and ~n/kFanout entries of extra memory. The LOD query uses it to pick the longest
// slice of a pixel column without visiting every slice in it, which keeps a zoomed-out window of a
// 10-million-slice track cheap. The raw values are not copied: callers pass an accessor.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

namespace tw {

class MaxIndex {
 public:
  static constexpr uint32_t kFanout = 16;

  // `value(i)` gives the value at position i < n.
  template <typename Value>
  void build(uint32_t n, Value&& value) {
    levels_.clear();
    if (n <= kFanout) return;  // small ranges are scanned directly
    std::vector<Entry> first;
    first.reserve(n / kFanout + 1);
    for (uint32_t b = 0; b * kFanout < n; ++b) {
      Entry e{INT64_MIN, b * kFanout};
      for (uint32_t i = b * kFanout; i < n && i < (b + 1) * kFanout; ++i) {
        int64_t v = value(i);
        if (v > e.value) e = Entry{v, i};
      }
      first.push_back(e);
    }
    levels_.push_back(std::move(first));
    while (levels_.back().size() > kFanout) {
      const std::vector<Entry>& below = levels_.back();
      std::vector<Entry> next;
      for (size_t b = 0; b * kFanout < below.size(); ++b) {
        Entry e = below[b * kFanout];
        for (size_t i = b * kFanout + 1; i < below.size() && i < (b + 1) * kFanout; ++i)
          if (below[i].value > e.value) e = below[i];
        next.push_back(e);
      }
      levels_.push_back(std::move(next));
    }
  }

  // Position of the maximum of [lo, hi) (lowest position on ties); requires lo < hi <= n.
  template <typename Value>
  uint32_t argmax(uint32_t lo, uint32_t hi, Value&& value) const {
    Entry best{INT64_MIN, lo};
    auto take = [&best](int64_t v, uint32_t pos) {
      if (v > best.value || (v == best.value && pos < best.pos)) best = Entry{v, pos};
    };
    auto scan = [&](size_t level, uint64_t a, uint64_t b) {
      for (uint64_t i = a; i < b; ++i) {
        if (level == 0) take(value(static_cast<uint32_t>(i)), static_cast<uint32_t>(i));
        else take(levels_[level - 1][i].value, levels_[level - 1][i].pos);
      }
    };
    // Level L covers kFanout^L raw positions per element (level 0 = the raw values). Scan the ragged
    // edges at each level and hand the aligned middle to the level above. An edge lies in one
    // element of the level above, whose entry is its whole range's maximum at its lowest position:
    // when that position falls inside the edge it is the edge's answer too, and the edge is not
    // scanned (at level 0 each value read is a random access through the caller's row).
    auto edge = [&](size_t level, uint64_t a, uint64_t b, uint64_t unit) {
      if (a >= b) return;
      if (level < levels_.size()) {
        const Entry& e = levels_[level][a / kFanout];
        if (e.pos >= a * unit && e.pos < b * unit) return take(e.value, e.pos);
      }
      scan(level, a, b);
    };
    uint64_t a = lo, b = hi, unit = 1;
    for (size_t level = 0;; ++level, unit *= kFanout) {
      uint64_t a_up = (a + kFanout - 1) / kFanout, b_up = b / kFanout;
      if (level >= levels_.size() || a_up >= b_up) {
        // [a, b) within one element of the level above, or across the boundary of two.
        const uint64_t cut = std::clamp(a_up * kFanout, a, b);
        edge(level, a, cut, unit);
        edge(level, cut, b, unit);
        break;
      }
      edge(level, a, a_up * kFanout, unit);
      edge(level, b_up * kFanout, b, unit);
      a = a_up;
      b = b_up;
    }
    return best.pos;
  }

  size_t memory_bytes() const {
    size_t n = 0;
    for (const auto& l : levels_) n += l.capacity() * sizeof(Entry);
    return n;
  }

 private:
  struct Entry {
    int64_t value;
    uint32_t pos;
  };
  // levels_[k][j] = max over raw positions [j * kFanout^(k+1), (j+1) * kFanout^(k+1)).
  std::vector<std::vector<Entry>> levels_;
};

}  // namespace tw
