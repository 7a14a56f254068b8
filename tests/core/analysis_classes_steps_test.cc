// Kernel classes (default and HTA rules, memory sub-kinds, user rules) and profiler steps, on tiny
// hand-written Kineto traces.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "core/analysis/hta_compat.h"
#include "core/analysis/kernel_classes.h"
#include "core/analysis/steps.h"
#include "core/regex/regex_syntax.h"
#include "tests/core/import_test_util.h"

namespace tw {
namespace {

std::string kernel(const char* name, int64_t ts, int64_t dur, int64_t corr, const char* cat = "kernel",
                   const char* extra = "") {
  return std::string(R"({"ph":"X","cat":")") + cat + R"(","name":")" + name + R"(","pid":0,"tid":7,"ts":)" +
         std::to_string(ts) + R"(,"dur":)" + std::to_string(dur) + R"(,"args":{"device":0,"stream":7,"correlation":)" +
         std::to_string(corr) + extra + "}}";
}
std::string cpu(const char* name, const char* cat, int64_t ts, int64_t dur, int64_t corr = -1) {
  std::string args = corr >= 0 ? R"(,"args":{"correlation":)" + std::to_string(corr) + "}" : "";
  return std::string(R"({"ph":"X","cat":")") + cat + R"(","name":")" + name + R"(","pid":1,"tid":1,"ts":)" +
         std::to_string(ts) + R"(,"dur":)" + std::to_string(dur) + args + "}";
}
std::string trace(const std::vector<std::string>& events) {
  std::string t = R"({"traceEvents":[)";
  for (size_t i = 0; i < events.size(); ++i) t += (i ? "," : "") + events[i];
  return t + "]}";
}

}  // namespace

TEST_CASE("kernel classes: defaults recognise communication, memory and computation") {
  auto imp = test::import_whole(trace({
      kernel("ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)", 0, 10, 1),
      kernel("void dpsk::ep::internode::combine<false, 8>(int4*)", 10, 10, 2),
      kernel("void deep_ep::intranode::dispatch<8>(int4*)", 20, 10, 3),
      kernel("nvshmemi_transfer_kernel", 30, 10, 4),
      kernel("void all_to_all_kernel<float>()", 40, 10, 5),
      kernel("custom_thing", 50, 10, 6, "kernel", R"(,"Collective name":"all_reduce")"),
      kernel("Memcpy HtoD (Pageable -> Device)", 60, 10, 7, "gpu_memcpy"),
      kernel("Memcpy DtoH (Device -> Pinned)", 70, 10, 8, "gpu_memcpy"),
      kernel("Memset (Device)", 80, 10, 9, "gpu_memset"),
      kernel("ampere_sgemm_128x64_nn", 90, 10, 10),
  }));
  const TraceModel& m = imp->model();
  REQUIRE(m.gpu_ops.size() == 10);
  auto cls = classify_gpu_ops(m, default_rules());
  auto name_of = [&](size_t row) { return std::string(m.strings.get(m.slices.name.at(m.gpu_ops.slice[row]))); };
  for (size_t r = 0; r < m.gpu_ops.size(); ++r) {
    const std::string n = name_of(r);
    KernelClass want = KernelClass::kCommunication;
    if (n.rfind("Mem", 0) == 0) want = KernelClass::kMemory;
    if (n == "ampere_sgemm_128x64_nn") want = KernelClass::kComputation;
    INFO(n);
    CHECK(cls[r] == want);
  }
  // HTA: by name only; DeepEP, NVSHMEM, all-to-all and "Collective name" are computation.
  auto hta = classify_gpu_ops(m, hta_rules());
  for (size_t r = 0; r < m.gpu_ops.size(); ++r) {
    const std::string n = name_of(r);
    KernelClass want = KernelClass::kComputation;
    if (n.rfind("nccl", 0) == 0) want = KernelClass::kCommunication;
    if (n.rfind("Mem", 0) == 0) want = KernelClass::kMemory;
    INFO(n);
    CHECK(hta[r] == want);
  }
  auto mem = memory_op_kinds(m);
  for (size_t r = 0; r < m.gpu_ops.size(); ++r) {
    const std::string n = name_of(r);
    if (n == "Memcpy HtoD (Pageable -> Device)") {
      CHECK(mem[r].kind == MemoryKind::kMemcpyHtoD);
      CHECK(mem[r].host == HostMemory::kPageable);
    } else if (n == "Memcpy DtoH (Device -> Pinned)") {
      CHECK(mem[r].kind == MemoryKind::kMemcpyDtoH);
      CHECK(mem[r].host == HostMemory::kPinned);
    } else if (n == "Memset (Device)") {
      CHECK(mem[r].kind == MemoryKind::kMemset);
    } else {
      CHECK(mem[r].kind == MemoryKind::kNone);
    }
  }
}

TEST_CASE("kernel classes: user rules, first match wins, invalid regexes never match") {
  auto imp = test::import_whole(trace({kernel("my_comm_kernel", 0, 10, 1), kernel("gemm", 10, 5, 2)}));
  KernelRules r;
  r.rules.push_back({"(unclosed", KernelClass::kOther, kRuleAnyGpuOp, false, false, "bad"});
  r.rules.push_back({"^my_.*comm", KernelClass::kCommunication, kRuleAnyGpuOp, false, false, ""});
  r.rules.push_back({"comm", KernelClass::kOther, kRuleAnyGpuOp, false, false, ""});
  r.fallback = KernelClass::kOther;
  std::vector<size_t> bad;
  auto cls = classify_gpu_ops(imp->model(), r, &bad);
  REQUIRE(bad.size() == 1);
  CHECK(bad[0] == 0);
  CHECK(cls[0] == KernelClass::kCommunication);
  CHECK(cls[1] == KernelClass::kOther);
}

TEST_CASE("regex syntax validator") {
  for (const char* ok : {"abc", "^a|b$", "(a)(?:b)\\1", "[a-z0-9_]+", "a{2,3}?", "\\bnccl\\b", "x*?", "[^\\]]", "\\x41",
                         "[\\x41-\\x5a]", "\\u00e9", "\\f\\v\\0", "[\\b-a]", "[a-z_\\-.]", "[z\\-a]", "[+\\--]"})
    CHECK_MESSAGE(regex_syntax_ok(ok), ok);
  for (const char* bad : {"(", ")", "[a", "*a", "a**", "a{", "a{3,2}", "[z-a]", "\\", "a|*", "\\2(a)", "(?<x>a)",
                          "\\x4", "\\xZZ", "\\u004", "[\\x5a-\\x41]", "[\\u12]"})
    CHECK_MESSAGE(!regex_syntax_ok(bad), bad);
}

TEST_CASE("kernel rules refuse what the linear-time engine cannot run, with the reason") {
  for (const char* pattern : {"elementwise(?=_kernel)", "(at)::\\1", "[\\u00e9]"}) {
    KernelRules out;
    std::string error;
    const std::string json =
        std::string(R"({"rules":[{"pattern":)") + nlohmann::json(pattern).dump() + R"(,"class":"memory"}]})";
    CAPTURE(pattern);
    CHECK_FALSE(kernel_rules_from_json(json, default_rules(), &out, &error));
    CHECK(error.find("invalid regex: ") != std::string::npos);
  }
}

TEST_CASE("profiler steps: CPU and GPU variants, dedup, HTA selection") {
  auto imp = test::import_whole(trace({
      cpu("ProfilerStep#5", "user_annotation", 0, 100),
      cpu("ProfilerStep#6", "user_annotation", 100, 100),
      cpu("ProfilerStep#7", "user_annotation", 200, 100),
      cpu("cudaLaunchKernel", "cuda_runtime", 10, 5, 1),
      cpu("cudaLaunchKernel", "cuda_runtime", 110, 5, 2),
      cpu("cudaLaunchKernel", "cuda_runtime", 210, 5, 3),
      kernel("a", 20, 10, 1),
      kernel("b", 120, 10, 2),
      kernel("c", 220, 10, 3),
      kernel("orphan", 230, 10, 99),
      R"({"ph":"X","cat":"gpu_user_annotation","name":"ProfilerStep#6","pid":0,"tid":7,"ts":105,"dur":50})",
  }));
  const TraceModel& m = imp->model();
  auto steps = find_profiler_steps(m);
  REQUIRE(steps.size() == 3);
  CHECK(steps[0].number == 5);
  CHECK(steps[2].number == 7);
  CHECK(steps[1].begin_ns == 100000);
  CHECK(steps[1].duration_ns() == 100000);
  auto gsteps = find_gpu_profiler_steps(m);
  REQUIRE(gsteps.size() == 1);
  CHECK(gsteps[0].number == 6);
  int64_t n = 0;
  CHECK(parse_profiler_step_name("ProfilerStep#12", &n));
  CHECK(n == 12);
  CHECK(!parse_profiler_step_name("ProfilerStep#", &n));
  CHECK(!parse_profiler_step_name("xProfilerStep#1", &n));

  HtaSelection sel = hta_select_gpu_ops(m);
  CHECK(sel.last_step_dropped);
  CHECK(sel.cutoff_ns == 200000);
  int kept = 0;
  for (size_t r = 0; r < m.gpu_ops.size(); ++r) {
    const std::string name(m.strings.get(m.slices.name.at(m.gpu_ops.slice[r])));
    const bool want = name == "a" || name == "b";
    INFO(name);
    CHECK(bool(sel.kept[r]) == want);
    kept += sel.kept[r];
  }
  CHECK(kept == 2);
}

}  // namespace tw

namespace tw {

TEST_CASE("kernel rules from JSON: extend, replace, errors") {
  KernelRules r;
  std::string err;
  REQUIRE(kernel_rules_from_json(
      R"({"rules":[{"pattern":"^my_a2a","class":"communication","kinds":["kernel"],"label":"team kernel"}]})",
      default_rules(), &r, &err));
  CHECK(r.name == "user");
  CHECK(r.rules.size() == default_rules().rules.size() + 1);
  CHECK(r.rules[0].pattern == "^my_a2a");
  CHECK(r.rules[0].kinds == kRuleKernel);
  CHECK(r.rules[0].label == "team kernel");

  REQUIRE(
      kernel_rules_from_json(R"({"extend":false,"fallback":"other","rules":[{"class":"memory","kinds":["memcpy"]}]})",
                             default_rules(), &r, &err));
  CHECK(r.rules.size() == 1);
  CHECK(r.fallback == KernelClass::kOther);
  CHECK(r.rules[0].pattern.empty());

  for (const char* bad : {"", "[]", "{}", R"({"rules":{}})", R"({"rules":[{"pattern":"(","class":"memory"}]})",
                          R"({"rules":[{"class":"gpu"}]})", R"({"rules":[{"class":"memory","kinds":["x"]}]})",
                          R"({"rules":[{"class":"memory","icase":"yes"}]})", R"({"fallback":"x","rules":[]})"}) {
    err.clear();
    CHECK_MESSAGE(!kernel_rules_from_json(bad, default_rules(), &r, &err), bad);
    CHECK(!err.empty());
  }
}

}  // namespace tw

namespace tw {

TEST_CASE("kernel classes: a huge hostile name is matched whole, without recursion per character") {
  std::string name = "void " + std::string(1 << 20, 'x') + " ncclKernel";
  std::string t = R"({"traceEvents":[{"ph":"X","cat":"kernel","name":")" + name +
                  R"(","pid":0,"tid":7,"ts":1,"dur":1,"args":{"stream":7,"correlation":1}}]})";
  auto imp = test::import_whole(t);
  REQUIRE(imp->model().gpu_ops.size() == 1);
  CHECK(classify_gpu_ops(imp->model(), hta_rules())[0] == KernelClass::kCommunication);  // "nccl" 1 MB in
  CHECK(classify_gpu_ops(imp->model(), default_rules())[0] == KernelClass::kCommunication);
}

}  // namespace tw
