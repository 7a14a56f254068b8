// Document forms accepted by the streaming importer (EventSplitter + ImportState): object and bare
// array forms, other top-level keys before and after the events, truncation anywhere, trailing
// commas, whitespace anywhere. Every input is also imported one byte at a time and in random chunks.
#include <doctest/doctest.h>

#include <string>

#include "tests/core/import_test_util.h"

using namespace tw::test;

namespace {

const char* kTwoEvents =
    R"({"ph":"X","name":"a","pid":1,"tid":2,"ts":10,"dur":5},{"ph":"X","name":"b","pid":1,"tid":2,"ts":11,"dur":1})";

}  // namespace

TEST_CASE("forms: object form and bare array form give the same slices") {
  auto obj = import_all_ways(std::string(R"({"traceEvents":[)") + kTwoEvents + "]}");
  auto arr = import_all_ways(std::string("[") + kTwoEvents + "]");
  for (auto* imp : {obj.get(), arr.get()}) {
    CHECK_FALSE(imp->stats().fatal);
    CHECK(imp->stats().events == 2);
    CHECK(phase_count(*imp, "X") == 2);
    CHECK_FALSE(imp->stats().truncated);
    CHECK(imp->stats().problems.empty());
    REQUIRE(imp->model().slices.size() == 2);
    CHECK(name_of_slice(imp->model(), 0) == "a");
    CHECK(imp->model().slices.depth[1] == 1);  // b nests inside a
  }
}

TEST_CASE("forms: top-level keys before and after traceEvents are read") {
  const std::string before = R"({"schemaVersion":1,"displayTimeUnit":"ns","distributedInfo":{"rank":3,"world_size":8},)"
                             R"("traceEvents":[)" +
                             std::string(kTwoEvents) + R"(]})";
  const std::string after =
      R"({"traceEvents":[)" + std::string(kTwoEvents) +
      R"(],"distributedInfo":{"rank":3,"world_size":8},"displayTimeUnit":"ns","schemaVersion":1})";
  for (const std::string& text : {before, after}) {
    auto imp = import_all_ways(text);
    CHECK(imp->stats().events == 2);
    CHECK(imp->stats().problems.empty());
    const tw::TraceMeta& meta = imp->model().meta;
    CHECK(meta.has_rank);
    CHECK(meta.rank == 3);
    CHECK(meta.world_size == 8);
    CHECK(meta.display_time_unit == "ns");
    CHECK(meta.schema_version == 1);
  }
}

TEST_CASE("forms: only the top-level traceEvents key is the events array") {
  // A nested "traceEvents", a key that merely contains an escaped quote, and large unrelated values.
  const std::string text = R"({"INFO":{"traceEvents":[{"ph":"X","name":"nested","ts":1,"dur":1}]},)"
                           R"("trace\"Events":[{"ph":"X","name":"escaped","ts":1,"dur":1}],)"
                           R"("stackFrames":{"1":{"name":"[root]"}},"samples":[1,2,"x]}",{"a":[]}],)"
                           R"("traceEvents":[{"ph":"X","name":"real","ts":1,"dur":1}],"tail":"}]"})";
  auto imp = import_all_ways(text);
  CHECK(imp->stats().events == 1);
  REQUIRE(imp->model().slices.size() == 1);
  CHECK(name_of_slice(imp->model(), 0) == "real");
  CHECK_FALSE(imp->stats().truncated);
}

TEST_CASE("forms: a second traceEvents key is not read as events") {
  auto imp = import_all_ways(
      R"({"traceEvents":[{"ph":"i","name":"one","ts":1}],"traceEvents":[{"ph":"i","name":"two","ts":2}]})");
  CHECK(imp->stats().events == 1);
  CHECK(imp->model().instants.size() == 1);
}

TEST_CASE("forms: trailing and repeated commas are tolerated") {
  for (const char* text : {
           R"([{"ph":"i","ts":1,"name":"a"},{"ph":"i","ts":2,"name":"b"},])",
           R"([{"ph":"i","ts":1,"name":"a"},,{"ph":"i","ts":2,"name":"b"},,])",
           R"({"traceEvents":[{"ph":"i","ts":1,"name":"a"},{"ph":"i","ts":2,"name":"b"},],})",
           R"({"traceEvents":[{"ph":"i","ts":1,"name":"a"},{"ph":"i","ts":2,"name":"b"},],"x":1,})",
       }) {
    INFO(text);
    auto imp = import_all_ways(text);
    CHECK_FALSE(imp->stats().fatal);
    CHECK(imp->stats().events == 2);
    CHECK(imp->model().instants.size() == 2);
    CHECK_FALSE(imp->stats().truncated);
    CHECK(imp->stats().problems.empty());
  }
}

TEST_CASE("forms: a trailing comma inside an event is a counted problem, the rest loads") {
  auto imp = import_all_ways(R"([{"ph":"i","ts":1,"name":"a",},{"ph":"i","ts":2,"name":"b"}])");
  CHECK(imp->stats().events == 2);
  CHECK(problem_count(*imp, "invalid_json_event") == 1);
  CHECK(imp->model().instants.size() == 1);
}

TEST_CASE("forms: whitespace anywhere, and a UTF-8 byte order mark") {
  const std::string text =
      "\xEF\xBB\xBF \r\n\t{ \n\"schemaVersion\" \t:\r 1 , \"traceEvents\"\n:\n[\n\t"
      "{ \"ph\" : \"X\" , \"name\" : \"a\" , \"ts\" : 1 , \"dur\" : 2 }\r\n ,\n"
      "{\"ph\":\"X\",\"name\":\"b\",\"ts\":\"  5 \",\"dur\":1} \n ] \n , \"x\" : [ 1 , 2 ] \n } \n\n";
  auto imp = import_all_ways(text);
  CHECK_FALSE(imp->stats().fatal);
  CHECK(imp->stats().events == 2);
  CHECK(imp->stats().problems.empty());
  CHECK_FALSE(imp->stats().truncated);
  REQUIRE(imp->model().slices.size() == 2);
  CHECK(imp->model().slices.ts_ns[1] == 5000);
  CHECK(imp->model().meta.schema_version == 1);
}

TEST_CASE("forms: data after the end of the document is counted, or read when it holds events") {
  // A bare array may have been closed by a stray ']' (or two arrays written one after the other):
  // the events after it are read, the bytes between are a skipped span.
  auto bare = import_all_ways(R"([{"ph":"i","ts":1,"name":"a"}] [{"ph":"i","ts":2}])");
  CHECK(bare->stats().events == 2);
  CHECK(bare->stats().recovered_regions == 1);
  CHECK(bare->stats().recovered_first_offset == 31);
  CHECK(bare->stats().recovered_bytes == 1);  // the second "["
  // After the top-level object's '}' the document is over: the rest is only counted.
  auto object = import_all_ways(R"({"traceEvents":[{"ph":"i","ts":1,"name":"a"}]} {"x":1})");
  CHECK(object->stats().events == 1);
  CHECK(problem_count(*object, "trailing_data") == 1);
  CHECK(object->stats().problems.at("trailing_data").first_offset == 47);
}

TEST_CASE("forms: each event's byte range re-reads its full source (args on demand)") {
  const std::string text =
      R"({"traceEvents":[ {"ph":"X","name":"k","ts":1,"dur":2,"args":{"Comms Id":18446744073709551617,"x":[1,{"y":"z"}]}},)"
      R"({"ph":"i","name":"m","ts":3,"args":{"note":"caf\u00e9"}} ]})";
  auto imp = import_all_ways(text);
  tw::TraceModel& m = imp->model();
  REQUIRE(m.slices.size() == 1);
  std::string_view src = source_of(text, m.slices.src_offset_at(0), m.slices.src_length_at(0));
  CHECK(src.front() == '{');
  CHECK(src.back() == '}');
  CHECK(src.find("18446744073709551617") != std::string_view::npos);
  REQUIRE(m.instants.size() == 1);
  CHECK(source_of(text, m.instants.src_offset[0], m.instants.src_length[0]) ==
        R"({"ph":"i","name":"m","ts":3,"args":{"note":"caf\u00e9"}})");
}

// A trace cut at every possible byte: never a crash, what is complete loads, the cut is reported.
TEST_CASE("forms: truncation at every byte") {
  const std::string events[] = {
      R"({"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":10,"args":{"s":"x]},{"}})",
      R"({"ph":"B","name":"b","pid":1,"tid":1,"ts":2})",
      R"({"ph":"i","name":"c","pid":1,"tid":1,"ts":"3.5","s":"g"})",
      R"({"ph":"E","pid":1,"tid":1,"ts":4})",
  };
  for (bool object_form : {true, false}) {
    std::string text = object_form ? R"({"schemaVersion":1, "traceEvents": [)" : "[";
    std::vector<size_t> event_end;  // byte offset just after each event
    for (size_t k = 0; k < 4; ++k) {
      if (k) text += ",\n";
      text += events[k];
      event_end.push_back(text.size());
    }
    text += object_form ? R"(], "deviceProperties": [{"id": 0, "name": "GPU"}]})" : "]";
    const size_t array_begin = text.find('[') + 1;
    for (size_t cut = 0; cut <= text.size(); ++cut) {
      CAPTURE(object_form);
      CAPTURE(cut);
      std::string prefix = text.substr(0, cut);
      // Whole and a few chunkings (byte at a time is covered by import_all_ways on some cuts).
      auto imp = cut % 7 == 0 ? import_all_ways(prefix) : import_whole(prefix);
      const tw::ImportStats& st = imp->stats();
      if (cut < array_begin) {
        CHECK(st.fatal);
        CHECK(st.fatal_message.find("(at byte ") != std::string::npos);
        continue;
      }
      REQUIRE_FALSE(st.fatal);
      size_t complete = 0;
      while (complete < 4 && event_end[complete] <= cut) ++complete;
      CHECK(st.events == complete);
      CHECK(st.truncated == (cut < text.size()));
      bool inside_event = complete < 4 && cut > event_end[complete] - events[complete].size();
      CHECK(problem_count(*imp, "truncated_event") == (inside_event ? 1u : 0u));
    }
  }
}
