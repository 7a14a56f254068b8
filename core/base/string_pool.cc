#include "core/base/string_pool.h"

#include <cstring>

#include "core/base/same_bytes.h"

namespace tw {

namespace {
constexpr size_t kChunkBytes = 1 << 20;

uint64_t word_at(const char* p) {
  uint64_t w;
  std::memcpy(&w, p, 8);
  return w;
}

size_t cache_slot(std::string_view s, size_t slots) {
  size_t n = s.size();
  uint64_t a = 0, b = 0, c = 0;
  if (n >= 8) {
    a = word_at(s.data());
    b = word_at(s.data() + n - 8);
    if (n >= 24) c = word_at(s.data() + n / 2 - 4);
  } else if (n > 0) {
    std::memcpy(&a, s.data(), n);
  }
  uint64_t h = (n + 1) * 0x9E3779B97F4A7C15ULL;
  h ^= a * 0xC2B2AE3D27D4EB4FULL;
  h = (h ^ (h >> 29)) * 0xBF58476D1CE4E5B9ULL;
  h ^= b * 0x165667B19E3779F9ULL + c * 0xFF51AFD7ED558CCDULL;
  h ^= h >> 32;
  return static_cast<size_t>(h) & (slots - 1);
}
}  // namespace

StringPool::StringPool() {
  views_.push_back(std::string_view());
  index_.emplace(std::string_view(), 0);
}

std::string_view StringPool::store(std::string_view s) {
  if (s.size() > kChunkBytes / 4) {  // big strings get a chunk of their own
    chunks_.emplace_back(new char[s.size()]);
    std::memcpy(chunks_.back().get(), s.data(), s.size());
    std::string_view v(chunks_.back().get(), s.size());
    // keep the current small chunk as the one to fill
    if (chunks_.size() >= 2) std::swap(chunks_[chunks_.size() - 1], chunks_[chunks_.size() - 2]);
    stored_bytes_ += s.size();
    return v;
  }
  if (chunks_.empty() || chunk_used_ + s.size() > chunk_size_) {
    chunks_.emplace_back(new char[kChunkBytes]);
    chunk_size_ = kChunkBytes;
    chunk_used_ = 0;
  }
  char* dst = chunks_.back().get() + chunk_used_;
  std::memcpy(dst, s.data(), s.size());
  chunk_used_ += s.size();
  stored_bytes_ += s.size();
  return std::string_view(dst, s.size());
}

StringId StringPool::intern(std::string_view s) {
  StringId& cached = cache_[cache_slot(s, kCacheSlots)];
  if (same_bytes(views_[cached], s)) return cached;  // slots start at id 0, the empty string
  auto it = index_.find(s);
  if (it != index_.end()) return cached = it->second;
  std::string_view v = store(s);
  StringId id = static_cast<StringId>(views_.size());
  views_.push_back(v);
  index_.emplace(v, id);
  return cached = id;
}

StringId StringPool::find(std::string_view s) const {
  auto it = index_.find(s);
  return it == index_.end() ? 0 : it->second;
}

size_t StringPool::memory_bytes() const {
  return chunks_.size() * kChunkBytes + cache_.capacity() * sizeof(StringId) +
         views_.capacity() * sizeof(std::string_view) +
         index_.size() * (sizeof(std::string_view) + sizeof(StringId) + 2 * sizeof(void*));
}

}  // namespace tw
