// Test helper: a text imported in parts, the way import_parts.h describes (sequentially here), each
// part pushed in random chunks.
#pragma once
#include <cstring>
#include <vector>

#include "core/import/import_parts.h"
#include "core/import/import_state.h"
#include "tests/core/import_fingerprint.h"

namespace tw::test {

struct PartsImport {
  ImporterPtr importer;
  size_t absorbed = 0;
};

inline void push_chunked(TraceImporter& imp, std::string_view text, std::mt19937& rng, size_t max_chunk) {
  std::uniform_int_distribution<size_t> dist(1, max_chunk);
  for (size_t pos = 0; pos < text.size();) {
    size_t n = std::min(dist(rng), text.size() - pos);
    std::vector<char> chunk(text.begin() + pos, text.begin() + pos + n);  // exactly sized, for ASan
    imp.push(chunk.data(), n);
    pos += n;
  }
}

// Absorbs a later part into `first` the way a worker hands it to another: its header decoded into
// a fresh state, its columns copied byte for byte where open_part() says (part_codec.cc). `spoil`
// may change the bytes on the way. False when refused.
template <class Spoil>
bool absorb_through_bytes(TraceImporter& first, TraceImporter& part, Spoil spoil) {
  std::vector<uint8_t> header = part.state().encode_part_header();
  std::vector<std::vector<uint8_t>> columns;
  for (auto [p, n] : part.state().part_columns())
    columns.emplace_back(static_cast<const uint8_t*>(p), static_cast<const uint8_t*>(p) + n);
  spoil(header, columns);
  TraceImporter copy;
  if (!copy.state().decode_part_header(header.data(), header.size())) return false;
  auto to = first.state().open_part(copy.state());
  if (to.empty()) return false;
  bool sizes_match = to.size() == columns.size();
  for (size_t i = 0; sizes_match && i < to.size(); ++i) sizes_match = to[i].second == columns[i].size();
  if (!sizes_match) return first.state().close_part(copy.state(), false);
  for (size_t i = 0; i < to.size(); ++i)
    if (to[i].second) std::memcpy(to[i].first, columns[i].data(), to[i].second);
  return first.state().close_part(copy.state(), true);
}
inline bool absorb_through_bytes(TraceImporter& first, TraceImporter& part) {
  return absorb_through_bytes(first, part, [](auto&, auto&) {});
}

// `starts`: ascending cut offsets, each > 0 and < text.size(). `bytes`: each later part is
// absorbed through bytes (absorb_through_bytes).
inline PartsImport import_in_parts(std::string_view text, const std::vector<uint64_t>& starts, uint32_t seed = 1,
                                   size_t max_chunk = size_t(1) << 20, bool bytes = false) {
  std::mt19937 rng(seed);
  PartsImport r;
  r.importer = std::make_unique<TraceImporter>();
  const bool object_form = starts_as_object(text.substr(0, 64));
  push_chunked(*r.importer, text.substr(0, starts.empty() ? text.size() : starts[0]), rng, max_chunk);
  std::vector<ImporterPtr> later;
  std::vector<TraceImporter*> ptrs;
  for (size_t k = 0; k < starts.size(); ++k) {
    uint64_t end = k + 1 < starts.size() ? starts[k + 1] : text.size();
    later.push_back(std::make_unique<TraceImporter>());
    later.back()->begin_later_part(starts[k], object_form);
    push_chunked(*later.back(), text.substr(starts[k], end - starts[k]), rng, max_chunk);
    if (k + 1 == starts.size()) later.back()->end_input();
    ptrs.push_back(later.back().get());
  }
  auto push_bytes = [&](uint64_t b, uint64_t e, auto push) { push(text.data() + b, e - b); };
  r.absorbed =
      absorb_parts(*r.importer, ptrs, starts, text.size(), push_bytes, [bytes](TraceImporter& f, TraceImporter& part) {
        return bytes ? absorb_through_bytes(f, part) : f.absorb(part);
      });
  r.importer->finish();
  return r;
}

// Cut points where likely_event_start finds them, for `parts` parts of `text`.
inline std::vector<uint64_t> likely_starts(std::string_view text, int parts) {
  return part_starts(text.size(), parts, 1 << 16, [&](uint64_t at, size_t n) { return text.substr(at, n); });
}

}  // namespace tw::test
