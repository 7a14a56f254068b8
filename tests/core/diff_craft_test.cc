// The crafted candidates of tests/core/diff_craft.h: a hand-written trace checked byte for byte, and a
// real one (Kineto's resnet50 sample: 6 ProfilerSteps, one stream, cudnn's dgrad_engine the kernel with
// the largest total) read back by the importer, every expectation exact in ns.
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "core/analysis/steps.h"
#include "tests/core/diff_craft.h"
#include "tests/core/import_fingerprint.h"
#include "tests/core/test_data.h"

namespace tw::diff_test {
namespace {

// Two kernels slowed by 1.2: gemm_a [1010.001, 1020.001) us gets +2 us, gemm_b (7 ns) +1 ns (1.4
// rounded). Whatever ends before 1020.001 keeps its bytes; "1000.5" and "2.5" are never rewritten.
const char* const kTiny = R"({"schemaVersion": 1, "traceEvents": [
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "ts": 1000.001, "dur": 100},
  {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "ts": 1000.5, "dur": 2.5},
  {"ph": "X", "cat": "kernel", "name": "gemm_a", "ts": 1010.001, "dur": 10, "args": {"stream": 7, "x": 1.0e3}},
  {"dur": 5, "ts": 1020.001, "name": "relu", "cat": "kernel", "ph": "X"},
  {"ph": "X", "cat": "kernel", "name": "gemm_b", "ts": 1030.001, "dur": 0.007},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaDeviceSynchronize", "ts": 1015, "dur": 20},
  {"ph": "X", "cat": "kernel", "name": "other_stream", "ts": 1015, "dur": 10, "args": {"stream": 9}},
  {"ph": "i", "name": "before", "ts": 1020.000, "s": "t"},
  {"ph": "s", "id": 1, "name": "\"gemm_c\"", "ts": 1020.001},
  {"ph": "C", "name": "mem", "ts": 1200, "args": {"ts": 1}},
  {"ph": "M", "name": "process_name", "pid": 1, "args": {"name": "ts"}}
], "distributedInfo": {"rank": 0, "ts": [1, 2.50]}})";

TEST_CASE("diff craft: a slow kernel inserts its extra time, exact to the ns, every other byte kept") {
  CraftReport report;
  const std::string out = craft_diff(kTiny, {.slow_kernel = "gemm_", .factor_ppm = 1200000}, &report);
  CHECK(report.slowed == 2);
  CHECK(report.inserted_ns == 2001);
  // Exactly these numbers are rewritten (each `from` stands once in kTiny):
  std::string expected = kTiny;
  for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
           {R"("dur": 100})", R"("dur": 102.001})"},  // the step spans both ends
           {R"("dur": 10, "args": {"stream": 7)", R"("dur": 12.000, "args": {"stream": 7)"},
           {R"("ts": 1020.001, "name": "relu")", R"("ts": 1022.001, "name": "relu")"},  // starts at gemm_a's end
           {R"("ts": 1030.001, "dur": 0.007)", R"("ts": 1032.001, "dur": 0.008)"},
           {R"("ts": 1015, "dur": 20})", R"("ts": 1015, "dur": 22.001})"},  // a sync that spans both ends
           {R"("ts": 1020.001})", R"("ts": 1022.001})"},                    // the flow
           {R"("ts": 1200,)", R"("ts": 1202.001,)"}}) {
    CAPTURE(from);
    const size_t at = expected.find(from);
    REQUIRE(at != std::string::npos);
    REQUIRE(expected.find(from, at + 1) == std::string::npos);
    expected.replace(at, from.size(), to);
  }
  CHECK(out == expected);  // the kernel on stream 9 keeps its 10 us though it spans gemm_a's end
  // A factor of 1 changes nothing; a factor below 1 is refused (it would need time removed).
  CHECK(craft_diff(kTiny, {.slow_kernel = "gemm_", .factor_ppm = 1000000}) == kTiny);
  CHECK_THROWS_AS(craft_diff(kTiny, {.slow_kernel = "gemm_", .factor_ppm = 900000}), std::invalid_argument);
  CHECK_THROWS_AS(craft_diff(R"({"traceEvents": [{"ts": 1,}]})", {.slow_kernel = "x"}), std::runtime_error);
  CHECK(craft_diff(R"([{"ph": "X", "cat": "Kernel", "name": "k", "ts": 1, "dur": 1}])",
                   {.slow_kernel = "k", .factor_ppm = 1500000}) ==
        R"([{"ph": "X", "cat": "Kernel", "name": "k", "ts": 1, "dur": 1.500}])");  // the bare array form
}

TEST_CASE("diff craft: jitter scales a step around its start and moves what follows by the change") {
  const DiffCraft jitter{.slow_kernel = "", .jitter_ppm = 30000, .seed = 42};
  const int64_t ppm = 1000000 + step_jitter_ppm(42, 1, 30000);
  REQUIRE(ppm != 1000000);
  CHECK(std::abs(ppm - 1000000) <= 30000);
  CraftReport report;
  const std::string out = craft_diff(kTiny, jitter, &report);
  CHECK(report.jittered == 1);
  CHECK(out == craft_diff(kTiny, jitter));  // the same seed gives the same bytes
  CHECK(out != craft_diff(kTiny, {.slow_kernel = "", .jitter_ppm = 30000, .seed = 43}));
  const std::vector<ScannedEvent> a = EventScanner(kTiny).events(), b = EventScanner(out).events();
  REQUIRE(b.size() == a.size());
  const int64_t step = 1000001, change = scale_ppm(100000, ppm) - 100000;
  CHECK(b[0].ts == step);
  CHECK(b[0].dur == 100000 + change);
  CHECK(b[1].ts == step + scale_ppm(499, ppm));  // aten::mm [1000.5, 1003)
  CHECK(b[1].dur == scale_ppm(3000 - 1, ppm) - scale_ppm(499, ppm));
  CHECK(b[9].ts == 1200000 + change);  // the counter after the step
  CHECK(b[10].ts_len == 0);
  CHECK(step_jitter_ppm(42, 1, 30000) == step_jitter_ppm(42, 1, 30000));
  CHECK(splitmix64(0) == 0xe220a8397b1dcdafULL);  // the published first output of splitmix64 from 0
}

// The real trace, read once for the whole file (35 MB inflated).
constexpr const char* kResnet = "kineto/tb_plugin/samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json";
constexpr const char* kTopKernel = "dgrad_engine";

const std::string& base_text() {
  static const std::string text = test::read_data(std::string(kResnet) + ".gz");
  return text;
}

struct Loaded {
  test::ImporterPtr importer;
  std::vector<ProfilerStep> steps;
  int64_t top_total = 0, other_total = 0;  // summed GPU op time of the kernel of kTopKernel, of the others
  size_t top_count = 0;
};

Loaded load(const std::string& text) {
  Loaded l;
  l.importer = test::import_whole(text);
  const TraceModel& m = l.importer->model();
  l.steps = find_profiler_steps(m);
  for (uint32_t row : m.gpu_ops.slice) {
    const bool top = m.strings.get(m.slices.name.at(row)).find(kTopKernel) != std::string_view::npos;
    (top ? l.top_total : l.other_total) += m.slices.dur_at(row);
    l.top_count += top;
  }
  return l;
}

const Loaded& base() {
  static const Loaded loaded = load(base_text());
  return loaded;
}

// No problem the base does not have, none counted more often.
void check_same_problems(const Loaded& crafted) {
  CHECK(crafted.importer->model().slices.size() == base().importer->model().slices.size());
  CHECK(crafted.importer->model().flows.size() == base().importer->model().flows.size());
  for (const auto& [name, p] : crafted.importer->stats().problems) {
    CAPTURE(name);
    const auto& known = base().importer->stats().problems;
    const auto it = known.find(name);
    CHECK(p.count == (it == known.end() ? 0 : it->second.count));
  }
}

TEST_CASE("diff craft: resnet50 with dgrad_engine 20 % slower: its total +20 %, each step + its kernels' extra") {
  REQUIRE_FALSE(base_text().empty());
  REQUIRE(base().steps.size() == 6);
  REQUIRE(base().top_count == 162);
  CraftReport report;
  const Loaded slow = load(craft_diff(base_text(), {.slow_kernel = kTopKernel, .factor_ppm = 1200000}, &report));
  check_same_problems(slow);
  CHECK(report.slowed == 162);
  CHECK(slow.top_total - base().top_total == report.inserted_ns);
  CHECK(std::abs(slow.top_total - scale_ppm(base().top_total, 1200000)) <= static_cast<int64_t>(base().top_count));
  CHECK(slow.other_total == base().other_total);
  // Each step window grows by the extra time of the slowed kernels that end inside it, and starts
  // later by the extra time of those that ended before it.
  const TraceModel& m = base().importer->model();
  REQUIRE(slow.steps.size() == base().steps.size());
  int64_t in_steps = 0;
  for (size_t s = 0; s < slow.steps.size(); ++s) {
    const ProfilerStep &b = base().steps[s], &c = slow.steps[s];
    int64_t inside = 0, before = 0;
    for (uint32_t row : m.gpu_ops.slice) {
      if (m.strings.get(m.slices.name.at(row)).find(kTopKernel) == std::string_view::npos) continue;
      const int64_t end = m.slices.end_ns(row), extra = scale_ppm(m.slices.dur_at(row), 200000);
      inside += end > b.begin_ns && end <= b.end_ns ? extra : 0;
      before += end <= b.begin_ns ? extra : 0;
    }
    CAPTURE(b.number);
    CHECK(c.number == b.number);
    CHECK(inside > 0);
    CHECK(c.duration_ns() - b.duration_ns() == inside);
    CHECK(c.begin_ns - b.begin_ns == before);
    in_steps += inside;
  }
  CHECK(in_steps <= report.inserted_ns);
}

TEST_CASE("diff craft: resnet50 with 3 % jitter: steps within 3 %, kernels within the jitter, seeded bytes") {
  const DiffCraft jitter{.slow_kernel = "", .jitter_ppm = 30000, .seed = 7};
  const std::string text = craft_diff(base_text(), jitter);
  CHECK(text == craft_diff(base_text(), jitter));
  const Loaded noisy = load(text);
  check_same_problems(noisy);
  REQUIRE(noisy.steps.size() == base().steps.size());
  size_t changed = 0;
  for (size_t s = 0; s < noisy.steps.size(); ++s) {
    const int64_t d = base().steps[s].duration_ns(), delta = noisy.steps[s].duration_ns() - d;
    CAPTURE(s);
    CHECK(std::abs(delta) <= d * 3 / 100 + 1);
    changed += delta != 0;
  }
  CHECK(changed >= 5);
  // Each op scales by the factors of the steps it runs in, give or take 1 ns of rounding.
  const auto ops = static_cast<int64_t>(base().importer->model().gpu_ops.size());
  for (const auto& [crafted, original] :
       {std::pair{noisy.top_total, base().top_total}, std::pair{noisy.other_total, base().other_total}}) {
    CHECK(crafted != original);
    CHECK(std::abs(crafted - original) <= original * 3 / 100 + ops);
  }
}

TEST_CASE("diff craft: both options at once are the jitter applied to the slowed trace") {
  const DiffCraft slow{.slow_kernel = kTopKernel, .factor_ppm = 1200000};
  const DiffCraft both{.slow_kernel = kTopKernel, .factor_ppm = 1200000, .jitter_ppm = 30000, .seed = 7};
  const DiffCraft jitter{.slow_kernel = "", .jitter_ppm = 30000, .seed = 7};
  // Compared as ns: a time that the jitter took back to its base value keeps its base text in one.
  const std::vector<ScannedEvent> once = EventScanner(craft_diff(base_text(), both)).events();
  const std::vector<ScannedEvent> twice = EventScanner(craft_diff(craft_diff(base_text(), slow), jitter)).events();
  REQUIRE(once.size() == twice.size());
  size_t mismatched = 0;
  for (size_t i = 0; i < once.size(); ++i) mismatched += once[i].ts != twice[i].ts || once[i].dur != twice[i].dur;
  CHECK(mismatched == 0);
}

}  // namespace
}  // namespace tw::diff_test
