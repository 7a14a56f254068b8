// The page's wasm heap, emulated natively (wasm_heap.cc): tw_heap_phases allocates through it.
#pragma once
#include <cstddef>

namespace tw::wasm_heap {

// Always available; without Emscripten's dlmalloc source at build time, the C library's malloc
// stands in and memory_bytes() is 0 (nothing emulated).
void* allocate(size_t n);
void release(void* p);
size_t usable_size(void* p);
size_t memory_bytes();  // the wasm memory's size now: it only grows, as a wasm memory does

}  // namespace tw::wasm_heap
