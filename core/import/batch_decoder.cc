#include "core/import/batch_decoder.h"

#include <algorithm>

#include "core/import/event_records.h"

namespace tw {

char* BatchDecoder::stage(size_t data_size, size_t ref_count) {
  // The caller overwrites the data at once: only the padding is set here (resize keeps what the
  // buffer held and zero-fills only growth, which is rare once it has reached a batch's size).
  data_.resize(data_size + kBatchPadding);
  std::fill(data_.begin() + data_size, data_.end(), ' ');
  refs_.resize(ref_count);
  return data_.data();
}

std::span<const uint8_t> BatchDecoder::decode() {
  if (data_.size() < kBatchPadding) return {};  // nothing staged
  const size_t data_size = data_.size() - kBatchPadding;
  size_t n = 0;
  while (n < refs_.size() && refs_[n].begin <= data_size && refs_[n].length <= data_size - refs_[n].begin) ++n;
  const size_t used = encode_batch_records(data_.data(), refs_.data(), n, out_);
  return {out_.data(), used};
}

}  // namespace tw
