#include "core/base/string_pool.h"

#include <cstring>

namespace tw {

namespace {
constexpr size_t kChunkBytes = 1 << 20;
}

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
  auto it = index_.find(s);
  if (it != index_.end()) return it->second;
  std::string_view v = store(s);
  StringId id = static_cast<StringId>(views_.size());
  views_.push_back(v);
  index_.emplace(v, id);
  return id;
}

StringId StringPool::find(std::string_view s) const {
  auto it = index_.find(s);
  return it == index_.end() ? 0 : it->second;
}

size_t StringPool::memory_bytes() const {
  return chunks_.size() * kChunkBytes + views_.capacity() * sizeof(std::string_view) +
         index_.size() * (sizeof(std::string_view) + sizeof(StringId) + 2 * sizeof(void*));
}

}  // namespace tw
