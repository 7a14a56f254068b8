// LoadSession: a Session as the page's workers drive it. Input is copied once into a buffer the
// caller writes in place (input_buffer / push_input) and never kept; a file may be imported in
// parts, each later part in a session of its own whose columns are moved into this one
// (core/import/import_parts.h). The wasm bindings
// list its functions; the state of a load lives here.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/session.h"
#include "core/timeline_session.h"

namespace tw {

class LoadSession {
 public:
  explicit LoadSession(std::string name) : session_(std::move(name)) {}

  Session& session() { return session_; }
  // The timeline of this trace (its index is built on first use, after finish()).
  TimelineSession& timeline() { return timeline_; }

  // --- input ----------------------------------------------------------------------------------
  // A buffer of at least `size` bytes for the caller to fill (valid until the next call), then
  // push_input(size) imports it.
  char* input_buffer(size_t size);
  void push_input(size_t size) { session_.push(input_.data(), size); }
  // Optional, before the first push: the expected uncompressed bytes (file size, gzip trailer).
  void set_size_hint(uint64_t bytes) { session_.set_size_hint(bytes); }
  // Ends the import; the input buffer is released.
  void finish();

  // --- a file imported in parts ----------------------------------------------------------------------
  // In a part worker once its input ended: the part's header, then its columns, to copy at once.
  std::span<const uint8_t> part_header();
  std::vector<std::pair<const void*, size_t>> part_columns();
  // In the absorbing session: the header is copied to part_buffer(size); load_part(size) gives the
  // byte lengths of the columns (empty: refused), each copied to part_column_address(i); then
  // absorb_part() appends the part (false: refused, and the caller pushes the part's bytes instead)
  // or drop_part() lets it go.
  uint8_t* part_buffer(size_t size);
  std::vector<size_t> load_part(size_t size);
  void* part_column_address(size_t i) const {
    return i < pending_columns_.size() ? pending_columns_[i].first : nullptr;
  }
  bool absorb_part() { return close_part(true); }
  void drop_part() { close_part(false); }

 private:
  bool close_part(bool absorb);

  Session session_;
  TimelineSession timeline_{session_};
  std::vector<char> input_;
  std::vector<uint8_t> part_header_;
  std::unique_ptr<TraceImporter> pending_;  // a later part being copied in
  std::vector<std::pair<void*, size_t>> pending_columns_;
};

}  // namespace tw
