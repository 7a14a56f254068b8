// Side tables of the model (side_rows.h): the collective args of the GPU ops that have any, and
// the Kineto ids that do not fit 32 bits (id_column.h), read back per row after sorting and after
// a parts import. (The collective args' parts imports: import_parts_test.cc.)
#include <doctest/doctest.h>

#include <string>

#include "core/model/side_rows.h"
#include "tests/core/import_parts_check.h"
#include "tests/core/import_test_util.h"

using namespace tw;
using namespace tw::test;

namespace {

// The GPU op row of the first slice named `name`.
uint32_t op_named(TraceModel& m, std::string_view name) {
  const int slice = slice_named(m, name);
  REQUIRE(slice >= 0);
  for (uint32_t row = 0; row < m.gpu_ops.size(); ++row)
    if (m.gpu_ops.slice[row] == static_cast<uint32_t>(slice)) return row;
  FAIL("no GPU op for ", name);
  return 0;
}

}  // namespace

TEST_CASE("collective args: a side row only for the ops that have any, each found again after sorting") {
  // Written stream 2 first and backwards in time, so sorting moves every op row.
  const std::string text = R"({"traceEvents": [
  {"ph": "X", "name": "plain", "cat": "kernel", "pid": 0, "tid": 2, "ts": 50, "dur": 1, "args": {"stream": 2, "Seq": -1}},
  {"ph": "X", "name": "ag", "cat": "kernel", "pid": 0, "tid": 2, "ts": 40, "dur": 1, "args": {"stream": 2, "Collective name": "allgather", "In msg nelems": 7, "Out msg nelems": 56, "Group size": 8, "dtype": "Float", "Process Group Name": "pg1", "Seq": 3}},
  {"ph": "X", "name": "seq0", "cat": "kernel", "pid": 0, "tid": 1, "ts": 30, "dur": 1, "args": {"stream": 1, "Seq": 0}},
  {"ph": "X", "name": "copy", "cat": "gpu_memcpy", "pid": 0, "tid": 1, "ts": 20, "dur": 1, "args": {"stream": 1, "bytes": 64}},
  {"ph": "X", "name": "ar", "cat": "kernel", "pid": 0, "tid": 1, "ts": 10, "dur": 1, "args": {"stream": 1, "Collective name": "allreduce", "In msg nelems": 5, "Group size": 0, "Seq": -7}}
]})";
  ImporterPtr imp = import_all_ways(text);
  TraceModel& m = imp->model();
  const GpuOpTable& g = m.gpu_ops;
  REQUIRE(g.size() == 5);
  // "Seq": -1 is the default: no side row for it, nor for the copy.
  CHECK(g.collectives.size() == 3);
  CHECK(side_rows_valid(g.collectives.op, g.size()));

  const CollectiveArgs ag = g.collective_args(op_named(m, "ag"));
  CHECK(m.strings.get(ag.collective) == "allgather");
  CHECK(ag.in_nelems == 7);
  CHECK(ag.out_nelems == 56);
  CHECK(ag.group_size == 8);
  CHECK(ag.seq == 3);
  CHECK(m.strings.get(ag.dtype) == "Float");
  CHECK(m.strings.get(ag.pg_name) == "pg1");

  const CollectiveArgs ar = g.collective_args(op_named(m, "ar"));
  CHECK(m.strings.get(ar.collective) == "allreduce");
  CHECK(ar.in_nelems == 5);
  CHECK(ar.out_nelems == -1);
  CHECK(ar.group_size == 0);
  CHECK(ar.seq == -7);
  CHECK(ar.dtype == 0);

  const CollectiveArgs seq0 = g.collective_args(op_named(m, "seq0"));
  CHECK(seq0.any());
  CHECK(seq0.seq == 0);
  CHECK(seq0.collective == 0);
  for (const char* name : {"plain", "copy"}) {
    CAPTURE(name);
    CHECK_FALSE(g.collective_args(op_named(m, name)).any());
  }
}

TEST_CASE("collective args: renumbered side rows are sorted again, their values with them") {
  CollectiveTable t;
  CollectiveArgs a;
  for (uint32_t row : {1u, 4u, 6u}) a.seq = 100 + row, t.push_back(row, a);
  // Old row -> new row: 1 -> 5, 4 -> 0, 6 -> 2.
  t.renumber({3, 5, 4, 1, 0, 6, 2});
  CHECK(t.op == std::vector<uint32_t>{0, 2, 5});
  CHECK(t.seq == std::vector<int64_t>{104, 106, 101});
  CHECK(find_side_row(t.op, 2) == 1);
  CHECK(find_side_row(t.op, 3) == t.size());
  CHECK(side_rows_valid(t.op, 6));
  CHECK_FALSE(side_rows_valid(t.op, 5));
  CHECK_FALSE(side_rows_valid({2, 2}, 5));
}

namespace {

// Ids of every kind a trace may hold: fitting the 32-bit codes (0, 2^32 - 3), equal to the two
// reserved codes (2^32 - 2, 2^32 - 1), wider, negative, int64's ends, none, on X events, on a B/E
// pair (the E may come in a later part: the ids are set on the row then) and on a B never closed.
// Written out of time order, so sorting moves every row; the launches link by the widest ids.
const char* const kIdTrace = R"({"traceEvents": [
  {"ph": "X", "name": "launch_max", "cat": "cuda_runtime", "pid": 1, "tid": 1, "ts": 30, "dur": 1, "args": {"correlation": 9223372036854775807, "External id": -5}},
  {"ph": "X", "name": "launch_fit", "cat": "cuda_runtime", "pid": 1, "tid": 1, "ts": 10, "dur": 1, "args": {"correlation": 4294967293, "External id": 0}},
  {"ph": "X", "name": "k_max", "cat": "kernel", "pid": 0, "tid": 7, "ts": 40, "dur": 2, "args": {"correlation": 9223372036854775807, "stream": 7}},
  {"ph": "X", "name": "k_fit", "cat": "kernel", "pid": 0, "tid": 7, "ts": 20, "dur": 2, "args": {"correlation": 4294967293, "stream": 7}},
  {"ph": "X", "name": "codes", "cat": "cpu_op", "pid": 1, "tid": 2, "ts": 5, "dur": 1, "args": {"correlation": 4294967294, "External id": 4294967295}},
  {"ph": "X", "name": "wide", "cat": "cpu_op", "pid": 1, "tid": 2, "ts": 3, "dur": 1, "args": {"correlation": 4294967296, "External id": -9223372036854775807}},
  {"ph": "X", "name": "minus_one", "cat": "cpu_op", "pid": 1, "tid": 2, "ts": 1, "dur": 1, "args": {"correlation": -1}},
  {"ph": "X", "name": "no_ids", "cat": "cpu_op", "pid": 1, "tid": 2, "ts": 0, "dur": 1},
  {"ph": "B", "name": "pair", "cat": "cpu_op", "pid": 1, "tid": 3, "ts": 2, "args": {"correlation": -2, "External id": 8589934592}},
  {"ph": "X", "name": "inside", "cat": "cpu_op", "pid": 1, "tid": 3, "ts": 3, "dur": 1, "args": {"External id": 1}},
  {"ph": "E", "pid": 1, "tid": 3, "ts": 9},
  {"ph": "B", "name": "unclosed", "cat": "cpu_op", "pid": 1, "tid": 4, "ts": 1, "args": {"External id": -3}},
  {"ph": "X", "name": "int64_min", "cat": "cpu_op", "pid": 1, "tid": 4, "ts": 2, "dur": 1, "args": {"correlation": -9223372036854775808}}
]})";

struct Ids {
  const char* name;
  int64_t correlation, external_id;
};
const Ids kIds[] = {
    {"launch_max", INT64_MAX, -5},     {"launch_fit", 4294967293, 0},
    {"k_max", INT64_MAX, kNoId},       {"k_fit", 4294967293, kNoId},
    {"codes", 4294967294, 4294967295}, {"wide", 4294967296, -INT64_MAX},
    {"minus_one", -1, kNoId},          {"no_ids", kNoId, kNoId},
    {"pair", -2, 8589934592},          {"inside", kNoId, 1},
    {"unclosed", kNoId, -3},           {"int64_min", kNoId, kNoId},  // INT64_MIN is kNoId: read as no id, as before
};

void check_ids(TraceModel& m) {
  const SliceTable& s = m.slices;
  for (const Ids& want : kIds) {
    CAPTURE(want.name);
    const int slice = slice_named(m, want.name);
    REQUIRE(slice >= 0);
    CHECK(s.correlation_at(slice) == want.correlation);
    CHECK(s.external_id_at(slice) == want.external_id);
  }
  // Only the ids that do not fit have a side row, and each side row is a row coded kEscaped.
  CHECK(s.correlation.escaped_rows.size() == 6);
  CHECK(s.external_id.escaped_rows.size() == 5);
  CHECK(s.correlation.escapes_fit(s.correlation, 0));
  CHECK(s.external_id.escapes_fit(s.external_id, 0));
  auto linked = [&m](const char* launch, const char* gpu) {
    for (const LaunchLink& l : m.launches)
      if (name_of_slice(m, l.launch_slice) == launch && name_of_slice(m, l.gpu_slice) == gpu) return true;
    return false;
  };
  CHECK(m.launches.size() == 2);
  CHECK(linked("launch_max", "k_max"));
  CHECK(linked("launch_fit", "k_fit"));
}

}  // namespace

TEST_CASE("ids: any int64 and kNoId read back after sorting, whole and in parts") {
  ImporterPtr whole = import_all_ways(kIdTrace);
  check_ids(whole->model());
  CHECK(check_every_cut(kIdTrace) > 0);
  // Every cut again for the side tables themselves: rows offset and renumbered, none lost.
  const std::string text = kIdTrace;
  const std::vector<uint64_t> starts = element_starts(text);
  for (size_t a = 1; a < starts.size(); ++a) {
    CAPTURE(starts[a]);
    PartsImport r = import_in_parts(text, {starts[a]}, static_cast<uint32_t>(a), 64, a % 2 == 1);
    check_ids(r.importer->model());
  }
}

TEST_CASE("ids: set and renumber keep the side table to the rows coded kEscaped") {
  IdColumn c;
  for (int64_t id : {int64_t(7), kNoId, int64_t(-1), int64_t(IdColumn::kEscaped), int64_t(3)}) c.push_back(id);
  CHECK(c.codes == std::vector<uint32_t>{7, IdColumn::kAbsent, IdColumn::kEscaped, IdColumn::kEscaped, 3});
  CHECK(c.escaped_rows == std::vector<uint32_t>{2, 3});
  c.set(0, INT64_MIN + 1);  // fitting -> escaped, before the other side rows
  c.set(2, 5);              // escaped -> fitting
  c.set(3, -8);             // escaped -> escaped
  c.set(4, kNoId);
  CHECK(c.escaped_rows == std::vector<uint32_t>{0, 3});
  CHECK(c.escaped_ids == std::vector<int64_t>{INT64_MIN + 1, -8});
  CHECK(c.escapes_fit(c, 0));
  // Old row -> new row: the side rows follow the codes' permutation.
  const std::vector<uint32_t> new_index = {4, 2, 3, 1, 0};
  std::vector<uint32_t> order = {4, 3, 1, 2, 0};  // new row -> old row, the same permutation
  permute_columns(order, c.codes);
  c.renumber(new_index);
  const int64_t want[] = {kNoId, -8, kNoId, 5, INT64_MIN + 1};
  for (size_t row = 0; row < 5; ++row) CHECK(c.at(row) == want[row]);
  CHECK(c.escaped_rows == std::vector<uint32_t>{1, 4});
  CHECK(c.escapes_fit(c, 0));
  // A code kEscaped without its side row, or a side row on a row not coded kEscaped, does not fit.
  IdColumn bad = c;
  bad.codes[2] = IdColumn::kEscaped;
  CHECK_FALSE(bad.escapes_fit(bad, 0));
  bad = c;
  bad.escaped_rows[0] = 2;
  CHECK_FALSE(bad.escapes_fit(bad, 0));
  CHECK_FALSE(c.escapes_fit(IdColumn{}, 2));  // row 4 is coded kEscaped, and no side row says so
  CHECK(c.escapes_fit(IdColumn{}, 5));
}
