// A growable array of trivially copyable values over malloc / realloc: what std::vector cannot do,
// it gives memory back in place. shrink_to(n) keeps the block and frees its tail (dlmalloc, the wasm
// heap's allocator, and glibc both split a shrunk block), where vector's shrink_to_fit copies into
// a new block while the old one is still held; reuse_as<U>(n) does the same for values of another
// type written over the block's front. For a large temporary whose size drops in place (the v1 flow
// points, rewritten as their flows' smaller endpoints: core/model/flows.cc).
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>

namespace tw {

template <class T>
class PodBuffer {
  static_assert(std::is_trivially_copyable_v<T>, "PodBuffer moves its values as bytes");

 public:
  PodBuffer() = default;
  PodBuffer(const PodBuffer& o) { *this = o; }
  PodBuffer(PodBuffer&& o) noexcept { swap(o); }
  PodBuffer& operator=(const PodBuffer& o) {
    if (this != &o) {
      resize(0);
      reserve(o.size_);
      if (o.size_) std::memcpy(data_, o.data_, o.size_ * sizeof(T));
      size_ = o.size_;
    }
    return *this;
  }
  PodBuffer& operator=(PodBuffer&& o) noexcept {
    PodBuffer(std::move(o)).swap(*this);
    return *this;
  }
  ~PodBuffer() { std::free(data_); }
  void swap(PodBuffer& o) noexcept {
    std::swap(data_, o.data_), std::swap(size_, o.size_), std::swap(capacity_, o.capacity_);
  }

  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }
  bool empty() const { return size_ == 0; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }

  void reserve(size_t n) {
    if (n > capacity_) set_capacity(n);
  }
  void push_back(const T& v) {
    if (size_ == capacity_) set_capacity(capacity_ ? 2 * capacity_ : 16);
    data_[size_++] = v;
  }
  // New values are zero bytes (a vector's value-initialised ones, for the types held here).
  void resize(size_t n) {
    reserve(n);
    if (n > size_) std::memset(static_cast<void*>(data_ + size_), 0, (n - size_) * sizeof(T));
    size_ = n;
  }
  // Keeps the first n values and gives the rest of the block back, in place.
  void shrink_to(size_t n) {
    if (n < size_) size_ = n;
    if (size_ < capacity_) set_capacity(size_);
  }
  // The block as a buffer of n values of U, which the caller wrote as bytes over the front of this
  // one's (never past the values it still had to read), the rest of it given back in place.
  template <class U>
  PodBuffer<U> reuse_as(size_t n) && {
    PodBuffer<U> out;
    out.data_ = reinterpret_cast<U*>(data_);
    out.capacity_ = capacity_ * sizeof(T) / sizeof(U);
    out.size_ = std::min(n, out.capacity_);
    data_ = nullptr, size_ = capacity_ = 0;
    out.shrink_to(out.size_);
    return out;
  }

 private:
  void set_capacity(size_t n) {
    if (n == 0) {
      std::free(data_);
      data_ = nullptr, capacity_ = 0;
      return;
    }
    void* p = n > SIZE_MAX / sizeof(T) ? nullptr : std::realloc(static_cast<void*>(data_), n * sizeof(T));
    if (!p) out_of_memory();
    data_ = static_cast<T*>(p), capacity_ = n;
  }

  // As operator new fails: through the new handler (the wasm module's marks the module out of
  // memory and aborts: wasm/bindings.cc), then bad_alloc, or abort() where there are no exceptions.
  [[noreturn]] static void out_of_memory() {
    if (std::new_handler handler = std::get_new_handler()) handler();
#if defined(__cpp_exceptions)
    throw std::bad_alloc();
#else
    std::abort();
#endif
  }

  template <class U>
  friend class PodBuffer;
  T* data_ = nullptr;
  size_t size_ = 0, capacity_ = 0;
};

}  // namespace tw
