#include "core/load_session.h"

#include "core/import/import_state.h"

namespace tw {

char* LoadSession::input_buffer(size_t size) {
  if (input_.size() < size) input_.resize(size);
  return input_.data();
}

void LoadSession::finish() {
  session_.finish();
  std::vector<char>().swap(input_);
}

std::span<const uint8_t> LoadSession::part_header() {
  part_header_ = session_.importer().state().encode_part_header();
  return part_header_;
}

std::vector<std::pair<const void*, size_t>> LoadSession::part_columns() {
  std::vector<std::pair<const void*, size_t>> out;
  for (auto [p, n] : session_.importer().state().part_columns()) out.emplace_back(p, n);
  return out;
}

uint8_t* LoadSession::part_buffer(size_t size) {
  part_header_.resize(size);
  return part_header_.data();
}

std::vector<size_t> LoadSession::load_part(size_t size) {
  pending_columns_.clear();
  pending_ = std::make_unique<TraceImporter>();
  const bool ok = size <= part_header_.size() && pending_->state().decode_part_header(part_header_.data(), size);
  std::vector<uint8_t>().swap(part_header_);
  if (ok) pending_columns_ = session_.importer().state().open_part(pending_->state());
  // Where the part's columns go: its table rows straight to the end of this session's tables.
  std::vector<size_t> sizes;
  for (auto [p, n] : pending_columns_) sizes.push_back(n);
  if (sizes.empty()) pending_.reset();
  return sizes;
}

bool LoadSession::close_part(bool absorb) {
  const bool ok = pending_ && session_.importer().state().close_part(pending_->state(), absorb);
  pending_.reset();
  pending_columns_.clear();
  return ok;
}

}  // namespace tw
