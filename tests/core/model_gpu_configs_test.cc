// The GPU ops' configs (gpu_config_table.h) and bytes (a side table of the op table): each op's
// device, stream, grid, block and bytes read back as the trace wrote them, after sorting, whole and
// in parts cut at every event and pair of events, with each distinct config held once.
#include <doctest/doctest.h>

#include <set>
#include <string>
#include <tuple>

#include "core/model/side_rows.h"
#include "tests/core/import_parts_check.h"
#include "tests/core/import_test_util.h"

using namespace tw;
using namespace tw::test;

namespace {

constexpr int kOps = 60;

struct Expected {
  GpuConfig config;
  int64_t bytes = -1;
};

// Op i's config and bytes: shapes repeat (a step's kernels), some are new, some lack device or
// stream (the process's pid and the thread's tid stand in), a few hold values no small field fits.
Expected expected_op(int i) {
  Expected e;
  e.config.device = i % 17 == 0 ? 4 : i % 3;               // 4: no "device" arg, the pid
  e.config.stream = i % 19 == 0 ? 50 + i % 4 : 7 + i % 2;  // 50+: no "stream" arg, the tid
  if (i % 5 != 4) {                                        // kernels
    const uint32_t g = i % 23 == 0 ? 4000000000u + i : 132u * (1 + i % 4);
    e.config.grid = {g, 1, 1 + uint32_t(i % 2)};
    if (i % 29) e.config.block = {384, 1, 1};  // else none written
  }
  if (i % 5 == 4) {  // memcpy / memset
    const int64_t values[] = {4194304, 0, -5, INT64_MAX, -1, 64};
    e.bytes = values[(i / 5) % 6];
  } else if (i % 37 == 0) {
    e.bytes = 12;  // a kernel with "bytes" too
  }
  return e;
}

// Written backwards in time so that sorting moves every op.
std::string gpu_trace() {
  std::string t = R"({"traceEvents": [)";
  for (int i = 0; i < kOps; ++i) {
    const Expected e = expected_op(i);
    std::string args;
    auto arg = [&args](const std::string& kv) { args += (args.empty() ? "" : ",") + kv; };
    if (i % 17) arg("\"device\":" + std::to_string(e.config.device));
    if (i % 19) arg("\"stream\":" + std::to_string(e.config.stream));
    const auto& g = e.config.grid;
    const auto& b = e.config.block;
    if (g[0]) arg("\"grid\":[" + std::to_string(g[0]) + "," + std::to_string(g[1]) + "," + std::to_string(g[2]) + "]");
    if (b[0]) arg("\"block\":[" + std::to_string(b[0]) + "," + std::to_string(b[1]) + "," + std::to_string(b[2]) + "]");
    if (e.bytes != -1 || i % 10 == 9) arg("\"bytes\":" + std::to_string(e.bytes));  // -1 written, or absent
    const char* cat = i % 5 != 4 ? "kernel" : i % 10 == 4 ? "gpu_memcpy" : "gpu_memset";
    const std::string tid = std::to_string(i % 19 == 0 ? e.config.stream : 7 + i % 2);
    t += std::string(i ? "," : "") + "\n  {\"ph\": \"X\", \"cat\": \"" + cat + "\", \"name\": \"op" +
         std::to_string(i) + "\", \"pid\": 4, \"tid\": " + tid + ", \"ts\": " + std::to_string(10000 - 10 * i) +
         ", \"dur\": 5, \"args\": {" + args + "}}";
  }
  return t + "\n]}";
}

size_t distinct_configs() {
  std::set<std::tuple<int32_t, int64_t, std::array<uint32_t, 3>, std::array<uint32_t, 3>>> s;
  for (int i = 0; i < kOps; ++i) {
    const GpuConfig c = expected_op(i).config;
    s.emplace(c.device, c.stream, c.grid, c.block);
  }
  return s.size();
}

void check_ops(TraceModel& m) {
  const GpuOpTable& g = m.gpu_ops;
  REQUIRE(g.size() == kOps);
  std::set<int> seen;
  for (uint32_t r = 0; r < g.size(); ++r) {
    const std::string name(m.strings.get(m.slices.name.at(g.slice[r])));
    const int i = std::stoi(name.substr(2));
    CAPTURE(name);
    seen.insert(i);
    const Expected e = expected_op(i);
    CHECK(g.config_at(r) == e.config);
    CHECK(g.device_at(r) == e.config.device);
    CHECK(g.stream_at(r) == e.config.stream);
    CHECK(g.bytes_at(r) == e.bytes);
  }
  CHECK(seen.size() == kOps);
  CHECK(g.configs.size() == distinct_configs());
  CHECK(g.configs.size() < kOps / 2);  // the test shares configs, as real traces do
  CHECK(g.bytes_op.size() == g.bytes_value.size());
  CHECK(side_rows_valid(g.bytes_op, g.size()));
}

}  // namespace

TEST_CASE("GPU ops: configs and bytes read back after sorting, whole and in parts, each config held once") {
  const std::string text = gpu_trace();
  ImporterPtr whole = import_all_ways(text);
  check_ops(whole->model());
  const size_t absorbed = check_every_cut(text, check_ops);
  CAPTURE(absorbed);
  CHECK(absorbed > kOps);
}
