// Test helper: a text imported in parts, the way import_parts.h describes (sequentially here), each
// part pushed in random chunks.
#pragma once
#include <cstring>

#include "core/import/import_parts.h"
#include "core/import/import_state.h"
#include "tests/core/import_test_util.h"

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

// A later part moved to a fresh importer the way a worker hands it to another: its header and its
// columns as bytes (part_codec.cc). Null when the copy is refused.
inline ImporterPtr through_bytes(TraceImporter& part) {
  std::vector<uint8_t> header = part.state().encode_part_header();
  auto copy = std::make_unique<TraceImporter>();
  if (!copy->state().decode_part_header(header.data(), header.size())) return nullptr;
  auto from = part.state().part_columns();
  auto to = copy->state().part_columns();
  if (from.size() != to.size()) return nullptr;
  for (size_t i = 0; i < from.size(); ++i) {
    if (from[i].second != to[i].second) return nullptr;
    if (from[i].second) std::memcpy(to[i].first, from[i].first, from[i].second);
  }
  return copy->state().part_is_consistent() ? std::move(copy) : nullptr;
}

// `starts`: ascending cut offsets, each > 0 and < text.size(). `bytes`: each later part goes
// through_bytes() before it is absorbed.
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
    if (bytes) {
      ImporterPtr copy = through_bytes(*later.back());
      REQUIRE(copy);
      later.back() = std::move(copy);
    }
    ptrs.push_back(later.back().get());
  }
  r.absorbed = absorb_parts(*r.importer, ptrs, starts, text.size(), [&](uint64_t b, uint64_t e, auto push) {
    push(text.data() + b, e - b);
  });
  r.importer->finish();
  return r;
}

// Cut points where likely_event_start finds them, for `parts` parts of `text`.
inline std::vector<uint64_t> likely_starts(std::string_view text, int parts) {
  return part_starts(text.size(), parts, 1 << 16, [&](uint64_t at, size_t n) { return text.substr(at, n); });
}

}  // namespace tw::test
