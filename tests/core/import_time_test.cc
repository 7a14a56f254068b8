// Time and ids as the importer reads them: ts/dur as numbers or strings, converted exactly to int64
// ns (no binary floating point), displayTimeUnit recorded, pid/tid as numbers or strings. Every
// input is also imported one byte at a time and in random chunks.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "tests/core/import_test_util.h"

using namespace tw::test;

namespace {

// Imports one X event with the given ts and dur JSON texts; returns {ts_ns, dur_ns} or fails.
struct TimeResult {
  bool loaded = false;
  int64_t ts_ns = 0, dur_ns = 0;
  std::map<std::string, tw::ProblemCount> problems;
};

TimeResult one_slice(const std::string& ts, const std::string& dur) {
  auto imp = import_all_ways(R"([{"ph":"X","name":"e","pid":1,"tid":1,"ts":)" + ts + R"(,"dur":)" + dur + "}]");
  TimeResult r;
  r.problems = imp->stats().problems;
  if (imp->model().slices.size() == 1) {
    r.loaded = true;
    r.ts_ns = imp->model().slices.ts_ns[0];
    r.dur_ns = imp->model().slices.dur_at(0);
  }
  return r;
}

}  // namespace

TEST_CASE("time: ts and dur as numbers or strings, exact to the nanosecond") {
  struct Case {
    const char* ts;
    const char* dur;
    int64_t ts_ns, dur_ns;
  } cases[] = {
      {"4458676983543.183", "1.5", 4458676983543183, 1500},
      {"\"4458676983543.183\"", "\"1.5\"", 4458676983543183, 1500},
      {"1712195495519689.047", "63.813", 1712195495519689047, 63813},
      {"1e3", "2E1", 1000000, 20000},
      {"-0", "-0", 0, 0},
      {"0.0005", "0.0004", 1, 0},
      {"\" 12 \"", "0", 12000, 0},
      {"-5", "1", -5000, 1000},
      {"9223372036854775.806", "0.001", 9223372036854775806, 1},
  };
  for (const Case& c : cases) {
    CAPTURE(c.ts);
    CAPTURE(c.dur);
    TimeResult r = one_slice(c.ts, c.dur);
    REQUIRE(r.loaded);
    CHECK(r.ts_ns == c.ts_ns);
    CHECK(r.dur_ns == c.dur_ns);
    CHECK(r.problems.empty());
  }
}

TEST_CASE("time: timestamps that are not numbers or do not fit are counted, never rounded") {
  for (const char* ts :
       {"\"noon\"", "1e400", "18446744073709551616", "\"NaN\"", "true", "null", "[1]", "{}", "9223372036854775.808"}) {
    CAPTURE(ts);
    TimeResult r = one_slice(ts, "1");
    CHECK_FALSE(r.loaded);
    CHECK(r.problems.count("bad_ts") == 1);
  }
  // ts + dur beyond int64 is a bad timestamp too (the end would overflow).
  TimeResult r = one_slice("9223372036854775.000", "1");
  CHECK_FALSE(r.loaded);
  CHECK(r.problems.count("bad_ts") == 1);
}

TEST_CASE("time: a negative dur is counted and the slice kept with zero length") {
  TimeResult r = one_slice("5", "-3");
  REQUIRE(r.loaded);
  CHECK(r.dur_ns == 0);
  CHECK(r.problems.count("negative_dur") == 1);
}

TEST_CASE("time: displayTimeUnit is recorded; timestamps stay microseconds") {
  for (const char* unit : {"ns", "ms"}) {
    auto imp = import_all_ways(std::string(R"({"displayTimeUnit":")") + unit +
                               R"(","traceEvents":[{"ph":"X","name":"e","ts":2.5,"dur":1}]})");
    CHECK(imp->model().meta.display_time_unit == unit);
    CHECK(imp->model().slices.ts_ns[0] == 2500);
  }
  auto none = import_all_ways(R"([{"ph":"X","name":"e","ts":2.5,"dur":1}])");
  CHECK(none->model().meta.display_time_unit.empty());
  auto bad = import_all_ways(R"({"displayTimeUnit":7,"baseTimeNanoseconds":1735632360000000000,"traceEvents":[]})");
  CHECK(bad->model().meta.display_time_unit.empty());
  CHECK(bad->model().meta.has_base_time);
  CHECK(bad->model().meta.base_time_ns == 1735632360000000000);
}

TEST_CASE("ids: pid/tid as numbers or strings") {
  auto imp = import_all_ways(R"([
    {"ph":"X","name":"a","pid":1,"tid":2,"ts":1,"dur":1},
    {"ph":"X","name":"b","pid":"1","tid":"2","ts":2,"dur":1},
    {"ph":"X","name":"c","pid":"Renderer","tid":"CrBrowserMain","ts":3,"dur":1},
    {"ph":"X","name":"d","pid":-1,"tid":-7,"ts":4,"dur":1},
    {"ph":"X","name":"e","ts":5,"dur":1},
    {"ph":"X","name":"f","pid":18446744073709551616,"tid":1.5,"ts":6,"dur":1}])");
  tw::TraceModel& m = imp->model();
  REQUIRE(m.slices.size() == 6);
  auto track_of = [&](const char* name) { return m.tracks[m.slices.track_at(slice_named(m, name))]; };
  CHECK(m.slices.track_at(slice_named(m, "a")) == m.slices.track_at(slice_named(m, "b")));  // "1" == 1
  tw::Track c = track_of("c");
  CHECK(m.strings.get(c.tid_label) == "CrBrowserMain");
  CHECK(m.strings.get(m.processes[c.process].pid_label) == "Renderer");
  tw::Track d = track_of("d");
  CHECK(m.processes[d.process].pid == -1);
  CHECK(d.tid == -7);
  CHECK(m.processes[d.process].pid_label == 0);
  tw::Track e = track_of("e");  // no pid/tid: process 0, thread 0
  CHECK(m.processes[e.process].pid == 0);
  CHECK(e.tid == 0);
  tw::Track f = track_of("f");  // not int64: kept as text labels
  CHECK(m.strings.get(m.processes[f.process].pid_label) == "18446744073709551616");
  CHECK(m.strings.get(f.tid_label) == "1.5");
  CHECK(m.processes.size() == 5);
}
