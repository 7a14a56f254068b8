// The wasm heap emulator of tw_heap_phases (bench/wasm_heap.cc): its memory starts at Emscripten's
// initial size, grows in 64 KiB pages by the link flags' geometric step (1%, at most 32 MB past the
// request), covers what was allocated, and never shrinks; freed blocks are reused as dlmalloc
// reuses them, and a block shrunk in place gives its tail back. One process-wide heap: this file is its only user in tw_tests.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "bench/wasm_heap.h"

namespace {

constexpr size_t kPage = 64 * 1024;
constexpr size_t kMiB = size_t(1) << 20;

size_t pages_up(size_t n) { return (n + kPage - 1) / kPage * kPage; }

// Small blocks until the memory grows once; returns the memory before that growth.
size_t grow_once_by_small_blocks(std::vector<void*>& held) {
  const size_t before = tw::wasm_heap::memory_bytes();
  while (tw::wasm_heap::memory_bytes() == before) held.push_back(tw::wasm_heap::allocate(64 * 1024));
  return before;
}

}  // namespace

TEST_CASE("the emulated wasm heap follows the link flags the page is built with") {
  std::ifstream in(std::string(TW_TEST_DATA) + "/../../CMakeLists.txt");
  const std::string cmake((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  REQUIRE(cmake.find("tracewise_wasm") != std::string::npos);
  std::string digits = std::to_string(1000 + tw::wasm_heap::kStepPermille).substr(1);  // 10 permille: "010"
  digits.erase(digits.find_last_not_of('0') + 1);
  const std::string step = "-sMEMORY_GROWTH_GEOMETRIC_STEP=0." + digits + " ";
  CHECK_MESSAGE(cmake.find(step) != std::string::npos, "CMakeLists.txt has no " << step);
  const std::string cap = "-sMEMORY_GROWTH_GEOMETRIC_CAP=" + std::to_string(tw::wasm_heap::kStepCapBytes >> 20) + "MB ";
  CHECK_MESSAGE(cmake.find(cap) != std::string::npos, "CMakeLists.txt has no " << cap);
}

TEST_CASE("the emulated wasm heap grows as Emscripten grows the page's memory") {
  namespace wh = tw::wasm_heap;
  using wh::kStepCapBytes, wh::kStepPermille;
  std::vector<void*> held;
  held.push_back(wh::allocate(16));
  // Emulated at all: the Makefile installs the emscripten package, whose dlmalloc it compiles.
  REQUIRE(wh::memory_bytes() > 0);
  CHECK(wh::memory_bytes() == 16 * kMiB);  // INITIAL_MEMORY

  // A request just past the memory grows it by the step: 1% of it, in whole pages.
  size_t before = grow_once_by_small_blocks(held);
  CHECK(wh::memory_bytes() == pages_up(before + before * kStepPermille / 1000));
  before = grow_once_by_small_blocks(held);
  CHECK(wh::memory_bytes() == pages_up(before + before * kStepPermille / 1000));

  // A request past the step gets what it asked for, no more than a page of rounding beyond the
  // allocator's own bookkeeping.
  before = wh::memory_bytes();
  void* big = wh::allocate(200 * kMiB);
  REQUIRE(big != nullptr);
  CHECK(wh::usable_size(big) >= 200 * kMiB);
  CHECK(wh::memory_bytes() >= before + 200 * kMiB - before / 20);
  CHECK(wh::memory_bytes() <= before + 200 * kMiB + kPage);
  CHECK(wh::memory_bytes() % kPage == 0);

  // Freed and asked for again: the same hole, no growth; a wasm memory never shrinks.
  const size_t grown = wh::memory_bytes();
  wh::release(big);
  CHECK(wh::memory_bytes() == grown);
  big = wh::allocate(200 * kMiB);
  CHECK(wh::memory_bytes() == grown);

  // Shrunk in place (PodBuffer::shrink_to): the block stays, and its tail takes the next request.
  void* block = wh::allocate(100 * kMiB);
  const size_t with_block = wh::memory_bytes();
  CHECK(with_block > grown);
  CHECK(wh::owns(block));
  int local = 0;
  CHECK_FALSE(wh::owns(&local));
  CHECK(wh::reallocate(block, 10 * kMiB) == block);
  void* in_tail = wh::allocate(80 * kMiB);
  CHECK(wh::memory_bytes() == with_block);
  wh::release(in_tail);

  // Past 3.2 GiB 1% is more than 32 MB: the step stops at the cap past the request.
  const size_t capped = kStepCapBytes * 1000 / kStepPermille;
  void* huge = wh::allocate(capped + 64 * kMiB);  // reserved address space only: its pages are never touched
  REQUIRE(huge != nullptr);
  before = grow_once_by_small_blocks(held);
  CHECK(before > capped);
  CHECK(wh::memory_bytes() < pages_up(before + before * kStepPermille / 1000));
  CHECK(wh::memory_bytes() > before + kStepCapBytes);
  CHECK(wh::memory_bytes() <= before + kStepCapBytes + 2 * kPage + 64 * 1024);

  wh::release(huge);
  wh::release(block);
  wh::release(big);
  for (void* p : held) wh::release(p);
  CHECK(wh::memory_bytes() >= before);
}
