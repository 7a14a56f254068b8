// Bad input: every trace is untrusted. Each case must give a clear fatal message (one sentence with
// the byte offset) or a counted problem, never a crash and never a hang, and (where small enough)
// the same result in any chunking. Ends with a fuzz loop over random mutations of real traces with
// a fixed seed.
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "tests/core/fuzz_util.h"
#include "tests/core/import_test_util.h"

using namespace tw::test;

namespace {

void check_fatal_sentence(const tw::ImportStats& st, const char* must_contain) {
  CHECK(st.fatal);
  CHECK(st.fatal_message.rfind("Not a trace: ", 0) == 0);
  CHECK(st.fatal_message.find(must_contain) != std::string::npos);
  CHECK(st.fatal_message.find("(at byte ") != std::string::npos);
  CHECK(st.fatal_message.find('\n') == std::string::npos);
}

std::string nested(size_t depth, const char* open, const char* close, const char* inner = "1") {
  std::string s;
  s.reserve(depth * 2 + 8);
  for (size_t i = 0; i < depth; ++i) s += open;
  s += inner;
  for (size_t i = 0; i < depth; ++i) s += close;
  return s;
}

// Pushes a header, `filler_bytes` of 'x' generated chunk by chunk (never one big buffer), a trailer.
ImporterPtr import_with_filler(const std::string& head, size_t filler_bytes, const std::string& tail) {
  auto imp = std::make_unique<tw::TraceImporter>();
  imp->push(head.data(), head.size());
  std::string chunk(1 << 20, 'x');
  for (size_t left = filler_bytes; left > 0;) {
    size_t n = std::min(left, chunk.size());
    imp->push(chunk.data(), n);
    left -= n;
  }
  imp->push(tail.data(), tail.size());
  imp->finish();
  return imp;
}

}  // namespace

TEST_CASE("bad input: empty file, only whitespace, a lone BOM") {
  check_fatal_sentence(import_all_ways("")->stats(), "empty");
  check_fatal_sentence(import_all_ways(" \n\t\r\n ")->stats(), "only whitespace");
  check_fatal_sentence(import_all_ways("\xEF\xBB\xBF")->stats(), "only whitespace");
}

TEST_CASE("bad input: a PNG, gzip that was not decompressed, a zip, plain text") {
  const std::string png("\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10", 20);
  check_fatal_sentence(import_all_ways(png)->stats(), "PNG");
  const std::string gz("\x1f\x8b\x08\0\0\0\0\0\0\x03\xab\xae\x05\0", 14);
  check_fatal_sentence(import_all_ways(gz)->stats(), "gzip");
  check_fatal_sentence(import_all_ways("PK\x03\x04....")->stats(), "zip");
  auto text = import_all_ways("  hello world");
  check_fatal_sentence(text->stats(), "does not start with");
  CHECK(text->stats().fatal_message.find("(at byte 2)") != std::string::npos);
}

TEST_CASE("bad input: random bytes never crash") {
  std::mt19937 rng(20240601);
  for (int round = 0; round < 200; ++round) {
    std::string bytes(1 + rng() % 2000, '\0');
    for (char& c : bytes) c = static_cast<char>(rng());
    if (round % 3 == 1) bytes[0] = '[';  // make some of them get past the first byte
    if (round % 3 == 2) bytes = "{\"traceEvents\":[" + bytes;
    auto imp = import_all_ways(bytes);
    const tw::ImportStats& st = imp->stats();
    CHECK((st.fatal || !st.problems.empty() || st.truncated || st.recovered_regions > 0));
  }
}

TEST_CASE("bad input: JSON that is not a trace") {
  check_fatal_sentence(import_all_ways(R"({"a":1})")->stats(), "no \"traceEvents\" array");
  check_fatal_sentence(import_all_ways(R"({"traceEvents":5})")->stats(), "no \"traceEvents\" array");
  // A PyTorch Execution Trace (saved beside the profiler's trace) is named as such.
  check_fatal_sentence(
      import_all_ways(
          R"({"schema":"1.0.1","pid":7,"nodes":[{"name":"[pytorch|profiler|execution_graph|thread]","id":1}],"finish_ts":9})")
          ->stats(),
      "PyTorch Execution Trace");
  check_fatal_sentence(import_all_ways(R"({"traceEvents":{"ph":"X"}})")->stats(), "no \"traceEvents\" array");
  check_fatal_sentence(import_all_ways(R"({"schema":"et","nodes":[)")->stats(), "ends before");
  check_fatal_sentence(import_all_ways("\"just a string\"")->stats(), "does not start with");
  check_fatal_sentence(import_all_ways("42")->stats(), "does not start with");
  check_fatal_sentence(import_all_ways("{,}")->stats(), "no \"traceEvents\" array");  // stray commas are tolerated
  check_fatal_sentence(import_all_ways("{]")->stats(), "not valid JSON");
  check_fatal_sentence(import_all_ways("{\"a\" 1}")->stats(), "not valid JSON");
}

TEST_CASE("bad input: events that are not objects") {
  check_fatal_sentence(import_all_ways(R"([1, "two", null, true, [3], -4.5e1])")->stats(), "no event objects");
  auto mixed = import_all_ways(R"([1, {"ph":"i","name":"ok","ts":1}, "x]}", [{"ph":"X"}], null])");
  CHECK_FALSE(mixed->stats().fatal);
  // An array that opens with an object is taken for a stray '[' before an event (damage): its
  // object is read as an event, and its ']' ends the events array, so the rest is a skipped span.
  CHECK(mixed->stats().events == 2);
  CHECK(problem_count(*mixed, "skipped_non_object") == 2);  // 1 and "x]}"
  CHECK(mixed->stats().problems.at("skipped_non_object").first_offset == 1);
  CHECK(mixed->stats().recovered_regions == 2);
  CHECK(mixed->model().instants.size() == 1);
  // The memory-timeline shape: an array of arrays.
  check_fatal_sentence(import_all_ways(R"([[1, 2, 3, 4], [5, 6, 7, 8]])")->stats(), "no event objects");
}

TEST_CASE("bad input: broken structure between events is skipped, the events after it load") {
  auto stray = import_all_ways(R"({"traceEvents":[{"ph":"i","ts":1,"name":"a"}}, {"ph":"i","ts":2}]})");
  CHECK_FALSE(stray->stats().fatal);
  CHECK(stray->stats().events == 2);
  CHECK(stray->stats().recovered_regions == 1);
  CHECK(stray->stats().recovered_first_offset == 44);  // the stray '}'
  CHECK(stray->stats().recovered_bytes == 3);          // "}, " up to the next event
  CHECK_FALSE(stray->stats().truncated);
  auto colon = import_all_ways(R"([{"ph":"i","ts":1,"name":"a"}:{"ph":"i","ts":2}])");
  CHECK(colon->stats().events == 2);
  CHECK(colon->stats().recovered_regions == 1);
  // A stray ']' closes the events array early: the events after it still load.
  auto bracket = import_all_ways(R"({"traceEvents":[{"ph":"i","ts":1,"name":"a"}], {"ph":"i","ts":2}], "x": 1})");
  CHECK(bracket->stats().events == 2);
  CHECK(bracket->stats().recovered_regions == 1);
  // An event that never closes: the stream ends inside it.
  std::string opens;
  for (int i = 0; i < 1000; ++i) opens += "{\"a\":";
  auto open = import_all_ways(R"([{"ph":"i","ts":1,"name":"a"},)" + opens);
  CHECK(open->stats().events == 1);
  CHECK(open->stats().truncated);
  CHECK(open->stats().recovered_regions == 0);
  // An unterminated string.
  auto str = import_all_ways(R"([{"ph":"i","ts":1,"name":"a"},{"ph":"i","name":"never ends)");
  CHECK(str->stats().events == 1);
  CHECK(problem_count(*str, "truncated_event") == 1);
}

TEST_CASE("bad input: invalid JSON inside an event is counted or skipped, the rest loads") {
  auto imp = import_all_ways(R"([
    {"ph":"X","name":"a","ts":1,"dur":1,"args":{"x":tru}},
    {"ph":"X","name":"b","ts":NaN,"dur":1},
    {"ph":"X","name":"c","ts":Infinity,"dur":1},
    {"ph":"X","name":"d" "ts":1},
    {"ph":"X","name":"e","ts":1,"dur":1,"args":{"x":01}},
    {"ph":"X","name":"f","ts":1,"dur":1,"args":{"x":"\q"}},
    {"ph":"X","name":"ok","ts":1,"dur":1}])");
  // The missing comma breaks the structure: that event is a skipped span; the others are events.
  CHECK(imp->stats().events == 6);
  CHECK(imp->stats().recovered_regions == 1);
  tw::TraceModel& m = imp->model();
  CHECK(slice_named(m, "ok") >= 0);
  CHECK(problem_count(*imp, "bad_ts") == 2);  // NaN, Infinity
  CHECK(slice_named(m, "d") < 0);
  // The decoder (simdjson On-Demand) does not validate args it only skims: "tru", 01 and "\q"
  // inside args may load with those args dropped. Each event is loaded or counted, never both.
  uint64_t counted = problem_count(*imp, "invalid_json_event") + problem_count(*imp, "bad_ts");
  CHECK(counted + m.slices.size() == 6);
}

TEST_CASE("bad input: numbers: 1e400, NaN, -0, negative dur, 2^64") {
  auto imp = import_all_ways(R"([
    {"ph":"X","name":"huge-ts","pid":1,"tid":1,"ts":1e400,"dur":1},
    {"ph":"X","name":"huge-dur","pid":1,"tid":1,"ts":1,"dur":1e400},
    {"ph":"X","name":"nan-ts","pid":1,"tid":1,"ts":"NaN","dur":1},
    {"ph":"X","name":"neg-zero","pid":1,"tid":1,"ts":-0,"dur":-0.0},
    {"ph":"X","name":"neg-dur","pid":1,"tid":1,"ts":5,"dur":-3},
    {"ph":"X","name":"ts-2^64","pid":1,"tid":1,"ts":18446744073709551616,"dur":1},
    {"ph":"X","name":"corr-2^64","pid":1,"tid":1,"ts":6,"dur":1,"args":{"correlation":18446744073709551616}},
    {"ph":"X","name":"arg-1e400","pid":1,"tid":1,"ts":7,"dur":1,"args":{"x":1e400,"y":-1e400}},
    {"ph":"C","name":"ctr","pid":1,"ts":8,"args":{"nan":"NaN","inf":"inf","big":1e400,"ok":2}}])");
  tw::TraceModel& m = imp->model();
  CHECK(problem_count(*imp, "bad_ts") == 3);
  CHECK(problem_count(*imp, "bad_dur") == 1);
  CHECK(problem_count(*imp, "negative_dur") == 1);
  CHECK(problem_count(*imp, "integer_beyond_int64") == 1);
  CHECK(problem_count(*imp, "bad_counter_value") == 3);
  int z = slice_named(m, "neg-zero");
  REQUIRE(z >= 0);
  CHECK(m.slices.ts_ns[z] == 0);
  CHECK(m.slices.dur_at(z) == 0);
  CHECK(m.slices.dur_at(slice_named(m, "neg-dur")) == 0);
  CHECK(m.slices.correlation_at(slice_named(m, "corr-2^64")) == tw::kNoId);
  REQUIRE(slice_named(m, "arg-1e400") >= 0);
  REQUIRE(m.counters.size() == 1);  // only "ok" is a series
  CHECK(m.counters[0].value[0] == 2);
}

// Found by make fuzz: a metadata integer beyond int64 (nlohmann reads 2^64 as a double) was converted
// with undefined behaviour. Such a value is no value: the rank stays unknown, the events load.
TEST_CASE("bad input: metadata numbers beyond int64 (2^64, 1e63, -1e19, 1e300) are left unset") {
  auto imp = import_all_ways(
      R"({"distributedInfo": {"backend": "nccl", "rank": 18446744073709551616, "world_size": 1.66667e+63},
    "deviceProperties": [{"id": -1e19, "name": "GPU", "totalGlobalMem": 18446744073709551615, "computeMajor": 8,
                          "computeMinor": 1e300, "numSms": 108.9}],
    "traceEvents": [{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1}]})");
  tw::TraceModel& m = imp->model();
  CHECK(!m.meta.has_rank);
  CHECK(!m.meta.has_world_size);
  REQUIRE(m.meta.devices.size() == 1);
  CHECK(m.meta.devices[0].id == 0);
  CHECK(m.meta.devices[0].total_global_mem == 0);
  CHECK(m.meta.devices[0].compute_major == 8);
  CHECK(m.meta.devices[0].compute_minor == 0);
  CHECK(m.meta.devices[0].num_sms == 108);  // a fraction converts
  CHECK(slice_named(m, "a") >= 0);
}

TEST_CASE("bad input: invalid UTF-8 is replaced and counted, the event is kept") {
  const std::string text = "[{\"ph\":\"X\",\"name\":\"bad\xff\xfe name\",\"cat\":\"k\xc3\",\"ts\":1,\"dur\":1},"
                           "{\"ph\":\"i\",\"name\":\"overlong \xc0\xaf and surrogate \xed\xa0\x80\",\"ts\":2},"
                           "{\"ph\":\"i\",\"name\":\"fine \xc3\xa9\",\"ts\":3}]";
  auto imp = import_all_ways(text);
  tw::TraceModel& m = imp->model();
  CHECK(problem_count(*imp, "invalid_utf8") == 2);
  REQUIRE(m.slices.size() == 1);
  CHECK(name_of_slice(m, 0) == "bad?? name");
  REQUIRE(m.instants.size() == 2);
  CHECK(m.strings.get(m.instants.name[1]) == "fine \xc3\xa9");
  // Invalid UTF-8 in a top-level value is counted too.
  auto top = import_all_ways("{\"traceName\":\"x\xff\",\"traceEvents\":[]}");
  CHECK_FALSE(top->stats().fatal);
  CHECK(problem_count(*top, "bad_top_level_value") == 1);
}

TEST_CASE("bad input: duplicate keys are counted") {
  auto imp = import_all_ways(R"([{"ph":"X","name":"a","ts":1,"ts":2,"dur":1}])");
  CHECK(problem_count(*imp, "duplicate_key") == 1);
  CHECK(imp->model().slices.size() == 1);
}

TEST_CASE("bad input: nesting 100k deep never overflows the stack" * doctest::timeout(60)) {
  const size_t kDepth = 100000;
  SUBCASE("in an event's args") {
    auto imp = import_all_ways(R"([{"ph":"X","name":"deep","ts":1,"dur":1,"args":{"a":)" + nested(kDepth, "[", "]") +
                                   R"(}},{"ph":"X","name":"ok","ts":2,"dur":1}])",
                               0);
    CHECK(imp->stats().events == 2);
    CHECK(slice_named(imp->model(), "ok") >= 0);
    CHECK((problem_count(*imp, "nesting_too_deep") + imp->model().slices.size()) == 2);
  }
  SUBCASE("in objects inside an event, before the fields we read") {
    auto imp = import_all_ways(R"([{"x":)" + nested(kDepth, "{\"a\":", "}") + R"(,"ph":"i","name":"deep","ts":1}])", 0);
    CHECK(imp->stats().events == 1);
    CHECK((problem_count(*imp, "nesting_too_deep") + imp->model().instants.size()) == 1);
  }
  SUBCASE("in id, id2 and bind_id objects") {
    auto imp = import_all_ways(
        R"([{"ph":"i","name":"a","ts":1,"id":)" + nested(kDepth, "{\"a\":", "}") +
            R"(},{"ph":"b","cat":"c","name":"b","ts":1,"id2":)" + nested(kDepth, "{\"local\":", "}") +
            R"(},{"ph":"X","name":"c","ts":1,"dur":1,"flow_out":true,"bind_id":)" + nested(kDepth, "[", "]") + "}]",
        0);
    CHECK(imp->stats().events == 3);
    CHECK(imp->model().instants.size() == 1);
    CHECK(slice_named(imp->model(), "c") >= 0);
  }
  SUBCASE("as elements of the events array") {
    auto imp = import_all_ways("[" + nested(kDepth, "[", "]") + R"(,{"ph":"i","name":"ok","ts":1}])", 0);
    CHECK(imp->stats().events == 1);
    CHECK(problem_count(*imp, "skipped_non_object") == 1);
  }
  SUBCASE("in the top-level values we parse (distributedInfo, deviceProperties)") {
    auto imp = import_all_ways(R"({"distributedInfo":{"rank":1,"pg_config":)" + nested(kDepth, "[", "]") +
                                   R"(},"deviceProperties":)" + nested(kDepth, "[", "]") +
                                   R"(,"traceEvents":[{"ph":"i","name":"ok","ts":1}]})",
                               0);
    CHECK_FALSE(imp->stats().fatal);
    CHECK(imp->stats().events == 1);
  }
  SUBCASE("as the whole document") {
    check_fatal_sentence(import_all_ways(nested(kDepth, "[", "]"), 0)->stats(), "no event objects");
    auto open = import_all_ways(nested(kDepth, "{\"traceEvents\":", "}"), 0);
    CHECK(open->stats().fatal);
  }
}

TEST_CASE("bad input: one 100 MB string" * doctest::timeout(120)) {
  const size_t kHuge = size_t(100) << 20;
  SUBCASE("inside an event: the event is skipped and counted, memory stays bounded") {
    auto imp = import_with_filler(R"([{"ph":"i","name":"before","ts":1},{"ph":"i","ts":2,"name":")", kHuge,
                                  R"("},{"ph":"i","name":"after","ts":3}])");
    CHECK_FALSE(imp->stats().fatal);
    CHECK(imp->stats().events == 3);
    CHECK(problem_count(*imp, "event_too_large") == 1);
    CHECK(imp->model().instants.size() == 2);
    CHECK(imp->model().memory_bytes() < (size_t(16) << 20));
  }
  SUBCASE("as a top-level value") {
    auto imp = import_with_filler(R"({"traceName":")", kHuge, R"(","traceEvents":[{"ph":"i","name":"ok","ts":3}]})");
    CHECK_FALSE(imp->stats().fatal);
    CHECK(imp->stats().events == 1);
    CHECK(problem_count(*imp, "top_level_value_too_large") == 1);
  }
  SUBCASE("as a non-object element of the events array") {
    auto imp = import_with_filler(R"([")", kHuge, R"(",{"ph":"i","name":"ok","ts":3}])");
    CHECK(imp->stats().events == 1);
    CHECK(problem_count(*imp, "skipped_non_object") == 1);
  }
  SUBCASE("a 20 MB name is below the event limit and loads") {
    auto imp = import_with_filler(R"([{"ph":"i","ts":2,"name":")", size_t(20) << 20, R"("}])");
    REQUIRE(imp->model().instants.size() == 1);
    CHECK(imp->model().strings.get(imp->model().instants.name[0]).size() == (size_t(20) << 20));
  }
  SUBCASE("a 100 MB key before traceEvents") {
    auto imp = import_with_filler(R"({")", kHuge, R"(":1,"traceEvents":[{"ph":"i","name":"ok","ts":3}]})");
    CHECK(imp->stats().events == 1);
  }
}

TEST_CASE("bad input: control characters, NUL bytes and escapes inside strings") {
  const std::string text = "[{\"ph\":\"i\",\"name\":\"tab\\there \\u0000 nul \\ud83d\\ude00\",\"ts\":1},"
                           "{\"ph\":\"i\",\"name\":\"raw\tcontrol\",\"ts\":2},"
                           "{\"ph\":\"i\",\"name\":\"lone \\ud800 surrogate\",\"ts\":3},"
                           "{\"ph\":\"i\",\"name\":\"nul" +
                           std::string(1, '\0') + "byte\",\"ts\":4}]";
  auto imp = import_all_ways(text);
  CHECK_FALSE(imp->stats().fatal);
  CHECK(imp->stats().events == 4);
  CHECK(imp->model().instants.size() + problem_count(*imp, "invalid_json_event") == 4);
  CHECK(imp->model().strings.find(std::string("tab\there ") + '\0' + " nul \xF0\x9F\x98\x80") != 0);
}

// Random mutations of real traces (fixed seed, bounded count): no crash, no hang, and the same
// model in any chunking.
TEST_CASE("bad input: fuzzed mutations of real traces" * doctest::timeout(300)) {
  const std::vector<std::string> seeds = import_fuzz_seeds();
  for (const std::string& s : seeds) REQUIRE(s.size() > 100);
  std::mt19937 rng(fuzz_seed(1234567u));
  const int kRounds = fuzz_rounds(400);
  for (int round = 0; round < kRounds; ++round) {
    std::string text = mutate_trace(seeds[round % seeds.size()], rng);
    CAPTURE(round);
    if (const char* dump = std::getenv("TW_FUZZ_DUMP")) std::ofstream(dump, std::ios::binary) << text;  // the crasher
    ImporterPtr whole = import_whole(text);
    std::string expected = fingerprint(*whole);
    ImporterPtr chunked = import_random_chunks(text, static_cast<uint32_t>(round), 1 + rng() % 97);
    std::string got = fingerprint(*chunked);
    CHECK_MESSAGE(got == expected, first_difference(expected, got));
    if (round % 25 == 0) {
      ImporterPtr bytes = import_chunked(text, [] { return size_t(1); });
      std::string by_byte = fingerprint(*bytes);
      CHECK_MESSAGE(by_byte == expected, first_difference(expected, by_byte));
    }
  }
}
