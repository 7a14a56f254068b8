// The page's wasm heap, emulated natively (wasm_heap.cc): tw_heap_phases allocates through it.
#pragma once
#include <cstddef>

namespace tw::wasm_heap {

// The growth the page's link flags ask for (CMakeLists.txt: -sMEMORY_GROWTH_GEOMETRIC_STEP=0.01,
// -sMEMORY_GROWTH_GEOMETRIC_CAP=32MB), which the emulation follows; a test reads the flags back, so
// the two cannot drift apart.
constexpr size_t kStepPermille = 10;
constexpr size_t kStepCapBytes = size_t(32) << 20;

// Always available; without Emscripten's dlmalloc source at build time, the C library's own
// allocator stands in (its __libc_ entry points: tw_heap_phases replaces malloc itself) and
// memory_bytes() is 0 (nothing emulated).
void* allocate(size_t n);
void release(void* p);
size_t usable_size(void* p);
void* reallocate(void* p, size_t n);  // in place where the block can shrink or grow into free space
bool owns(void* p);                   // handed out here (always, without the emulation)
size_t memory_bytes();                // the wasm memory's size now: it only grows, as a wasm memory does

}  // namespace tw::wasm_heap
