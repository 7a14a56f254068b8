// ByteWriter / ByteReader: plain values, strings and vectors of trivially copyable values as bytes,
// in the machine's byte order (both ends are this build). The reader checks every length against
// what is left, and every bool, so bytes that are short or garbled make it fail (ok() false), never
// read past them. (Bools inside structs read as bytes are the writer's own.)
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace tw {

class ByteWriter {
 public:
  template <class T>
  void put(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto* p = reinterpret_cast<const uint8_t*>(&v);
    out_.insert(out_.end(), p, p + sizeof(T));
  }
  void put_str(std::string_view s) {
    put<uint64_t>(s.size());
    out_.insert(out_.end(), s.begin(), s.end());
  }
  template <class T>
  void put_vec(const std::vector<T>& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    put<uint64_t>(v.size());
    const auto* p = reinterpret_cast<const uint8_t*>(v.data());
    out_.insert(out_.end(), p, p + v.size() * sizeof(T));
  }
  std::vector<uint8_t>& bytes() { return out_; }

 private:
  std::vector<uint8_t> out_;
};

class ByteReader {
 public:
  ByteReader(const uint8_t* p, size_t n) : p_(p), end_(p + n) {}
  bool ok() const { return ok_; }
  bool at_end() const { return p_ == end_; }
  // A bool must be a byte 0 or 1 (any other byte in a bool is undefined behaviour to read).
  template <class T>
  bool get(T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    if (!take(sizeof(T))) return false;
    if constexpr (std::is_same_v<T, bool>) {
      uint8_t b = p_[-1];
      if (b > 1) return fail();
      v = b == 1;
    } else {
      std::memcpy(&v, p_ - sizeof(T), sizeof(T));
    }
    return true;
  }
  template <class T>
  T get() {
    T v{};
    get(v);
    return v;
  }
  bool get_str(std::string& s) {
    uint64_t n = 0;
    if (!get(n) || !take(n)) return false;
    s.assign(reinterpret_cast<const char*>(p_ - n), n);
    return true;
  }
  template <class T>
  bool get_vec(std::vector<T>& v) {
    uint64_t n = 0;
    if (!get(n) || n > left() / sizeof(T) || !take(n * sizeof(T))) return false;
    v.resize(n);
    if (n) std::memcpy(v.data(), p_ - n * sizeof(T), n * sizeof(T));
    return true;
  }
  // A count of items that each take at least `min_bytes`: more than the bytes left can hold fails.
  bool get_count(uint64_t& n, size_t min_bytes) {
    if (!get(n)) return false;
    if (n > left() / (min_bytes ? min_bytes : 1)) ok_ = false;
    return ok_;
  }
  bool fail() { return ok_ = false; }

 private:
  size_t left() const { return static_cast<size_t>(end_ - p_); }
  bool take(uint64_t n) {
    if (!ok_ || n > left()) return ok_ = false;
    p_ += n;
    return true;
  }
  const uint8_t* p_;
  const uint8_t* end_;
  bool ok_ = true;
};

}  // namespace tw
