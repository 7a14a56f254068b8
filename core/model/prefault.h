// Touching the model's reserved memory ahead of use, while the importer would otherwise idle (the
// web worker waiting for input).
//
// Every page of a wasm heap is zero-filled by the OS on its first write: a 1 GB import in node takes
// ~84 k page faults, and importing the same file again into the already-touched heap is ~0.22 s
// (13%) faster, finish() ~0.09 s. The model's columns are reserved to about their final size
// early (growth_plan.h) and then filled row by row, so their spare capacity is the memory the rest
// of the import (and finish(), which writes depths and parents) will write. Writing one zero per
// page of it moves those faults out of the import's path. The bytes written lie in storage the
// vector has allocated but not yet constructed elements in (trivially copyable types only): the
// elements appended later overwrite them.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace tw {

class Prefaulter {
 public:
  static constexpr size_t kPage = 4096;

  // Touches up to about `max_pages` not yet touched pages of the columns' spare capacity, each
  // column from its fill point up and given an equal share (all columns fill at the same pace, so
  // the pages written next come first); returns the pages touched, 0 once all are.
  template <class... Column>
  size_t touch(size_t max_pages, std::vector<Column>&... columns) {
    if (marks_.size() < sizeof...(Column)) marks_.resize(sizeof...(Column));
    const size_t share = std::max<size_t>(1, max_pages / sizeof...(Column));
    size_t done = 0, k = 0;
    ((done += touch_spare(columns, marks_[k++], share)), ...);
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
    const uintptr_t filled = begin + std::max(mark.touched_end, v.size() * sizeof(T));
    const uintptr_t end = begin + v.capacity() * sizeof(T);
    // The first page boundary past the filled part: the page holding the fill point is touched.
    uintptr_t a = (filled + kPage - 1) & ~uintptr_t(kPage - 1);
    size_t pages = 0;
    for (; a < end && pages < max_pages; a += kPage, ++pages) *reinterpret_cast<volatile unsigned char*>(a) = 0;
    mark.touched_end = std::min<uintptr_t>(a, end) - begin;
    return pages;
  }

  std::vector<Mark> marks_;
};

}  // namespace tw
