// The CLI's large blocks (the model's columns, read buffers, the analyses' tables) are backed by
// transparent huge pages where the kernel gives them on request (THP "madvise", Debian's default):
// the replaceable global operator new places every block of 2 MiB or more on whole huge pages marked MADV_HUGEPAGE before it
// is touched. An import writes each new page once, so a load is a stream of first-touch faults; on
// a virtual machine a fault costs microseconds, and one 2 MiB fault replaces 512 of them
// (docs/performance.md, "Huge pages"). This is glibc's `glibc.malloc.hugetlb=1` tunable for the
// blocks that matter, without asking users to set it. Only the CLI does this: the core allocates
// through the standard operators and the wasm heap is the browser's. Not under the sanitizers,
// which replace these operators themselves.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TW_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define TW_ASAN 1
#endif

#if defined(__linux__) && !defined(TW_ASAN)
#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

namespace {

constexpr size_t kHugePage = size_t(2) << 20;

// TW_HUGE_PAGES=0 turns it off, for an A/B with one binary.
bool enabled() {
  static const bool on = [] {
    const char* v = std::getenv("TW_HUGE_PAGES");
    return v == nullptr || std::strcmp(v, "0") != 0;
  }();
  return on;
}

void* allocate(size_t n) {
  void* p;
  if (n >= kHugePage && enabled()) {
    // Whole huge pages, starting on one: the advice covers the block and no neighbour's memory.
    size_t rounded = (n + kHugePage - 1) & ~(kHugePage - 1);
    p = std::aligned_alloc(kHugePage, rounded);
    if (p != nullptr) madvise(p, rounded, MADV_HUGEPAGE);  // advice: refused, the block still works
  } else {
    p = std::malloc(n == 0 ? 1 : n);
  }
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

}  // namespace

void* operator new(size_t n) { return allocate(n); }
void* operator new[](size_t n) { return allocate(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t) noexcept { std::free(p); }
#endif
