// Damage inside the events array is skipped, never the rest of the file: the import of a damaged
// trace equals the import of the same trace with the damaged span cut out (compared without byte
// offsets, which shift), whole, in any chunking and in parts. Each mutation is placed on purpose
// (between two events, or cutting one event short) in real traces.
#include <doctest/doctest.h>

#include <random>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "tests/core/fuzz_util.h"
#include "tests/core/import_parts_util.h"
#include "tests/core/import_test_util.h"

using namespace tw;
using namespace tw::test;

namespace {

// [begin, end) of each event object of a valid trace's events array.
std::vector<std::pair<size_t, size_t>> event_spans(const std::string& text) {
  std::vector<std::pair<size_t, size_t>> spans;
  size_t i = text.find("\"traceEvents\"");
  i = text.find('[', i == std::string::npos ? 0 : i);
  int depth = 0;
  bool in_string = false, escape = false;
  size_t begin = 0;
  for (++i; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (escape) escape = false;
      else if (c == '\\') escape = true;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      if (depth++ == 0) begin = i;
    } else if (c == '}' || c == ']') {
      if (depth == 0) break;  // the events array's ']'
      if (--depth == 0 && c == '}') spans.emplace_back(begin, i + 1);
    }
  }
  return spans;
}

// The fingerprint without what moves with the bytes: offsets, the byte count and the per-event
// counters (objects inside a damaged event may be read as junk "events" and counted as problems).
std::string content(TraceImporter& imp) {
  static const std::regex src(" src [0-9]+:[0-9]+");
  std::string out;
  std::string fp = fingerprint(imp);
  size_t pos = 0;
  while (pos < fp.size()) {
    size_t end = fp.find('\n', pos);
    std::string line = fp.substr(pos, end - pos);
    pos = end + 1;
    if (line.rfind("bytes ", 0) == 0 || line.rfind("phase ", 0) == 0 || line.rfind("problem ", 0) == 0) continue;
    out += std::regex_replace(line, src, "") + '\n';
  }
  return out;
}

// The damaged text imported whole, byte-chunked and in parts: all give one fingerprint, whose
// content equals the expected text's.
void check_recovers(const std::string& damaged, const std::string& expected, const std::string& what) {
  INFO(what);
  ImporterPtr whole = import_all_ways(damaged, 1 << 14);
  CHECK_FALSE(whole->stats().fatal);
  std::string want = content(*import_whole(expected));
  std::string got = content(*whole);
  CHECK_MESSAGE(got == want, first_difference(want, got));
  PartsImport parts = import_in_parts(damaged, likely_starts(damaged, 3));
  std::string whole_fp = fingerprint(*whole), parts_fp = fingerprint(*parts.importer);
  CHECK_MESSAGE(parts_fp == whole_fp, "parts\n", first_difference(whole_fp, parts_fp));
}

}  // namespace

TEST_CASE("recovery: any byte between two events loses nothing" * doctest::timeout(300)) {
  std::mt19937 rng(fuzz_seed(97531u));
  for (const std::string& text : import_fuzz_seeds()) {
    REQUIRE(!text.empty());
    auto spans = event_spans(text);
    REQUIRE(spans.size() >= 2);
    for (int b = 0; b < 256; b += 1 + static_cast<int>(rng() % 7)) {
      size_t k = 1 + rng() % (spans.size() - 1);
      std::string damaged = text;
      damaged.insert(spans[k].first, 1, static_cast<char>(b));
      check_recovers(damaged, text, "byte " + std::to_string(b) + " before event " + std::to_string(k));
    }
    std::string stray = text;
    stray.insert(spans[spans.size() / 2].first, ",}");
    check_recovers(stray, text, "a stray ,} between two events");
  }
}

TEST_CASE("recovery: an event cut short loses only that event" * doctest::timeout(300)) {
  std::mt19937 rng(fuzz_seed(86420u));
  for (const std::string& text : import_fuzz_seeds()) {
    auto spans = event_spans(text);
    REQUIRE(spans.size() >= 2);
    for (int round = 0; round < 24; ++round) {
      size_t k = rng() % (spans.size() - 1);  // not the last: the file would end in it (truncated)
      auto [b, e] = spans[k];
      size_t keep = 1 + rng() % (e - b - 1);
      std::string damaged = text.substr(0, b + keep) + text.substr(e);
      std::string expected = text.substr(0, b) + text.substr(e);
      ImporterPtr imp = import_whole(damaged);
      CHECK(imp->stats().recovered_regions >= 1);
      CHECK(imp->stats().recovered_first_offset == b);
      check_recovers(damaged, expected,
                     "event " + std::to_string(k) + " cut after " + std::to_string(keep) + " of " +
                         std::to_string(e - b) + " bytes");
    }
  }
}

TEST_CASE("recovery: DeepSeek's training trace with a stray byte before its 100th event") {
  std::string text = read_data("deepseek_profile_data/train.json.gz");
  REQUIRE(text.size() == 3132978);
  auto spans = event_spans(text);
  REQUIRE(spans.size() == 14240);
  std::string damaged = text;
  damaged.insert(spans[99].first, "@");
  ImporterPtr imp = import_whole(damaged);
  CHECK(imp->stats().events == 14240);
  CHECK_FALSE(imp->stats().truncated);
  CHECK(imp->stats().recovered_regions == 1);
  CHECK(imp->stats().recovered_bytes == 1);
  CHECK(imp->stats().recovered_first_offset == spans[99].first);
  CHECK(content(*imp) == content(*import_whole(text)));
  PartsImport parts = import_in_parts(damaged, likely_starts(damaged, 4));
  CHECK(fingerprint(*parts.importer) == fingerprint(*imp));
}

// Found by the libFuzzer harness (bench/fuzz): a part cut after a non-object element that still
// waits for its ',' was absorbed as if it began between events, and counted the next string twice.
TEST_CASE("recovery: a part cut anywhere in damage gives the whole import's result") {
  for (const std::string& text :
       {std::string("{\n  \"traceEvents\": [\n \"ac2g\" \"{\"cat\": \" PERF\",\""),
        std::string(R"([{"ph":"i","ts":1,"name":"a"}, 7 "x" {"ph":"i","ts":2}, @ {"ph":"i","ts":3}])")}) {
    const std::string whole = fingerprint(*import_whole(text));
    for (uint64_t cut = 1; cut < text.size(); ++cut) {
      PartsImport parts = import_in_parts(text, {cut});
      std::string got = fingerprint(*parts.importer);
      CHECK_MESSAGE(got == whole, "cut at ", cut, "\n", first_difference(whole, got));
    }
  }
}
