// Test helpers for the importer that CHECK (the plain ones are in import_fingerprint.h):
// `import_all_ways` imports a trace whole, one byte at a time and in random chunk sizes, and CHECKs
// that every way gives the identical model: the streaming importer must not depend on where the
// chunk boundaries fall.
#pragma once
#include <doctest/doctest.h>

#include <cstdint>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "core/import/trace_importer.h"
#include "tests/core/import_fingerprint.h"

namespace tw::test {

// Imports `text` whole, one byte at a time (for texts up to `byte_limit`) and in random chunk sizes
// with fixed seeds; CHECKs that all give the same fingerprint and returns the whole-text import.
inline ImporterPtr import_all_ways(std::string_view text, size_t byte_limit = 1 << 16) {
  ImporterPtr whole = import_whole(text);
  const std::string expected = fingerprint(*whole);
  auto check = [&](ImporterPtr other, const std::string& how) {
    std::string got = fingerprint(*other);
    CHECK_MESSAGE(got == expected, "chunking: ", how, "\n", first_difference(expected, got));
  };
  if (text.size() <= byte_limit) check(import_chunked(text, [] { return size_t(1); }), "one byte at a time");
  for (uint32_t seed = 1; seed <= 4; ++seed) {
    size_t max_chunk = seed == 1 ? 3 : seed == 2 ? 17 : seed == 3 ? 200 : 4096;
    check(import_random_chunks(text, seed, max_chunk),
          "random chunks up to " + std::to_string(max_chunk) + " bytes, seed " + std::to_string(seed));
  }
  return whole;
}

// --- small lookups for assertions -----------------------------------------------------------

inline uint64_t problem_count(const TraceImporter& imp, const std::string& name) {
  auto it = imp.stats().problems.find(name);
  return it == imp.stats().problems.end() ? 0 : it->second.count;
}

inline uint64_t phase_count(const TraceImporter& imp, const std::string& ph) {
  auto it = imp.stats().phases.find(ph);
  return it == imp.stats().phases.end() ? 0 : it->second;
}

// Index of the first slice with this name in the (sorted) slice table, or -1.
inline int slice_named(TraceModel& m, std::string_view name) {
  StringId id = m.strings.find(name);
  if (id == 0 && !name.empty()) return -1;
  for (size_t i = 0; i < m.slices.size(); ++i)
    if (m.slices.name.at(i) == id) return static_cast<int>(i);
  return -1;
}

inline std::string name_of_slice(TraceModel& m, uint32_t slice) {
  return slice < m.slices.size() ? std::string(m.strings.get(m.slices.name.at(slice))) : "<none>";
}

// The source text of an event, re-read from its byte range (how full args are retrieved).
inline std::string_view source_of(std::string_view text, uint64_t offset, uint32_t length) {
  return offset + length <= text.size() ? text.substr(offset, length) : std::string_view();
}

}  // namespace tw::test
