// The page's wasm heap, emulated natively: Emscripten's own allocator (dlmalloc, from the emscripten
// package's source, configured as emcc builds it: no mmap, never trimmed) over a break that only
// grows, and the wasm memory grown as our link flags grow it (wasm_heap.h: by 1% a step, at most
// 32 MB past the request, in 64 KiB pages; Emscripten's emscripten_resize_heap). glibc's heap
// reuses freed blocks differently, so it could not show when a temporary fits in no hole: this does.
// Not exact: native pointers and size_t are 8 bytes where wasm32's are 4 (small objects are larger
// here), and the static data before the heap is a guess (kHeapBase); the large tables are the same.
#include "bench/wasm_heap.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>

#ifdef TW_DLMALLOC_C
static void* tw_wasm_sbrk(ptrdiff_t increment);
#define USE_DL_PREFIX 1
#define HAVE_MMAP 0
#define HAVE_MREMAP 0
#define MORECORE_CANNOT_TRIM 1
#define MORECORE tw_wasm_sbrk
#define MORECORE_CONTIGUOUS 1
#define USE_LOCKS 0
#define NO_MALLOC_STATS 1
#include TW_DLMALLOC_C

namespace {

constexpr size_t kPage = 64 * 1024;
constexpr size_t kInitialMemory = 16 << 20;          // Emscripten's INITIAL_MEMORY default
constexpr size_t kHeapBase = (5 << 20) + (1 << 20);  // its 5 MiB stack and our static data
constexpr size_t kReserve = size_t(64) << 30;        // address space for the break

char* g_base = nullptr;
size_t g_brk = kHeapBase, g_memory = kInitialMemory;

size_t align_up(size_t n) { return (n + kPage - 1) / kPage * kPage; }

}  // namespace

static void* tw_wasm_sbrk(ptrdiff_t increment) {
  if (!g_base) {
    void* p = mmap(nullptr, kReserve, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return reinterpret_cast<void*>(-1);
    g_base = static_cast<char*>(p);
  }
  const size_t old = g_brk;
  if (increment < 0 || old + size_t(increment) > kReserve) return reinterpret_cast<void*>(-1);
  const size_t requested = old + size_t(increment);
  if (requested > g_memory) {  // emscripten_resize_heap, its first try (cutDown = 1)
    using tw::wasm_heap::kStepCapBytes, tw::wasm_heap::kStepPermille;
    const size_t over = std::min(g_memory + g_memory * kStepPermille / 1000, requested + kStepCapBytes);
    g_memory = align_up(std::max(requested, over));
  }
  g_brk = requested;
  return g_base + old;
}

namespace tw::wasm_heap {
void* allocate(size_t n) { return dlmalloc(n); }
void release(void* p) { dlfree(p); }
size_t usable_size(void* p) { return dlmalloc_usable_size(p); }
void* reallocate(void* p, size_t n) { return dlrealloc(p, n); }
bool owns(void* p) { return g_base && static_cast<char*>(p) >= g_base && static_cast<char*>(p) < g_base + kReserve; }
size_t memory_bytes() { return g_memory; }
}  // namespace tw::wasm_heap

#else

#include <malloc.h>

extern "C" {
void* __libc_malloc(size_t);
void __libc_free(void*);
void* __libc_realloc(void*, size_t);
}

namespace tw::wasm_heap {
void* allocate(size_t n) { return __libc_malloc(n); }
void release(void* p) { __libc_free(p); }
size_t usable_size(void* p) { return malloc_usable_size(p); }
void* reallocate(void* p, size_t n) { return __libc_realloc(p, n); }
bool owns(void*) { return true; }
size_t memory_bytes() { return 0; }
}  // namespace tw::wasm_heap

#endif
