// Test helper: a trace imported in parts cut at every event (import_parts_util.h), CHECKed
// against the import in one piece.
#pragma once
#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <vector>

#include "tests/core/import_parts_util.h"

namespace tw::test {

// Every offset of a '{' that starts an element of the events array, found by a plain scan of a
// text without braces in strings (a synthetic test trace).
inline std::vector<uint64_t> element_starts(std::string_view text) {
  std::vector<uint64_t> out;
  int depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '{' || c == '[') {
      if (c == '{' && depth == (text[0] == '[' ? 1 : 2)) out.push_back(i);
      ++depth;
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
  return out;
}

// Imports `text` cut in two at every element and in three at pairs of them; each must equal the
// import in one piece, and pass check_model(model) when given. Returns how many cuts were absorbed
// (not pushed again).
struct NoModelCheck {
  void operator()(TraceModel&) const {}
};
template <class CheckModel = NoModelCheck>
size_t check_every_cut(const std::string& text, CheckModel check_model = {}) {
  const std::string expected = fingerprint(*import_whole(text));
  std::vector<uint64_t> starts = element_starts(text);
  REQUIRE(starts.size() > 2);
  size_t absorbed = 0;
  for (size_t a = 1; a < starts.size(); ++a) {
    // Every other cut moves the later part through bytes, as between workers.
    PartsImport r = import_in_parts(text, {starts[a]}, static_cast<uint32_t>(a), 1 + a * 7 % 40, a % 2 == 0);
    absorbed += r.absorbed;
    check_model(r.importer->model());
    std::string got = fingerprint(*r.importer);
    CHECK_MESSAGE(got == expected, "cut at byte ", starts[a], "\n", first_difference(expected, got));
    for (size_t b = a + 1; b < starts.size(); b += 2) {
      PartsImport r3 =
          import_in_parts(text, {starts[a], starts[b]}, static_cast<uint32_t>(b), size_t(1) << 20, b % 3 == 0);
      absorbed += r3.absorbed;
      check_model(r3.importer->model());
      got = fingerprint(*r3.importer);
      CHECK_MESSAGE(got == expected, "cuts at bytes ", starts[a], ", ", starts[b], "\n",
                    first_difference(expected, got));
    }
  }
  return absorbed;
}

}  // namespace tw::test
