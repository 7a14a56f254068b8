// Golden test over every real trace in tests/data: for each file MANIFEST.tsv lists as a
// trace, import.events and the per-phase counts equal the MANIFEST's `event_count` and `phases`;
// files that are not trace-event JSON give the fatal error (one sentence with a byte offset), not a
// crash; the odd speedscope files load with the right counts and problems; Perfetto's flow test
// files give the flows Perfetto's own diff tests expect. Nothing may crash (this binary also runs
// under ASan + UBSan).
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "cli/file_reader.h"
#include "tests/core/import_test_util.h"
#include "tests/core/test_data.h"

using namespace tw::test;

namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

struct ManifestRow {
  std::string path, kind, phases;
  uint64_t uncompressed_bytes = 0;
  uint64_t event_count = 0;
};

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  std::istringstream in(s);
  while (std::getline(in, cur, sep)) out.push_back(cur);
  if (!s.empty() && s.back() == sep) out.push_back("");
  return out;
}

std::vector<ManifestRow> read_manifest() {
  std::ifstream in(data_dir() + "/MANIFEST.tsv");
  std::vector<ManifestRow> rows;
  std::string line;
  if (!std::getline(in, line)) return rows;
  std::vector<std::string> header = split(line, '\t');
  auto col = [&header](const char* name) {
    return static_cast<size_t>(std::find(header.begin(), header.end(), name) - header.begin());
  };
  size_t c_path = col("local_path"), c_kind = col("kind"), c_events = col("event_count"), c_phases = col("phases"),
         c_size = col("uncompressed_bytes");
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::vector<std::string> f = split(line, '\t');
    if (f.size() < header.size()) f.resize(header.size());
    ManifestRow r;
    r.path = f[c_path];
    r.kind = f[c_kind];
    r.phases = f[c_phases];
    r.event_count = f[c_events].empty() ? 0 : std::stoull(f[c_events]);
    r.uncompressed_bytes = f[c_size].empty() ? 0 : std::stoull(f[c_size]);
    rows.push_back(r);
  }
  return rows;
}

// "X:113 M:60 f:25" -> {X:113, M:60, f:25}
std::map<std::string, uint64_t> parse_phases(const std::string& s) {
  std::map<std::string, uint64_t> out;
  for (const std::string& item : split(s, ' ')) {
    size_t colon = item.rfind(':');
    if (item.empty() || colon == std::string::npos) continue;
    out[item.substr(0, colon)] = std::stoull(item.substr(colon + 1));
  }
  return out;
}

std::string phases_text(const std::map<std::string, uint64_t>& m) {
  std::string s;
  for (const auto& [k, v] : m) s += k + ":" + std::to_string(v) + " ";
  return s;
}

ImporterPtr import_file(const std::string& path, tw::ReadResult* result = nullptr) {
  auto imp = std::make_unique<tw::TraceImporter>();
  tw::ReadResult r = tw::stream_file(path, [&](const char* p, size_t n) { imp->push(p, n); });
  imp->finish();
  if (result) *result = r;
  return imp;
}

bool is_trace(const ManifestRow& r) { return r.kind.rfind("not-trace-event", 0) != 0; }

// Under ASan the importer runs several times slower: traces above 256 MB would be left to the
// native run (today every test trace is below that, so all of them run under ASan too).
bool too_big_for_this_build(const ManifestRow& r) { return kSanitized && r.uncompressed_bytes > (256u << 20); }

std::vector<std::string> flow_names(tw::TraceModel& m) {
  std::vector<std::string> out;
  for (const tw::Flow& f : m.flows) out.push_back(name_of_slice(m, f.from_slice) + "->" + name_of_slice(m, f.to_slice));
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("golden: every MANIFEST trace imports with the MANIFEST's event and phase counts" *
          doctest::test_suite("corpus")) {
  std::vector<ManifestRow> rows = read_manifest();
  REQUIRE_MESSAGE(rows.size() >= 50, "MANIFEST.tsv not found or short under " << data_dir());
  size_t traces = 0, not_traces = 0, skipped = 0;
  for (const ManifestRow& row : rows) {
    CAPTURE(row.path);
    if (too_big_for_this_build(row)) {
      ++skipped;
      continue;
    }
    tw::ReadResult rr;
    ImporterPtr imp = import_file(data_path(row.path), &rr);
    REQUIRE_MESSAGE(rr.ok, rr.error);
    const tw::ImportStats& st = imp->stats();
    if (!is_trace(row)) {
      ++not_traces;
      CHECK(st.fatal);
      CHECK(st.fatal_message.rfind("Not a trace: ", 0) == 0);
      CHECK(st.fatal_message.find("(at byte ") != std::string::npos);
      CHECK(st.fatal_message.find('\n') == std::string::npos);
      continue;
    }
    ++traces;
    REQUIRE_MESSAGE(!st.fatal, st.fatal_message);
    CHECK(st.events == row.event_count);
    std::map<std::string, uint64_t> expected = parse_phases(row.phases);
    CHECK_MESSAGE(st.phases == expected, "expected " << phases_text(expected) << "got " << phases_text(st.phases));
    CHECK(rr.gzip_truncated == false);
    bool partial = row.path.find("simple-partial") != std::string::npos;
    CHECK(st.truncated == partial);
    // Every slice's source range points at an event object inside the file.
    tw::TraceModel& m = imp->model();
    for (size_t i = 0; i < m.slices.size(); ++i) {
      if (m.slices.src_offset_at(i) + m.slices.src_length_at(i) > st.bytes || m.slices.src_length_at(i) < 2) {
        FAIL_CHECK("slice " << i << " has a source range outside the file");
        break;
      }
    }
  }
  MESSAGE("golden traces: " << traces << " traces, " << not_traces << " non-traces, " << skipped
                            << " skipped in this (sanitized) build");
  CHECK(not_traces == 2);
}

TEST_CASE("golden: the odd speedscope trace-event files") {
  const std::string dir = data_dir() + "/speedscope/sample/profiles/trace-event/";
  SUBCASE("partial files load the complete events and report the truncation") {
    for (const char* name :
         {"simple-partial.json", "simple-partial-trailing-comma.json", "simple-partial-whitespace.json"}) {
      CAPTURE(name);
      auto imp = import_file(dir + name);
      CHECK(imp->stats().events == 6);
      CHECK(imp->stats().truncated);
      CHECK(problem_count(*imp, "truncated_event") == 0);
      CHECK(imp->model().slices.size() == 4);  // 2 X + 2 matched B/E
      CHECK(problem_count(*imp, "unclosed_begin") == 0);
    }
  }
  SUBCASE("too many end events") {
    auto imp = import_file(dir + "too-many-end-events.json");
    CHECK(problem_count(*imp, "unmatched_end") == 2);
    CHECK(imp->model().slices.size() == 2);
  }
  SUBCASE("X events without dur, zero-duration events, B/E/X interaction") {
    auto simple = import_file(dir + "simple.json");
    CHECK(simple->model().slices.size() == 4);
    auto zero = import_file(dir + "zero-duration-events.json");
    CHECK(zero->model().slices.size() == 4);
    CHECK(zero->stats().problems.count("unmatched_end") == 0);
    auto bex = import_file(dir + "bex-interaction.json");
    CHECK(bex->model().slices.size() == 12);
  }
  SUBCASE("string timestamps, string tids and extra top-level keys") {
    auto imp = import_file(dir + "simple-with-samples.json");
    CHECK(imp->stats().events == 2);
    CHECK(imp->stats().problems.empty());
    tw::TraceModel& m = imp->model();
    REQUIRE(m.processes.size() == 1);
    CHECK(m.strings.get(m.processes[0].name) == "hermes");
  }
  SUBCASE("metadata without ts in several processes") {
    auto imp = import_file(dir + "multiprocess.json");
    CHECK(imp->model().slices.size() == 8);
    CHECK(problem_count(*imp, "missing_ts") == 0);
  }
}

TEST_CASE("golden: Perfetto's flow test files give the flows Perfetto expects") {
  const std::string dir = data_dir() + "/perfetto/test/trace_processor/diff_tests/parser/parsing/";
  auto v1 = import_file(dir + "flow_events_json_v1.json");
  CHECK(flow_names(v1->model()) ==
        std::vector<std::string>{"OtherSlice->SomeSlice", "SenderA->OtherSlice", "SenderB->Blergh"});
  auto v2 = import_file(dir + "flow_events_json_v2.json");
  CHECK(flow_names(v2->model()) == std::vector<std::string>{"OtherSlice->SomeOtherSlice", "OtherSlice->SomeSlice",
                                                            "SenderA->OtherSlice", "SenderB->Blergh"});
}

TEST_CASE("golden: a real Kineto trace gives the identical model in any chunking") {
  // 3 MB, 14k events: whole vs random chunks (byte-at-a-time is covered by the unit tests).
  const std::string text = read_data("deepseek_profile_data/train.json");
  REQUIRE(!text.empty());
  auto whole = import_whole(text);
  CHECK(whole->stats().events == 14240);
  CHECK(whole->model().launches.size() > 900);
  const std::string expected = fingerprint(*whole);
  for (uint32_t seed : {11u, 12u}) {
    auto chunked = import_random_chunks(text, seed, seed == 11 ? 64 : 70000);
    std::string got = fingerprint(*chunked);
    CHECK_MESSAGE(got == expected, "seed ", seed, "\n", first_difference(expected, got));
  }
}
