// Touching the model's reserved memory ahead of use, while the importer would otherwise idle (the
// web worker waiting for input).
//
// Every page of a wasm heap is zero-filled by the OS on its first write, and a large import takes
// tens of thousands of such faults (importing the same file again into the already-touched heap is
// faster: docs/performance.md, "Work ahead while waiting"). The model's columns are reserved to
// about their final size early (growth_plan.h) and then filled row by row, so their spare capacity
// is the memory the rest of the import (and finish(), which writes the depths) will write. Writing
// one zero per page of it moves those faults out of the import's path. The bytes written lie in
// storage the vector has allocated but not yet constructed elements in (trivially copyable types
// only): the elements appended later overwrite them.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace tw {

constexpr uintptr_t kPrefaultPage = 4096;

// Writes a zero into each page whose start lies in [from, end) (from rounded up to a page), at most
// `max_pages` of them; returns how many and leaves `from` where it stopped (at most `end`).
inline size_t touch_pages(uintptr_t& from, uintptr_t end, size_t max_pages) {
  uintptr_t a = (from + kPrefaultPage - 1) & ~(kPrefaultPage - 1);
  size_t pages = 0;
  for (; a < end && pages < max_pages; a += kPrefaultPage, ++pages) *reinterpret_cast<volatile unsigned char*>(a) = 0;
  from = a < end ? a : end;
  return pages;
}

// Heap above the allocator's break written ahead (one zero per page, so its faults come before the
// allocations that need them) by a session waiting for input. There is one heap per module, so one
// mark: a page is written once. Writes the pages from `heap_break` (or the mark, if higher) up to
// `end`, at most `max_pages` of them; returns how many.
inline size_t touch_above_break(uintptr_t heap_break, uintptr_t end, size_t max_pages) {
  static uintptr_t touched_above = 0;
  touched_above = std::max(heap_break, touched_above);
  if (touched_above >= end) return 0;
  return touch_pages(touched_above, end, max_pages);
}

class Prefaulter {
 public:
  // Touches up to about `max_pages` not yet touched pages of the spare capacity of the columns that
  // `columns(f)` hands to f (the same ones, in the same order, every call), each column from its
  // fill point up and given an equal share (all columns fill at the same pace, so the pages written
  // next come first); returns the pages touched, 0 once all are.
  template <class Columns>
  size_t touch_each(size_t max_pages, Columns columns) {
    size_t n = 0;
    columns([&n](auto&) { ++n; });
    if (n == 0) return 0;
    if (marks_.size() < n) marks_.resize(n);
    const size_t share = std::max<size_t>(1, max_pages / n);
    size_t done = 0, k = 0;
    columns([&](auto& column) { done += touch_spare(column, marks_[k++], share); });
    return done;
  }

 private:
  struct Mark {
    const void* block = nullptr;  // the column's storage when last touched (a reallocation resets)
    size_t touched_end = 0;       // bytes of it known touched
  };

  template <class T>
  static size_t touch_spare(std::vector<T>& v, Mark& mark, size_t max_pages) {
    static_assert(std::is_trivially_copyable_v<T>, "only storage later overwritten by plain copies");
    if (max_pages == 0 || v.capacity() == 0) return 0;
    unsigned char* base = reinterpret_cast<unsigned char*>(v.data());
    if (mark.block != base) mark = Mark{base, 0};
    const uintptr_t begin = reinterpret_cast<uintptr_t>(base);
    // From the first page boundary past the filled part (the page holding the fill point is touched).
    uintptr_t from = begin + std::max(mark.touched_end, v.size() * sizeof(T));
    const size_t pages = touch_pages(from, begin + v.capacity() * sizeof(T), max_pages);
    mark.touched_end = from - begin;
    return pages;
  }

  std::vector<Mark> marks_;
};

}  // namespace tw
