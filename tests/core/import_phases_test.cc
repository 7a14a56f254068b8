// Event phases (ImportState): X, B/E per thread, i/I/R scopes, C counters, M metadata, flows v1
// (s/t/f, bp) and v2 (bind_id/flow_in/flow_out), async b/e/n, unknown phases. Every input is also
// imported one byte at a time and in random chunks (import_all_ways).
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "tests/core/import_test_util.h"

using namespace tw::test;

TEST_CASE("phases: X complete events, with and without dur") {
  auto imp = import_all_ways(R"([
    {"ph":"X","name":"outer","cat":"c","pid":7,"tid":8,"ts":100,"dur":50},
    {"ph":"X","name":"inner","cat":"c","pid":7,"tid":8,"ts":110,"dur":10},
    {"ph":"X","name":"nodur","pid":7,"tid":8,"ts":130},
    {"ph":"X","name":"nots","pid":7,"tid":8,"dur":3},
    {"ph":"X","name":"badts","pid":7,"tid":8,"ts":"soon","dur":3},
    {"ph":"X","name":"baddur","pid":7,"tid":8,"ts":140,"dur":"long"}])");
  tw::TraceModel& m = imp->model();
  CHECK(imp->stats().events == 6);
  CHECK(phase_count(*imp, "X") == 6);
  CHECK(problem_count(*imp, "missing_ts") == 1);
  CHECK(problem_count(*imp, "bad_ts") == 1);
  CHECK(problem_count(*imp, "bad_dur") == 1);
  REQUIRE(m.slices.size() == 4);
  REQUIRE(m.tracks.size() == 1);
  CHECK(m.tracks[0].tid == 8);
  CHECK(m.processes[m.tracks[0].process].pid == 7);
  int outer = slice_named(m, "outer"), inner = slice_named(m, "inner"), nodur = slice_named(m, "nodur");
  CHECK(m.slices.ts_ns[outer] == 100000);
  CHECK(m.slices.dur_at(outer) == 50000);
  CHECK(m.slices.depth[outer] == 0);
  CHECK(m.slices.depth[inner] == 1);
  CHECK(m.slices.dur_at(nodur) == 0);
  CHECK((m.slices.flags[nodur] & tw::kSliceNoDur) != 0);
  CHECK(m.slices.depth[nodur] == 1);
  CHECK((m.slices.flags[slice_named(m, "baddur")] & tw::kSliceNoDur) != 0);
  CHECK(m.tracks[0].max_depth == 2);
  CHECK(m.min_ts_ns == 100000);
  CHECK(m.max_ts_ns == 150000);
}

TEST_CASE("phases: B/E are matched per thread; unmatched ones are counted, never a crash") {
  auto imp = import_all_ways(R"([
    {"ph":"B","name":"t1-outer","pid":1,"tid":1,"ts":0},
    {"ph":"B","name":"t2","pid":1,"tid":2,"ts":1},
    {"ph":"B","name":"t1-inner","pid":1,"tid":1,"ts":2},
    {"ph":"E","pid":1,"tid":1,"ts":3},
    {"ph":"E","pid":1,"tid":2,"ts":4},
    {"ph":"E","pid":1,"tid":1,"ts":5},
    {"ph":"E","pid":1,"tid":1,"ts":6},
    {"ph":"E","pid":1,"tid":3,"ts":6},
    {"ph":"B","name":"never-ends","pid":1,"tid":2,"ts":8},
    {"ph":"X","name":"last","pid":1,"tid":3,"ts":9,"dur":1}])");
  tw::TraceModel& m = imp->model();
  CHECK(phase_count(*imp, "B") == 4);
  CHECK(phase_count(*imp, "E") == 5);
  CHECK(problem_count(*imp, "unmatched_end") == 2);
  CHECK(problem_count(*imp, "unclosed_begin") == 1);
  int outer = slice_named(m, "t1-outer"), inner = slice_named(m, "t1-inner"), t2 = slice_named(m, "t2");
  REQUIRE(outer >= 0);
  REQUIRE(inner >= 0);
  REQUIRE(t2 >= 0);
  CHECK(m.slices.dur_at(outer) == 5000);
  CHECK(m.slices.ts_ns[inner] == 2000);
  CHECK(m.slices.dur_at(inner) == 1000);
  CHECK(m.slices.depth[inner] == 1);
  CHECK(m.slices.dur_at(t2) == 3000);
  CHECK(m.slices.track_at(outer) != m.slices.track_at(t2));
  CHECK((m.slices.flags[outer] & tw::kSliceFromBE) != 0);
  int open = slice_named(m, "never-ends");
  REQUIRE(open >= 0);
  CHECK((m.slices.flags[open] & tw::kSliceUnclosed) != 0);
  CHECK(m.slices.ts_ns[open] + m.slices.dur_at(open) == m.max_ts_ns);  // closed at the end of the trace
  // The unclosed B's source range is still its own event.
  CHECK(m.slices.src_length_at(open) > 0);
}

TEST_CASE("phases: an E before its B (out of order) is unmatched, a negative B/E span is counted") {
  auto imp = import_all_ways(R"([
    {"ph":"E","pid":1,"tid":1,"ts":1},
    {"ph":"B","name":"b","pid":1,"tid":1,"ts":10},
    {"ph":"E","pid":1,"tid":1,"ts":5}])");
  CHECK(problem_count(*imp, "unmatched_end") == 1);
  CHECK(problem_count(*imp, "negative_dur") == 1);
  REQUIRE(imp->model().slices.size() == 1);
  CHECK(imp->model().slices.dur_at(0) == 0);
}

TEST_CASE("phases: instants i/I/R and their scopes") {
  auto imp = import_all_ways(R"([
    {"ph":"i","name":"thread-default","pid":1,"tid":1,"ts":1},
    {"ph":"i","name":"thread","pid":1,"tid":1,"ts":2,"s":"t"},
    {"ph":"i","name":"process","pid":1,"tid":1,"ts":3,"s":"p"},
    {"ph":"I","name":"global","pid":1,"tid":2,"ts":4,"s":"g"},
    {"ph":"R","name":"mark","pid":1,"tid":2,"ts":5},
    {"ph":"I","name":"no-ts","pid":1,"tid":2}])");
  tw::TraceModel& m = imp->model();
  REQUIRE(m.instants.size() == 5);
  CHECK(problem_count(*imp, "missing_ts") == 1);
  using S = tw::InstantScope;
  const S expected[] = {S::kThread, S::kThread, S::kProcess, S::kGlobal, S::kProcess};
  for (size_t i = 0; i < 5; ++i) {
    CHECK(m.instants.scope[i] == expected[i]);
    CHECK(m.instants.ts_ns[i] == int64_t(i + 1) * 1000);
  }
  CHECK(m.tracks[m.instants.track[3]].tid == 2);
  CHECK(phase_count(*imp, "i") == 3);
  CHECK(phase_count(*imp, "I") == 2);
  CHECK(phase_count(*imp, "R") == 1);
}

TEST_CASE("phases: C counters give one series per args key") {
  auto imp = import_all_ways(R"([
    {"ph":"C","name":"mem","pid":1,"ts":1,"args":{"alloc":10,"free":"20.5"}},
    {"ph":"C","name":"mem","pid":1,"ts":2,"args":{"alloc":11,"free":19}},
    {"ph":"C","name":"mem","pid":2,"ts":2,"args":{"alloc":1}},
    {"ph":"C","name":"queue","pid":1,"ts":3,"args":{"value":4}},
    {"ph":"C","name":"ctr","id":"7","pid":1,"ts":3,"args":{"a":1}},
    {"ph":"C","name":"empty","pid":1,"ts":4,"args":{}},
    {"ph":"C","name":"bad","pid":1,"ts":4,"args":{"x":"high","y":true}}])");
  tw::TraceModel& m = imp->model();
  std::map<std::string, const tw::CounterSeries*> by_name;
  for (const tw::CounterSeries& c : m.counters)
    by_name[std::string(m.strings.get(c.name)) + "@" + std::to_string(m.processes[c.process].pid)] = &c;
  REQUIRE(by_name.count("mem alloc@1"));
  REQUIRE(by_name.count("mem free@1"));
  REQUIRE(by_name.count("mem alloc@2"));
  REQUIRE(by_name.count("queue@1"));
  REQUIRE(by_name.count("ctr 7 a@1"));
  CHECK(m.counters.size() == 5);
  const tw::CounterSeries& alloc = *by_name["mem alloc@1"];
  REQUIRE(alloc.ts_ns.size() == 2);
  CHECK(alloc.ts_ns[1] == 2000);
  CHECK(alloc.value[1] == 11);
  CHECK(by_name["mem free@1"]->value[0] == 20.5);
  CHECK(problem_count(*imp, "counter_without_values") == 2);
  CHECK(problem_count(*imp, "bad_counter_value") == 1);
}

TEST_CASE("phases: M metadata names and sorts processes and threads") {
  auto imp = import_all_ways(R"([
    {"ph":"M","name":"process_name","pid":5,"args":{"name":"trainer"}},
    {"ph":"M","name":"process_labels","pid":5,"args":{"labels":"rank 0"}},
    {"ph":"M","name":"process_sort_index","pid":5,"args":{"sort_index":-3}},
    {"ph":"M","name":"thread_name","pid":5,"tid":"51","args":{"name":"main thread"}},
    {"ph":"M","name":"thread_sort_index","pid":5,"tid":51,"args":{"sort_index":2}},
    {"ph":"M","name":"thread_name","pid":5,"tid":52},
    {"ph":"M","name":"something_else","pid":5,"args":{"x":1}},
    {"ph":"X","name":"work","pid":5,"tid":51,"ts":1,"dur":1}])");
  tw::TraceModel& m = imp->model();
  REQUIRE(m.processes.size() == 1);
  const tw::Process& p = m.processes[0];
  CHECK(p.pid == 5);
  CHECK(m.strings.get(p.name) == "trainer");
  CHECK(m.strings.get(p.labels) == "rank 0");
  CHECK(p.has_sort_index);
  CHECK(p.sort_index == -3);
  REQUIRE(m.slices.size() == 1);
  const tw::Track& t = m.tracks[m.slices.track_at(0)];
  CHECK(t.tid == 51);  // "51" as a string and 51 as a number are one thread
  CHECK(m.strings.get(t.name) == "main thread");
  CHECK(t.has_sort_index);
  CHECK(t.sort_index == 2);
  CHECK(problem_count(*imp, "metadata_without_value") == 1);
  CHECK(problem_count(*imp, "unknown_metadata") == 1);
  CHECK(phase_count(*imp, "M") == 7);
}

TEST_CASE("phases: flow v1 s/t/f bind to enclosing slices; f without bp binds to the next slice") {
  auto imp = import_all_ways(R"([
    {"ph":"f","id":1,"cat":"c","name":"flow","pid":1,"tid":3,"ts":20},
    {"ph":"X","name":"A","pid":1,"tid":1,"ts":0,"dur":10},
    {"ph":"X","name":"B","pid":1,"tid":2,"ts":10,"dur":5},
    {"ph":"X","name":"C","pid":1,"tid":3,"ts":21,"dur":5},
    {"ph":"X","name":"D","pid":1,"tid":3,"ts":30,"dur":5},
    {"ph":"t","id":1,"cat":"c","name":"flow","pid":1,"tid":2,"ts":12},
    {"ph":"s","id":1,"cat":"c","name":"flow","pid":1,"tid":1,"ts":5},
    {"ph":"s","id":"x","cat":"ac2g","name":"ac2g","pid":1,"tid":1,"ts":6},
    {"ph":"f","id":"x","cat":"ac2g","name":"ac2g","pid":1,"tid":3,"ts":32,"bp":"e"},
    {"ph":"s","id":9,"cat":"c","name":"lonely","pid":1,"tid":1,"ts":1},
    {"ph":"f","id":10,"cat":"c","name":"orphan","pid":1,"tid":1,"ts":1,"bp":"e"}])");
  tw::TraceModel& m = imp->model();
  std::vector<std::string> flows;
  for (const tw::Flow& f : m.flows)
    flows.push_back(name_of_slice(m, f.from_slice) + "->" + name_of_slice(m, f.to_slice) + " " +
                    std::string(m.strings.get(f.cat)));
  std::sort(flows.begin(), flows.end());
  CHECK(flows == std::vector<std::string>{"A->B c", "A->D ac2g", "B->C c"});
  CHECK(problem_count(*imp, "flow_without_end") == 1);
  CHECK(problem_count(*imp, "flow_without_start") == 1);
  CHECK(phase_count(*imp, "s") == 3);
  CHECK(phase_count(*imp, "t") == 1);
  CHECK(phase_count(*imp, "f") == 3);
}

// Flows are paired by id after the import, so their problems come out of file order: the offset
// kept for each is still the first in the file (the dashboard says "first at byte N").
TEST_CASE("phases: flow problems keep their first offset in the file, not in id order") {
  const std::string text = R"([
    {"ph":"X","name":"A","pid":1,"tid":1,"ts":0,"dur":10},
    {"ph":"s","id":9,"cat":"c","name":"late id","pid":1,"tid":1,"ts":1},
    {"ph":"f","id":8,"cat":"c","name":"late id","pid":1,"tid":1,"ts":2,"bp":"e"},
    {"ph":"s","id":2,"cat":"c","name":"early id","pid":1,"tid":1,"ts":3},
    {"ph":"f","id":1,"cat":"c","name":"early id","pid":1,"tid":1,"ts":4,"bp":"e"},
    {"ph":"s","id":5,"cat":"c","name":"unbound","pid":1,"tid":7,"ts":5},
    {"ph":"f","id":5,"cat":"c","name":"unbound","pid":1,"tid":1,"ts":6,"bp":"e"}])";
  auto imp = import_all_ways(text);
  const auto& problems = imp->stats().problems;
  CHECK(problems.at("flow_without_end").count == 2);
  CHECK(problems.at("flow_without_end").first_offset == text.find(R"({"ph":"s","id":9)"));
  CHECK(problems.at("flow_without_start").count == 2);
  CHECK(problems.at("flow_without_start").first_offset == text.find(R"({"ph":"f","id":8)"));
  CHECK(problems.at("flow_unbound").count == 1);
  CHECK(problems.at("flow_unbound").first_offset == text.find(R"({"ph":"s","id":5)"));
}

TEST_CASE("phases: flow v2 bind_id with flow_out / flow_in") {
  auto imp = import_all_ways(R"([
    {"ph":"X","name":"producer","pid":1,"tid":1,"ts":0,"dur":10,"bind_id":"0xabc","flow_out":true},
    {"ph":"X","name":"consumer","pid":1,"tid":2,"ts":20,"dur":10,"bind_id":"0xabc","flow_in":true},
    {"ph":"X","name":"relay","pid":1,"tid":3,"ts":15,"dur":1,"bind_id":7,"flow_in":true,"flow_out":true},
    {"ph":"X","name":"end","pid":1,"tid":3,"ts":25,"dur":1,"bind_id":7,"flow_in":true},
    {"ph":"X","name":"nobody","pid":1,"tid":3,"ts":30,"dur":1,"bind_id":8,"flow_in":true},
    {"ph":"X","name":"plain","pid":1,"tid":3,"ts":40,"dur":1,"bind_id":9}])");
  tw::TraceModel& m = imp->model();
  std::vector<std::string> flows;
  for (const tw::Flow& f : m.flows)
    flows.push_back(name_of_slice(m, f.from_slice) + "->" + name_of_slice(m, f.to_slice));
  std::sort(flows.begin(), flows.end());
  // relay's flow_in has no earlier flow_out: it continues nothing, and never links to itself.
  CHECK(flows == std::vector<std::string>{"producer->consumer", "relay->end"});
  CHECK(problem_count(*imp, "flow_without_start") == 2);
}

TEST_CASE("phases: flow v2 chains in time order, one flow_out feeds several flow_ins, B events bind too") {
  // File order differs from time order on purpose.
  auto imp = import_all_ways(R"([
    {"ph":"X","name":"second","pid":1,"tid":2,"ts":20,"dur":5,"bind_id":"q","flow_in":true,"flow_out":true},
    {"ph":"X","name":"first","pid":1,"tid":1,"ts":0,"dur":5,"bind_id":"q","flow_out":true},
    {"ph":"X","name":"third","pid":1,"tid":3,"ts":30,"dur":5,"bind_id":"q","flow_in":true},
    {"ph":"B","name":"fourth","pid":1,"tid":4,"ts":31,"bind_id":"q","flow_in":true},
    {"ph":"E","pid":1,"tid":4,"ts":40}])");
  tw::TraceModel& m = imp->model();
  std::vector<std::string> flows;
  for (const tw::Flow& f : m.flows)
    flows.push_back(name_of_slice(m, f.from_slice) + "->" + name_of_slice(m, f.to_slice));
  std::sort(flows.begin(), flows.end());
  CHECK(flows == std::vector<std::string>{"first->second", "second->fourth", "second->third"});
  CHECK(imp->stats().problems.empty());
}

TEST_CASE("phases: async b/e/n on async tracks; unmatched ones counted") {
  auto imp = import_all_ways(R"([
    {"ph":"b","name":"request","cat":"net","id":"0x1","pid":1,"tid":1,"ts":0},
    {"ph":"b","name":"request","cat":"net","id":"0x2","pid":1,"tid":2,"ts":1},
    {"ph":"n","name":"progress","cat":"net","id":"0x1","pid":1,"tid":1,"ts":2},
    {"ph":"e","name":"request","cat":"net","id":"0x1","pid":1,"tid":3,"ts":4},
    {"ph":"e","name":"request","cat":"net","id":"0x2","pid":1,"tid":1,"ts":9},
    {"ph":"e","name":"request","cat":"other","id":"0x2","pid":1,"tid":1,"ts":9},
    {"ph":"b","name":"open","cat":"net","id":3,"pid":1,"ts":5}])");
  tw::TraceModel& m = imp->model();
  CHECK(problem_count(*imp, "unmatched_async_end") == 1);
  CHECK(problem_count(*imp, "unclosed_async_begin") == 1);
  REQUIRE(m.slices.size() == 3);
  for (size_t i = 0; i < m.slices.size(); ++i) CHECK(m.tracks[m.slices.track_at(i)].kind == tw::TrackKind::kAsync);
  int req = slice_named(m, "request");
  CHECK(m.slices.dur_at(req) == 4000);
  CHECK(m.slices.dur_at(req + 1) == 8000);
  // The two concurrent requests overlap on one async track: both kept, on different rows.
  CHECK(m.slices.depth[req + 1] == 1);
  REQUIRE(m.instants.size() == 1);
  CHECK(m.tracks[m.instants.track[0]].kind == tw::TrackKind::kAsync);
  CHECK(phase_count(*imp, "b") == 3);
  CHECK(phase_count(*imp, "e") == 3);
  CHECK(phase_count(*imp, "n") == 1);
}

TEST_CASE("phases: unknown, unsupported and missing phases are counted") {
  auto imp = import_all_ways(R"([
    {"ph":"Z","name":"z","ts":1},
    {"ph":"XX","name":"xx","ts":1},
    {"ph":"","name":"empty","ts":1},
    {"ph":7,"name":"number","ts":1},
    {"name":"none","ts":1},
    {"ph":"P","name":"sample","ts":1},
    {"ph":"O","name":"snapshot","ts":1,"id":"0x1"},
    {"ph":"X","name":"ok","ts":1,"dur":1}])");
  CHECK(imp->stats().events == 8);
  CHECK(problem_count(*imp, "unknown_phase") == 4);
  CHECK(problem_count(*imp, "missing_ph") == 1);
  CHECK(problem_count(*imp, "unsupported_phase") == 2);
  CHECK(phase_count(*imp, "Z") == 1);
  CHECK(phase_count(*imp, "XX") == 1);
  CHECK(phase_count(*imp, "P") == 1);
  CHECK(imp->model().slices.size() == 1);
}
