// Importing one file in parts (import_parts.h): whatever the cut points, the model, problems and
// stats must be those of one import in order. Cuts at every event of small traces built to cross
// the boundary in every way, at likely and at random points of every test trace.
#include <doctest/doctest.h>

#include <cstring>
#include <filesystem>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "cli/parts_reader.h"
#include "tests/core/import_modes_util.h"
#include "tests/core/import_parts_check.h"
#include "tests/core/import_parts_util.h"

using namespace tw;
using namespace tw::test;

TEST_CASE("parts: B/E pairs across the cut, nested, unmatched and backwards, with flow v2 marks") {
  std::string text = R"({"traceEvents": [
  {"ph": "M", "name": "process_name", "pid": 1, "args": {"name": "host"}},
  {"ph": "B", "name": "outer", "cat": "user_annotation", "pid": 1, "tid": 7, "ts": 10, "args": {"External id": 4}},
  {"ph": "B", "name": "mid", "cat": "cpu_op", "pid": 1, "tid": 7, "ts": 12, "bind_id": "0x1", "flow_out": true},
  {"ph": "X", "name": "k", "cat": "kernel", "pid": 0, "tid": 3, "ts": 13, "dur": 2, "args": {"correlation": 9, "device": 0, "stream": 3}},
  {"ph": "B", "name": "inner", "cat": "cpu_op", "pid": 1, "tid": 7, "ts": 14},
  {"ph": "E", "pid": 1, "tid": 7, "ts": 15},
  {"ph": "E", "pid": 1, "tid": 7, "ts": 16},
  {"ph": "X", "name": "cudaLaunchKernel", "cat": "cuda_runtime", "pid": 1, "tid": 8, "ts": 12, "dur": 1, "args": {"correlation": 9}},
  {"ph": "B", "name": "late", "cat": "cpu_op", "pid": 1, "tid": 8, "ts": 30, "bind_id": "0x1", "flow_in": true},
  {"ph": "E", "pid": 1, "tid": 8, "ts": 20},
  {"ph": "E", "pid": 1, "tid": 7, "ts": 40},
  {"ph": "E", "pid": 1, "tid": 7, "ts": 41},
  {"ph": "E", "pid": 2, "tid": 1, "ts": 42},
  {"ph": "B", "name": "never closed", "pid": 1, "tid": 7, "ts": 43},
  {"ph": "X", "name": "same", "pid": 1, "tid": 9, "ts": 50, "dur": 5},
  {"ph": "B", "name": "same", "pid": 1, "tid": 9, "ts": 50},
  {"ph": "E", "pid": 1, "tid": 9, "ts": 55}
]})";
  CHECK(check_every_cut(text) > 0);
}

TEST_CASE("parts: many B's open across the cut, far from their E's, before a part of escaped values") {
  // Each B's row is filled in at the absorb, in one pass over each column's side table
  // (set_rows): its time, duration and ids escape there, and the later part's own escaped
  // values lie behind the rows filled in.
  std::string text = R"({"traceEvents": [)";
  const int n = 3000;
  for (int i = 0; i < n; ++i)
    text += R"({"ph": "B", "name": "b)" + std::to_string(i % 40) + R"(", "pid": 1, "tid": 7, "ts": )" +
            std::to_string(i) + R"(.5, "args": {"External id": )" + std::to_string(i % 3 ? i : int64_t(1) << 40 | i) +
            "}},\n";
  for (int i = 0; i < n; ++i)
    text += R"({"ph": "E", "pid": 1, "tid": 7, "ts": )" + std::to_string(10'000'000 + i) + "},\n";
  for (int i = 0; i < n; ++i)
    text += R"({"ph": "X", "name": "x", "pid": 1, "tid": )" + std::to_string(8 + i % 2) + R"(, "ts": )" +
            std::to_string(i % 2 ? 1 + i : 900'000'000'000 + i) + R"(, "dur": )" +
            std::to_string(i % 2 ? 3 : 9'000'000'000'000) + R"(, "args": {"correlation": )" +
            std::to_string(int64_t(1) << 41 | i) + "}},\n";
  text += R"({"ph": "i", "name": "end", "pid": 1, "tid": 7, "ts": 1}]})";
  const std::string expected = fingerprint(*import_whole(text));
  const std::vector<uint64_t> starts = element_starts(text);
  REQUIRE(starts.size() == size_t(3 * n + 1));
  for (size_t a : {size_t(n), size_t(n + 1), size_t(n + n / 2), size_t(2 * n), size_t(2 * n + 7)}) {
    for (bool bytes : {false, true}) {
      CAPTURE(a);
      CAPTURE(bytes);
      PartsImport r = import_in_parts(text, {starts[a]}, static_cast<uint32_t>(a), size_t(1) << 20, bytes);
      CHECK(r.absorbed == 1);
      const std::string got = fingerprint(*r.importer);
      CHECK_MESSAGE(got == expected, first_difference(expected, got));
    }
  }
  PartsImport r3 = import_in_parts(text, {starts[n / 2], starts[n + 100]}, 3, size_t(1) << 20, true);
  CHECK(r3.absorbed == 2);
  CHECK(fingerprint(*r3.importer) == expected);
}

TEST_CASE("parts: metadata, counters, memory, instants, v1 flows and string ids in the later part") {
  std::string text = R"({"schemaVersion": 1, "traceEvents": [
  {"ph": "M", "name": "process_name", "pid": 1, "args": {"name": "first"}},
  {"ph": "M", "name": "thread_name", "pid": 1, "tid": "main", "args": {"name": "t1"}},
  {"ph": "X", "name": "a", "pid": 1, "tid": "main", "ts": 1, "dur": 3},
  {"ph": "C", "name": "queue", "pid": 1, "ts": 2, "args": {"length": 3}},
  {"ph": "s", "id": "f1", "cat": "ac2g", "name": "link", "pid": 1, "tid": "main", "ts": 2},
  {"ph": "i", "name": "[memory]", "pid": 1, "tid": "main", "ts": 3, "s": "t", "args": {"Device Id": 0, "Total Allocated": 10, "Total Reserved": 20, "Bytes": 10}},
  {"ph": "X", "name": "b", "pid": "gpu 0", "tid": -3, "ts": 4, "dur": 1, "cat": "kernel", "args": {"device": 0, "stream": 7}},
  {"ph": "M", "name": "process_name", "pid": 1, "args": {"name": ""}},
  {"ph": "M", "name": "thread_sort_index", "pid": 1, "tid": "main", "args": {"sort_index": 5}},
  {"ph": "M", "name": "process_sort_index", "pid": 1, "args": {"sort_index": 2}},
  {"ph": "M", "name": "process_labels", "pid": "gpu 0", "args": {"labels": "GPU"}},
  {"ph": "C", "name": "queue", "pid": 1, "ts": 5, "args": {"length": 4}},
  {"ph": "f", "id": "f1", "cat": "ac2g", "name": "link", "pid": "gpu 0", "tid": -3, "ts": 4, "bp": "e"},
  {"ph": "X", "name": "c", "pid": 3, "tid": "main", "ts": 6, "dur": 1},
  {"ph": "n", "id": 5, "cat": "io", "name": "read", "pid": 1, "ts": 7},
  {"ph": "I", "name": "mark", "pid": 3, "tid": "main", "ts": 8, "s": "g"},
  {"ph": "M", "name": "thread_name", "pid": 3, "tid": "main", "args": {"name": "t3"}}
],
  "deviceProperties": [{"id": 0, "name": "A100", "totalGlobalMem": 1, "computeMajor": 8, "computeMinor": 0, "numSms": 108}],
  "displayTimeUnit": "ns", "traceName": "parts"
})";
  CHECK(check_every_cut(text) > 0);
}

TEST_CASE("parts: collective args in both parts, in and out of time order") {
  // The side table of collective args is keyed by GPU op row: the later part's keys are offset by
  // the ops before it and, like the earlier part's, renumbered when the ops are sorted.
  std::string text = R"({"traceEvents": [
  {"ph": "X", "name": "k", "cat": "kernel", "pid": 0, "tid": 2, "ts": 50, "dur": 1, "args": {"stream": 2}},
  {"ph": "X", "name": "ag", "cat": "kernel", "pid": 0, "tid": 2, "ts": 40, "dur": 1, "args": {"stream": 2, "Collective name": "allgather", "In msg nelems": 7, "Out msg nelems": 56, "Group size": 8, "dtype": "Float", "Process Group Name": "pg1", "Seq": 3}},
  {"ph": "X", "name": "seq", "cat": "kernel", "pid": 0, "tid": 1, "ts": 30, "dur": 1, "args": {"stream": 1, "Seq": 0}},
  {"ph": "X", "name": "copy", "cat": "gpu_memcpy", "pid": 0, "tid": 1, "ts": 20, "dur": 1, "args": {"stream": 1, "bytes": 64}},
  {"ph": "X", "name": "ar", "cat": "kernel", "pid": 0, "tid": 1, "ts": 10, "dur": 1, "args": {"stream": 1, "Collective name": "allreduce", "In msg nelems": 5, "Out msg nelems": 5, "Group size": 2, "dtype": "BFloat16", "Process Group Name": "0", "Seq": -7}},
  {"ph": "X", "name": "group0", "cat": "kernel", "pid": 0, "tid": 2, "ts": 5, "dur": 1, "args": {"stream": 2, "Group size": 0}},
  {"ph": "X", "name": "none", "cat": "kernel", "pid": 0, "tid": 1, "ts": 60, "dur": 1, "args": {"stream": 1, "Seq": -1}},
  {"ph": "X", "name": "ar", "cat": "kernel", "pid": 0, "tid": 1, "ts": 70, "dur": 1, "args": {"stream": 1, "Collective name": "allreduce", "dtype": "Float"}}
]})";
  CHECK(check_every_cut(text) > 0);
}

TEST_CASE("parts: async slices, the bare array form and a truncated end") {
  // An async end whose begin is in an earlier part cannot be absorbed (its track depends on the
  // begin's name): that part is imported again in order. Begins never closed, on one track at one
  // time, are closed in file order however the parts built the map of open ones.
  std::string async = R"([
  {"ph": "b", "id": 1, "cat": "io", "name": "load", "pid": 1, "ts": 1},
  {"ph": "b", "id": 2, "cat": "io", "name": "save", "pid": 1, "ts": 2},
  {"ph": "X", "name": "work", "pid": 1, "tid": 1, "ts": 2, "dur": 8},
  {"ph": "e", "id": 1, "cat": "io", "name": "load", "pid": 1, "ts": 5},
  {"ph": "b", "id": 3, "cat": "io", "name": "late", "pid": 1, "ts": 6},
  {"ph": "e", "id": 3, "cat": "io", "name": "late", "pid": 1, "ts": 7},
  {"ph": "b", "id": 4, "cat": "net", "name": "open", "pid": 2, "ts": 8},
  {"ph": "b", "id": 11, "cat": "net", "name": "open", "pid": 2, "ts": 8},
  {"ph": "b", "id": 12, "cat": "net", "name": "open", "pid": 2, "ts": 8},
  {"ph": "X", "name": "more", "pid": 1, "tid": 1, "ts": 11, "dur": 1},
  {"ph": "b", "id": 13, "cat": "net", "name": "open", "pid": 2, "ts": 8},
  {"ph": "b", "id": "x14", "cat": "net", "name": "open", "pid": 2, "ts": 8},
  {"ph": "b", "id": 15, "cat": "net", "name": "open", "pid": 2, "ts": 8}
])";
  CHECK(check_every_cut(async) > 0);
  std::string truncated = R"({"traceEvents": [
  {"ph": "B", "name": "a", "pid": 1, "tid": 1, "ts": 1},
  {"ph": "X", "name": "b", "pid": 1, "tid": 1, "ts": 2, "dur": 1},
  {"ph": "X", "name": "c", "pid": 1, "tid": 2, "ts": 3, "dur": 1},
  {"ph": "E", "pid": 1, "tid": 1, "ts": 4},
  {"ph": "X", "name": "d", "pid": 1, "tid": 2, "ts": 5, "dur": 1},
  {"ph": "X", "name": "cut", "pid": 1, "tid": 2, "ts": 6, "du)";
  CHECK(check_every_cut(truncated) > 0);
}

TEST_CASE("parts: cuts the later part cannot know are wrong are caught") {
  // A cut inside an event, inside a string that looks like events, inside a top-level value and
  // inside args holding an array of objects: the earlier input does not end between events there.
  std::string text = R"({"otherData": [{"a": 1},{"b": 2}], "traceEvents": [
  {"ph": "X", "name": "},{\"ph\": \"X\"", "pid": 1, "tid": 1, "ts": 1, "dur": 1, "args": {"list": [{"x": 1},{"y": 2}]}},
  {"ph": "X", "name": "b", "pid": 1, "tid": 1, "ts": 2, "dur": 1}
]})";
  const std::string expected = fingerprint(*import_whole(text));
  size_t absorbed = 0, cuts = 0;
  for (size_t at = 1; at < text.size(); ++at) {
    PartsImport r = import_in_parts(text, {at}, static_cast<uint32_t>(at), 5);
    absorbed += r.absorbed;
    ++cuts;
    std::string got = fingerprint(*r.importer);
    CHECK_MESSAGE(got == expected, "cut at byte ", at, "\n", first_difference(expected, got));
  }
  // Absorbed only where the cut is between two events (a '{' or whitespace before one).
  CHECK(absorbed > 0);
  CHECK(absorbed < cuts / 4);
  // The first likely start is a wrong guess, inside the top-level value before the events.
  CHECK(likely_event_start(text, 0) == text.find("},{") + 2);
}

namespace {

// A random trace of every kind of event the importer joins across parts: B/E nested, unmatched and
// backwards, X with flow v2 marks, async b/e/n (some ends unmatched), v1 flows, counters, instants
// and [memory] events, metadata (also "" names), string and negative ids, a value after the events.
std::string random_trace(uint32_t seed) {
  std::mt19937 rng(seed);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint32_t>(n)); };
  std::vector<std::string> ev;
  const char* pids[] = {"1", "2", "\"host\"", "-7"};
  const char* tids[] = {"1", "2", "\"main\"", "-3"};
  const char* names[] = {"a", "b", "", "aten::mm", "k"};
  int64_t ts = 1000;
  for (int i = 0; i < 60; ++i) {
    ts += pick(5) - 1;  // sometimes backwards
    std::string where =
        std::string("\"pid\": ") + pids[pick(4)] + ", \"tid\": " + tids[pick(4)] + ", \"ts\": " + std::to_string(ts);
    std::string name = std::string("\"name\": \"") + names[pick(5)] + "\"";
    switch (pick(12)) {
      case 0:
      case 1:
        ev.push_back("{\"ph\": \"B\", " + name + ", \"cat\": \"cpu_op\", " + where +
                     (pick(3) == 0 ? ", \"bind_id\": \"0x" + std::to_string(pick(3)) + "\", \"flow_out\": true" : "") +
                     "}");
        break;
      case 2:
      case 3: ev.push_back("{\"ph\": \"E\", " + where + "}"); break;
      case 4:
        ev.push_back("{\"ph\": \"X\", " + name + ", \"cat\": \"kernel\", " + where +
                     ", \"dur\": " + std::to_string(pick(9)) +
                     ", \"args\": {\"correlation\": " + std::to_string(pick(5)) + ", \"stream\": 7}" +
                     (pick(2) ? ", \"bind_id\": \"0x" + std::to_string(pick(3)) + "\", \"flow_in\": true" : "") + "}");
        break;
      case 5:
        ev.push_back("{\"ph\": \"" + std::string(pick(2) ? "b" : "e") + "\", \"id\": " + std::to_string(pick(3)) +
                     ", \"cat\": \"io\", " + name + ", " + where + "}");
        break;
      case 6: ev.push_back("{\"ph\": \"n\", \"id\": 9, \"cat\": \"io\", " + name + ", " + where + "}"); break;
      case 7:
        ev.push_back("{\"ph\": \"" + std::string(1, "stf"[pick(3)]) + "\", \"id\": \"f" + std::to_string(pick(3)) +
                     "\", \"cat\": \"ac2g\", \"name\": \"ac2g\", " + where + "}");
        break;
      case 8:
        ev.push_back("{\"ph\": \"C\", " + name + ", " + where + ", \"args\": {\"v\": " + std::to_string(pick(100)) +
                     "}}");
        break;
      case 9:
        ev.push_back("{\"ph\": \"i\", \"name\": \"[memory]\", \"s\": \"t\", " + where +
                     ", \"args\": {\"Device Id\": 0, \"Total Allocated\": 5, \"Total Reserved\": 9, \"Bytes\": 1}}");
        break;
      case 10:
        ev.push_back("{\"ph\": \"M\", \"name\": \"" + std::string(pick(2) ? "process_name" : "thread_name") + "\", " +
                     where + ", \"args\": {\"name\": \"" + names[pick(5)] + "\"}}");
        break;
      default:
        ev.push_back("{\"ph\": \"M\", \"name\": \"thread_sort_index\", " + where +
                     ", \"args\": {\"sort_index\": " + std::to_string(pick(4)) + "}}");
        break;
    }
  }
  std::string text = "{\"traceEvents\": [\n";
  for (size_t i = 0; i < ev.size(); ++i) text += (i ? ",\n  " : "  ") + ev[i];
  return text + "\n], \"displayTimeUnit\": \"ns\"}";
}

}  // namespace

TEST_CASE("parts: random traces of every kind of event, cut at every event") {
  size_t absorbed = 0;
  for (uint32_t seed = 1; seed <= 12; ++seed) {
    INFO("seed ", seed);
    absorbed += check_every_cut(random_trace(seed));
  }
  CHECK(absorbed > 100);
}

TEST_CASE("parts: likely_event_start and starts_as_object") {
  CHECK(likely_event_start("x\"}, \n  {\n    \"ph\"", 100) == 100 + 8);
  CHECK(likely_event_start("},{\"pid\":1}", 0) == 2);
  CHECK(likely_event_start("}, {1}", 0) == 0);    // not followed by a key
  CHECK(likely_event_start("} {\"a\"", 0) == 0);  // no comma
  CHECK(likely_event_start("},", 0) == 0);
  CHECK(starts_as_object("\xEF\xBB\xBF \n{\"traceEvents\""));
  CHECK_FALSE(starts_as_object("  [{"));
  CHECK_FALSE(starts_as_object("   "));
}

TEST_CASE("parts: every test trace, cut at likely and at random points" * doctest::test_suite("corpus")) {
  std::mt19937 rng(7);
  size_t traces = 0, absorbed = 0, kineto_absorbed = 0, kineto_parts = 0;
  for (const std::string& path : data_json_traces()) {
    std::string text = read_trace(path);
    if (text.size() < 64) continue;
    ++traces;
    const std::string expected = fingerprint(*import_whole(text));
    for (int parts : {2, 3, 5}) {
      std::vector<uint64_t> starts = likely_starts(text, parts);
      PartsImport r = import_in_parts(text, starts, static_cast<uint32_t>(parts), 1 << 16, parts == 3);
      absorbed += r.absorbed;
      // Kineto files hold their events array after the device properties (objects that look like
      // events to likely_event_start): cuts past its start must all be right.
      size_t events_at = text.find("\"traceEvents\"");
      if (events_at != std::string::npos &&
          (path.find("kineto") != std::string::npos || path.find("nccl") != std::string::npos) && !starts.empty() &&
          starts[0] > events_at)
        kineto_parts += starts.size(), kineto_absorbed += r.absorbed;
      std::string got = fingerprint(*r.importer);
      CHECK_MESSAGE(got == expected, path, " in ", parts, " parts\n", first_difference(expected, got));
    }
    std::uniform_int_distribution<uint64_t> at(1, text.size() - 1);
    std::vector<uint64_t> random = {at(rng), at(rng)};
    std::sort(random.begin(), random.end());
    if (random[0] == random[1]) random.pop_back();
    std::string got = fingerprint(*import_in_parts(text, random, 3, 1 << 16).importer);
    CHECK_MESSAGE(got == expected, path, " cut at random\n", first_difference(expected, got));
  }
  CHECK(traces > 40);
  MESSAGE("parts absorbed: ", absorbed, "; Kineto: ", kineto_absorbed, " of ", kineto_parts);
  // Kineto traces are cut where likely_event_start says, and those cuts are right.
  CHECK(kineto_parts > 20);
  CHECK(kineto_absorbed == kineto_parts);
}

TEST_CASE("parts: a plain file read and imported on threads (the CLI's --jobs)") {
  std::string text = read_trace(kNccl);
  // In the system's temporary directory: the test must not depend on the checkout having a build/.
  std::string path = (std::filesystem::temp_directory_path() / "tracewise_parts_test_trace.json").string();
  {
    std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(path.c_str(), "wb"), std::fclose);
    REQUIRE(f);
    REQUIRE(std::fwrite(text.data(), 1, text.size(), f.get()) == text.size());
  }
  const std::string expected = fingerprint(*import_whole(text));
  for (int parts : {2, 4, 7}) {
    TraceImporter imp;
    std::string error;
    REQUIRE(import_in_parts(path, text.size(), parts, imp, error));
    imp.finish();
    std::string got = fingerprint(imp);
    CHECK_MESSAGE(got == expected, parts, " parts\n", first_difference(expected, got));
  }
  TraceImporter missing;
  std::string error;
  CHECK_FALSE(import_in_parts(path + ".missing", 100, 2, missing, error));
  CHECK(error.find("cannot open") == 0);
  CHECK(parts_for(uint64_t(10) << 20, 8) == 1);
  CHECK(parts_for(uint64_t(100) << 20, 8) == 3);
  CHECK(parts_for(uint64_t(1) << 30, 2) == 2);
  std::remove(path.c_str());
}

TEST_CASE("parts: a later part's bytes that are short, of another format or out of range are refused") {
  std::string text = read_trace(kNccl);
  std::vector<uint64_t> starts = likely_starts(text, 2);
  REQUIRE(starts.size() == 1);
  const std::string expected = fingerprint(*import_whole(text));
  TraceImporter part;
  part.begin_later_part(starts[0], true);
  part.push(text.data() + starts[0], text.size() - starts[0]);
  part.end_input();
  using Bytes = std::vector<uint8_t>;
  using Columns = std::vector<Bytes>;
  const CollectiveTable& coll = part.state().model.gpu_ops.collectives;
  const IdPairColumn& ids = part.state().model.slices.ids;
  const CategoryColumn& cats = part.state().model.slices.cat;
  const PodBuffer<FlowPoint>& points = part.state().flow_points();
  const GpuOpTable& ops = part.state().model.gpu_ops;
  REQUIRE(coll.size() > 0);
  REQUIRE(ops.bytes_op.size() > 0);
  REQUIRE(cats.values.size() < 200);
  REQUIRE(points.size() > 0);
  // The HTA trace's runtime calls and kernels have two differing ids: the side table is not empty.
  REQUIRE(ids.second_rows.size() > 0);
  size_t one_id_row = 0;  // a row with one id, or none
  while (one_id_row < ids.size() && ids.codes[one_id_row] >> IdPairColumn::kShapeShift != IdPairColumn::kExternal)
    ++one_id_row;
  REQUIRE(one_id_row < ids.size());
  // A row whose ids do not differ, after the last but one differing pair's: the side table's keys
  // still ascend with it last.
  const size_t n_second = ids.second_rows.size();
  REQUIRE(n_second > 1);
  uint32_t same_ids_row = ids.second_rows[n_second - 2] + 1;
  while (same_ids_row < ids.size() && ids.codes[same_ids_row] >> IdPairColumn::kShapeShift == IdPairColumn::kDiffer)
    ++same_ids_row;
  REQUIRE(same_ids_row < ids.size());
  auto column_of = [&part](const auto& column) {  // its index in part_columns()
    const auto all = part.state().part_columns();
    size_t i = 0;
    while (i < all.size() && all[i].first != column.data()) ++i;
    REQUIRE(i < all.size());
    return i;
  };
  auto header_cut = [](size_t keep) { return [keep](Bytes& h, Columns&) { h.resize(std::min(keep, h.size())); }; };
  std::vector<std::function<void(Bytes&, Columns&)>> spoil = {
      header_cut(0),
      header_cut(7),
      header_cut(5000),
      [](Bytes& h, Columns&) { h.pop_back(); },
      [](Bytes& h, Columns&) { h[0] ^= 1; },                     // another format
      [](Bytes&, Columns& c) { c[0].resize(c[0].size() - 8); },  // a column of another size
      // Well-formed bytes with a slice on a track the part does not have (column 2: track).
      [](Bytes&, Columns& c) { std::memset(c[2].data() + 4 * 100, 0x7f, 4); },
      // Collective args keyed by a GPU op the part does not have, or naming a string it does not.
      [&](Bytes&, Columns& c) { std::memset(c[column_of(coll.op)].data(), 0x7f, 4); },
      [&](Bytes&, Columns& c) { std::memset(c[column_of(coll.dtype)].data(), 0x7f, 4); },
      // An id pair coded as escaped (id_pair_column.h) with no escaped ids for it; one coded as
      // differing with no second id for it; a second id keyed by a row the part does not have.
      [&](Bytes&, Columns& c) { std::memset(c[column_of(ids.codes)].data(), 0xff, 4); },
      [&](Bytes&, Columns& c) {
        const uint32_t code = uint32_t(IdPairColumn::kDiffer) << IdPairColumn::kShapeShift | 5;
        std::memcpy(c[column_of(ids.codes)].data() + 4 * one_id_row, &code, 4);
      },
      [&](Bytes&, Columns& c) { std::memset(c[column_of(ids.second_rows)].data(), 0x7f, 4); },
      // A second id keyed by a row whose ids do not differ, the keys still ascending.
      [&](Bytes&, Columns& c) {
        std::memcpy(c[column_of(ids.second_rows)].data() + 4 * (n_second - 1), &same_ids_row, 4);
      },
      // A category code past the part's own categories (category_column.h).
      [&](Bytes&, Columns& c) { std::memset(c[column_of(cats.codes)].data() + 3, 200, 1); },
      // A v1 flow point on a lane the part does not have (the points go straight to the tables' end).
      [&](Bytes&, Columns& c) {
        FlowPoint p;
        std::memcpy(&p, c[column_of(points)].data(), sizeof p);
        p.set_lane(FlowPoint::kLaneLimit - 1);
        std::memcpy(c[column_of(points)].data(), &p, sizeof p);
      },
      // A v1 flow point whose time is coded as kept beside it (FlowTimes) with none kept for it.
      [&](Bytes&, Columns& c) {
        FlowPoint p;
        std::memcpy(&p, c[column_of(points)].data(), sizeof p);
        p.ts_code = FlowTimes::kEscaped;
        std::memcpy(c[column_of(points)].data(), &p, sizeof p);
      },
      // A GPU op's config past the part's own configs (gpu_config_table.h), or its bytes keyed by an
      // op the part does not have.
      [&](Bytes&, Columns& c) { std::memset(c[column_of(ops.config)].data() + 4 * (ops.size() - 1), 0x7f, 4); },
      [&](Bytes&, Columns& c) { std::memset(c[column_of(ops.bytes_op)].data(), 0x7f, 4); },
  };
  for (size_t i = 0; i < spoil.size(); ++i) {
    // The first part, the spoilt later part refused, then its bytes pushed: as if it never came.
    auto first = std::make_unique<TraceImporter>();
    first->push(text.data(), starts[0]);
    CHECK_FALSE_MESSAGE(absorb_through_bytes(*first, part, spoil[i]), "spoilt ", i);
    first->push(text.data() + starts[0], text.size() - starts[0]);
    first->finish();
    std::string got = fingerprint(*first);
    CHECK_MESSAGE(got == expected, "spoilt ", i, "\n", first_difference(expected, got));
  }
  auto first = std::make_unique<TraceImporter>();
  first->push(text.data(), starts[0]);
  CHECK(absorb_through_bytes(*first, part));
  first->finish();
  CHECK(fingerprint(*first) == expected);
}
