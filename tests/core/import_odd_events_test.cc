// Odd events (problems of every kind, deep nesting, huge events, escaped keys) among clean ones: the
// one-pass decoder must leave each to simdjson so that the model, problem counts and offsets are the
// simdjson path's, whatever the chunking, also when they fall on the splitter's batch edges.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "tests/core/import_modes_util.h"

using namespace tw;
using namespace tw::test;

namespace {

// The fast path on and off, in a few chunkings, all give the simdjson path's fingerprint.
void check_same_as_per_event(std::string_view text, const std::string& what) {
  const std::string expected = fingerprint(*import_mode(text, false, 1, text.size() + 1));
  for (uint32_t seed = 1; seed <= 3; ++seed) {
    size_t max_chunk = seed == 1 ? text.size() + 1 : seed == 2 ? 97 : 70000;
    for (bool fast : {true, false}) {
      std::string got = fingerprint(*import_mode(text, fast, seed, max_chunk));
      CHECK_MESSAGE(got == expected, what, ": fast ", fast, " chunks <= ", max_chunk, "\n",
                    first_difference(expected, got));
    }
  }
}

std::string x_event(int i) {
  return R"({"ph":"X","cat":"kernel","name":"k)" + std::to_string(i % 7) + R"(","pid":0,"tid":7,"ts":)" +
         std::to_string(1000 + i * 10) + R"(.125,"dur":5,"args":{"correlation":)" + std::to_string(i) +
         R"(,"device":0,"stream":7,"grid":[1,2,3]}})";
}

// Events that the per-event path loads with a problem or rejects, one per kind.
const std::vector<std::string> kOdd = {
    R"({"ph":"X","name":"dup","ph":"X","ts":1,"dur":1,"pid":1,"tid":1})",                   // duplicate key
    R"({"ph":"X","name":"trail","ts":1,"dur":1,"pid":1,"tid":1,})",                         // trailing comma
    "{\"ph\":\"X\",\"name\":\"bad\xff\xfe utf8\",\"ts\":1,\"dur\":1,\"pid\":1,\"tid\":1}",  // invalid UTF-8
    R"({"p\u0068":"X","n\u0061me":"escaped keys","ts":2,"dur":1,"pid":1,"tid":1})",         // escaped keys
    R"({"ph":"X","name":"skipped bad literal","x":tru,"ts":3,"dur":1,"pid":1,"tid":1})",
    R"({"ph":"X","name":"skipped bad number","x":-,"ts":3,"dur":1,"pid":1,"tid":1})",
    R"({"ph":"X","name":"missing colon","ts" 3,"dur":1,"pid":1,"tid":1})",
    R"({"ph":"X","name":"mismatched","a":[1,2},"ts":3,"pid":1,"tid":1]})",
    R"({"ph":"X","name":"id object","id2":{"local":"0x1"},"ts":4,"dur":1,"pid":1,"tid":1})",
    R"({"ph":"X","name":"ctl	tab","ts":5,"dur":1,"pid":1,"tid":1})",
    R"({"ph":"X","name":"bad escape \x","ts":5,"dur":1,"pid":1,"tid":1})",
    R"({"ph":"X","name":"lone surrogate \ud800","ts":5,"dur":1,"pid":1,"tid":1})",
    R"({"ph":"C","name":"ctr","ts":6,"pid":1,"args":{"a\"b":1,"v":"NaN"}})",
    R"({"ph":"X","name":"deep","args":{"a":[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]},"ts":7,"pid":1,"tid":1})",
    R"({"ph":"X","name":"big","args":{"n":123456789012345678901234567890},"ts":8,"dur":1,"pid":1,"tid":1})",
    R"({})",
    R"("not an object")",
    R"([1,{"ph":"X","name":"in an array","ts":1,"pid":1,"tid":1}])",
    R"({"ph":"X","ts":"1.5","dur":"2","pid":"p","tid":"t","name":"string times"})",
};

}  // namespace

TEST_CASE("odd events: each alone and among good events gives the simdjson model") {
  for (size_t k = 0; k < kOdd.size(); ++k) {
    std::string text = "[" + x_event(1) + "," + kOdd[k] + "," + x_event(2) + "," + x_event(3) + "]";
    check_same_as_per_event(text, "odd event " + std::to_string(k));
    check_same_as_per_event("[" + kOdd[k] + "]", "odd event alone " + std::to_string(k));
    check_same_as_per_event("[" + x_event(1) + "," + kOdd[k], "odd event truncated " + std::to_string(k));
  }
}

TEST_CASE("odd events: deeply nested args") {
  for (int depth : {100, 1023, 1024, 1025, 5000}) {
    std::string deep = R"({"ph":"X","name":"deep","ts":1,"pid":1,"tid":1,"args":{"a":)" + std::string(depth, '[') +
                       std::string(depth, ']') + "}}";
    check_same_as_per_event("[" + x_event(1) + "," + deep + "," + x_event(2) + "]", "depth " + std::to_string(depth));
  }
}

TEST_CASE("odd events: 100 KB events among small ones") {
  std::string big = R"({"ph":"X","name":")" + std::string(100000, 'n') + R"(","ts":1,"dur":1,"pid":1,"tid":1})";
  check_same_as_per_event("[" + x_event(1) + "," + big + "," + x_event(2) + "," + big + "]", "100 KB event");
}

TEST_CASE("odd events: problems spread over several batches (3 MB)") {
  std::string text = R"({"traceEvents":[)";
  int i = 0;
  while (text.size() < (size_t(3) << 20)) {
    // Odd events every few hundred events, so some land on batch (2 MB) edges.
    text += (i % 331 == 17) ? kOdd[(i / 331) % kOdd.size()] : x_event(i);
    text += ",";
    ++i;
  }
  text += x_event(i) + R"(],"displayTimeUnit":"ns"})";
  check_same_as_per_event(text, "3 MB with problems");
}

TEST_CASE("keys: raw keys are matched without unescaping, escaped ones after unescaping") {
  auto imp = import_all_ways(
      R"([{"p\u0068":"X","n\u0061me":"escaped keys","ts":2,"dur":1,"pid":1,"tid":1,"args":{"correl\u0061tion":5}},)"
      R"({"ph":"X","name":"plain","ts":3,"dur":1,"pid":1,"tid":1,"args":{"a\"b":"q"}}])");
  TraceModel& m = imp->model();
  REQUIRE(m.slices.size() == 2);
  int s = slice_named(m, "escaped keys");
  REQUIRE(s >= 0);
  CHECK(m.slices.correlation_at(s) == 5);
  CHECK(slice_named(m, "plain") >= 0);
  CHECK(problem_count(*imp, "missing_ph") == 0);
}
