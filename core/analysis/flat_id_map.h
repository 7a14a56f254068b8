// A hash map from 64-bit keys (ids, or two 32-bit ids packed) to dense 32-bit slots, for analyses
// that look a key up once per row: open addressing with linear probing in one flat array and a
// multiplicative hash, so a lookup is a multiply, a shift and (usually) one probe. std::unordered_map
// allocates a node per key and, in wasm's 32-bit size_t, hashes 64-bit keys in two halves and
// divides by a prime per lookup.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tw {

class FlatIdMap {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;

  // The slot of `key`, or kNone.
  uint32_t find(uint64_t key) const {
    if (size_ == 0) return kNone;
    for (size_t i = home(key);; i = (i + 1) & mask_) {
      if (slots_[i] == kNone) return kNone;
      if (keys_[i] == key) return slots_[i];
    }
  }

  // The slot of `key`; when absent, inserts it with slot `fresh` and sets *inserted.
  uint32_t emplace(uint64_t key, uint32_t fresh, bool* inserted) {
    if ((size_ + 1) * 2 > slots_.size()) grow();
    for (size_t i = home(key);; i = (i + 1) & mask_) {
      if (slots_[i] == kNone) {
        keys_[i] = key;
        slots_[i] = fresh;
        ++size_;
        *inserted = true;
        return fresh;
      }
      if (keys_[i] == key) {
        *inserted = false;
        return slots_[i];
      }
    }
  }

  size_t size() const { return size_; }

 private:
  size_t home(uint64_t key) const {
    return static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> shift_) & mask_;  // Fibonacci hashing
  }

  void grow() {
    std::vector<uint64_t> old_keys = std::move(keys_);
    std::vector<uint32_t> old_slots = std::move(slots_);
    const size_t cap = old_slots.empty() ? 64 : old_slots.size() * 2;
    keys_.assign(cap, 0);
    slots_.assign(cap, kNone);
    mask_ = cap - 1;
    shift_ = 64;
    for (size_t c = cap; c > 1; c >>= 1) --shift_;  // the top log2(cap) bits of the product
    size_ = 0;
    bool inserted;
    for (size_t i = 0; i < old_slots.size(); ++i)
      if (old_slots[i] != kNone) emplace(old_keys[i], old_slots[i], &inserted);
  }

  std::vector<uint64_t> keys_;
  std::vector<uint32_t> slots_;  // kNone = empty
  size_t size_ = 0;
  size_t mask_ = 0;
  unsigned shift_ = 64;
};

}  // namespace tw
