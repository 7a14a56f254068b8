// A launch under no operator (a runtime call on a thread of its own, as autograd's backward
// threads and some runtimes make them) goes to the first operator slice, in table order, that
// carries its Kineto "External id" (launch_operators); against a brute-force join on a
// hand-written trace and on a generated one with thousands of such launches.
#include <doctest/doctest.h>

#include <map>
#include <string>

#include "core/analysis/operators.h"
#include "tests/core/detail_test_util.h"

namespace tw {
namespace {

// Thread 1 (the first track): operators whose ids fall (9, then 7) and an id used twice (7: the
// first in table order wins); thread 2: a later operator with id 7 too, and launches under no
// operator with ids 9, 7, 11 (11: no operator has it) and none at all.
constexpr const char* kTrace = R"json({"traceEvents": [
  {"ph": "X", "cat": "cpu_op", "name": "aten::relu", "pid": 1, "tid": 1, "ts": 5, "dur": 3, "args": {"External id": 9}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 10, "dur": 20, "args": {"External id": 7}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::mm_again", "pid": 1, "tid": 1, "ts": 40, "dur": 10, "args": {"External id": 7}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::late", "pid": 1, "tid": 2, "ts": 60, "dur": 10, "args": {"External id": 7}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 2, "ts": 100, "dur": 5, "args": {"correlation": 1, "External id": 9}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 2, "ts": 110, "dur": 5, "args": {"correlation": 2, "External id": 7}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 2, "ts": 120, "dur": 5, "args": {"correlation": 3, "External id": 11}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 2, "ts": 130, "dur": 5, "args": {"correlation": 4}},
  {"ph": "X", "cat": "kernel", "name": "relu_kernel", "pid": 0, "tid": 7, "ts": 200, "dur": 3, "args": {"correlation": 1, "device": 0, "stream": 7}},
  {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 210, "dur": 40, "args": {"correlation": 2, "device": 0, "stream": 7}},
  {"ph": "X", "cat": "kernel", "name": "other", "pid": 0, "tid": 7, "ts": 260, "dur": 2, "args": {"correlation": 3, "device": 0, "stream": 7}},
  {"ph": "X", "cat": "kernel", "name": "plain", "pid": 0, "tid": 7, "ts": 270, "dur": 1, "args": {"correlation": 4, "device": 0, "stream": 7}}
]})json";

// What launch_operators promises, the plain way: the nearest enclosing operator, else the first
// operator slice in table order with the launch's External id (a map of every id's first one).
LaunchOperators brute_force(const TraceModel& m) {
  const SliceTable& s = m.slices;
  std::map<int64_t, uint32_t> first_op;
  for (uint32_t i = 0; i < s.size(); ++i)
    if (s.kind_at(i) == EventKind::kCpuOp && s.external_id_at(i) != kNoId) first_op.emplace(s.external_id_at(i), i);
  LaunchOperators r;
  for (const LaunchLink& l : m.launches) {
    uint32_t p = s.parent[l.launch_slice];
    while (p != kNoParent && s.kind_at(p) != EventKind::kCpuOp) p = s.parent[p];
    uint8_t by_external = 0;
    const auto it = first_op.find(s.external_id_at(l.launch_slice));
    if (p == kNoParent && s.external_id_at(l.launch_slice) != kNoId && it != first_op.end())
      p = it->second, by_external = 1;
    r.op.push_back(p);
    r.by_external.push_back(by_external);
  }
  return r;
}

void check_against_brute_force(const TraceModel& m) {
  const LaunchOperators got = launch_operators(m), want = brute_force(m);
  CHECK(got.op == want.op);
  CHECK(got.by_external == want.by_external);
}

TEST_CASE("launch operators: a launch under no operator goes to the first operator with its External id") {
  auto imp = detail_test::import_text(kTrace);
  const TraceModel& m = imp->model();
  REQUIRE(m.launches.size() == 4);
  const LaunchOperators r = launch_operators(m);
  auto op_name = [&](size_t li) {
    return r.op[li] == kNoParent ? std::string("-") : std::string(m.strings.get(m.slices.name.at(r.op[li])));
  };
  // m.launches is in GPU op order: correlations 1, 2, 3, 4.
  CHECK(op_name(0) == "aten::relu");
  CHECK(op_name(1) == "aten::mm");
  CHECK(op_name(2) == "-");
  CHECK(op_name(3) == "-");
  CHECK(r.by_external == std::vector<uint8_t>{1, 1, 0, 0});
  check_against_brute_force(m);

  const OperatorsResult ops = operator_stats(m, nullptr, &r);
  CHECK(ops.launches == 4);
  CHECK(ops.launches_attributed == 2);
  CHECK(ops.launches_by_external_id == 2);
}

TEST_CASE("launch operators: thousands of launches under no operator, ids in and out of order") {
  // Operators on two threads (ids rising on one, falling on the other, some ids twice), launches on
  // a third under no operator: every lookup direction of the search, against the brute force.
  std::string t = R"({"traceEvents": [)";
  auto add = [&t](const std::string& ev) { t += (t.back() == '[' ? "" : ",") + ev; };
  constexpr int kOps = 3000;
  for (int i = 0; i < kOps; ++i) {
    add(R"({"ph":"X","cat":"cpu_op","name":"op_a)" + std::to_string(i % 13) + R"(","pid":1,"tid":1,"ts":)" +
        std::to_string(10 * i) + R"(,"dur":5,"args":{"External id":)" + std::to_string(2 * i) + "}}");
    add(R"({"ph":"X","cat":"cpu_op","name":"op_b)" + std::to_string(i % 7) + R"(","pid":1,"tid":2,"ts":)" +
        std::to_string(10 * i) + R"(,"dur":5,"args":{"External id":)" + std::to_string(3 * (kOps - i)) + "}}");
  }
  for (int i = 0; i < kOps; ++i) {
    const int id = (i * 7919) % (4 * kOps);  // scattered; some match no operator
    const std::string c = std::to_string(i + 1);
    add(R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":3,"ts":)" + std::to_string(5 * i) +
        R"(,"dur":2,"args":{"correlation":)" + c + R"(,"External id":)" + std::to_string(id) + "}}");
    add(R"({"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":)" + std::to_string(5 * i + 3) +
        R"(,"dur":1,"args":{"device":0,"stream":7,"correlation":)" + c + "}}");
  }
  t += "]}";
  auto imp = detail_test::import_text(t);
  const TraceModel& m = imp->model();
  REQUIRE(m.launches.size() == kOps);
  const LaunchOperators r = launch_operators(m);
  size_t found = 0;
  for (uint8_t b : r.by_external) found += b;
  CHECK(found > kOps / 4);
  CHECK(found < size_t(kOps));
  check_against_brute_force(m);
}

}  // namespace
}  // namespace tw
