// StringPool: interns strings to dense uint32 ids. Id 0 is always the empty string, so a zeroed
// column means "no string". Storage is chunked so views stay valid while the pool grows.
#pragma once
#include <cstdint>
#include <memory>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tw {

using StringId = uint32_t;

class StringPool {
 public:
  StringPool();
  StringId intern(std::string_view s);
  // Returns the id if the string is already interned, otherwise 0 (and "" is id 0 too).
  StringId find(std::string_view s) const;
  std::string_view get(StringId id) const { return views_[id]; }
  size_t size() const { return views_.size(); }
  size_t memory_bytes() const;

 private:
  std::string_view store(std::string_view s);
  std::vector<std::unique_ptr<char[]>> chunks_;
  size_t chunk_used_ = 0;
  size_t chunk_size_ = 0;
  size_t stored_bytes_ = 0;
  std::vector<std::string_view> views_;
  std::unordered_map<std::string_view, StringId> index_;
  // Direct-mapped cache in front of index_: a cheap hash (length and a few 8-byte words) picks a
  // slot holding the id of a recently interned string, verified by comparing the text. Traces
  // repeat the same names and categories, so most lookups skip hashing the whole string.
  static constexpr size_t kCacheSlots = 4096;
  std::vector<StringId> cache_ = std::vector<StringId>(kCacheSlots, 0);
};

}  // namespace tw
