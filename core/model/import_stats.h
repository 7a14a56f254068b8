// ImportStats: what the importer saw (in model/: finalising the model records problems here too, and the
// summary reads it beside the model). Per-event problems are counted by name with the byte offset of
// the first example in the file, and import carries on; only a fatal problem (not JSON, not a trace)
// stops it.
#pragma once
#include <cstdint>
#include <map>
#include <string>

namespace tw {

struct ProblemCount {
  uint64_t count = 0;
  uint64_t first_offset = 0;
  std::string example;  // an excerpt of the input at first_offset, for the kinds that keep one
};

// The problems that are values JSON does not allow but the importer read anyway
// (core/import/json_oddities.h): each keeps an example, and the summary lists them again under
// import.invalid.
inline constexpr const char* kInvalidJsonProblems[] = {"lone_surrogate", "non_json_number"};

struct ImportStats {
  uint64_t bytes = 0;                      // input bytes seen
  uint64_t events = 0;                     // objects in the events array
  std::map<std::string, uint64_t> phases;  // ph -> count ("" when missing)
  std::map<std::string, ProblemCount> problems;
  bool truncated = false;
  // Damaged spans of the events array, skipped to the next event start (event_splitter.h): how
  // many, their bytes, and where the first began.
  uint64_t recovered_regions = 0;
  uint64_t recovered_bytes = 0;
  uint64_t recovered_first_offset = 0;
  bool fatal = false;
  std::string fatal_message;

  // Keeps the smallest offset: problems found after the import (flows, paired by id) are reported
  // out of file order.
  void problem(const std::string& name, uint64_t offset) { problem(name, 1, offset); }
  void recovered(uint64_t regions, uint64_t bytes, uint64_t first_offset) {
    if (regions == 0) return;
    if (recovered_regions == 0 || first_offset < recovered_first_offset) recovered_first_offset = first_offset;
    recovered_regions += regions;
    recovered_bytes += bytes;
  }
  // `count` problems at once, the smallest of their offsets given: for loops that count locally (a
  // call per problem builds the name's string and looks it up in the map each time).
  void problem(const std::string& name, uint64_t count, uint64_t first_offset) {
    if (count == 0) return;
    ProblemCount& p = problems[name];
    if (p.count == 0 || first_offset < p.first_offset) p.first_offset = first_offset;
    p.count += count;
  }
  // One problem with an example of it; `example()` (returning the excerpt) is called only when
  // this occurrence becomes the first.
  template <class Example>
  void problem_with_example(const std::string& name, uint64_t offset, Example example) {
    ProblemCount& p = problems[name];
    if (p.count == 0 || offset < p.first_offset) p.first_offset = offset, p.example = example();
    ++p.count;
  }
};

}  // namespace tw
