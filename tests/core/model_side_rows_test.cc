// Side tables of the model (side_rows.h): the collective args of the GPU ops that have any, read
// back per op after the ops are sorted. (Their parts imports: import_parts_test.cc.)
#include <doctest/doctest.h>

#include <string>

#include "core/model/side_rows.h"
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
