// The run comparison on crafted summary documents (tests/core/diff_docs.h): verdicts, the gate in
// percent and in points, noise, too few steps, several ranks, names added and removed, bad input.
#include <doctest/doctest.h>

#include "core/diff/diff.h"
#include "core/diff/diff_json.h"
#include "core/diff/diff_markdown.h"
#include "core/diff/rank_test.h"
#include "tests/core/diff_docs.h"

namespace {

using nlohmann::json;
using tw::test::craft_doc;
using tw::test::craft_file;
using tw::test::training_steps;

json diff(const json& base, const json& cand, tw::DiffOptions o = {}) {
  const tw::DiffText t = tw::diff_summaries(base.dump(), cand.dump(), o, "base", "cand");
  REQUIRE_MESSAGE(t.error.empty(), t.error);
  REQUIRE_MESSAGE(t.usage_error.empty(), t.usage_error);
  json d = json::parse(t.json);
  CHECK(d["verdict"]["regression"].get<bool>() == t.regression);
  return d;
}

const json& metric(const json& d, const std::string& id) {
  for (const json& m : d["metrics"])
    if (m["id"] == id) return m;
  for (const char* t : {"kernels", "operators"})
    for (const json& r : d[t]["rows"])
      if (r["id"] == id) return r;
  FAIL("no metric " << id);
  static json none;
  return none;
}

tw::DiffOptions gate(double pct) {
  tw::DiffOptions o;
  o.fail_above_pct = pct;
  return o;
}

}  // namespace

TEST_CASE("rank test: exact p of fully separated samples, Hodges–Lehmann shift, symmetry") {
  const std::vector<double> a = {10, 11, 12, 13, 14}, b = {20, 21, 22, 23, 24};
  const auto t = tw::rank_test(a, b, 0.95);
  REQUIRE(t);
  CHECK(t->exact);
  CHECK(t->p_value == doctest::Approx(2.0 / 252));  // 2 of C(10,5) arrangements are this extreme
  CHECK(t->shift == 10);
  CHECK(t->ci_low <= 10);
  CHECK(t->ci_high >= 10);
  const auto back = tw::rank_test(b, a, 0.95);
  REQUIRE(back);
  CHECK(back->p_value == doctest::Approx(t->p_value));
  CHECK(back->shift == -10);
}

TEST_CASE("rank test: no change, ties, and too few samples") {
  const std::vector<double> same = {5, 5, 5, 5, 5, 5};
  const auto t = tw::rank_test(same, same, 0.95);
  REQUIRE(t);
  CHECK_FALSE(t->exact);  // ties: the normal approximation
  CHECK(t->p_value == 1);
  CHECK(t->shift == 0);
  CHECK_FALSE(tw::rank_test({1, 2, 3, 4}, {1, 2, 3, 4, 5}, 0.95));
  // Interleaved samples: no evidence of a shift.
  const auto mixed = tw::rank_test({1, 3, 5, 7, 9, 11}, {2, 4, 6, 8, 10, 12}, 0.95);
  REQUIRE(mixed);
  CHECK(mixed->p_value > 0.5);
  // Large samples take the normal approximation and still see a clear shift.
  std::vector<double> x, y;
  for (int i = 0; i < 100; ++i) x.push_back(100 + i % 7), y.push_back(103 + i % 7);
  const auto big = tw::rank_test(x, y, 0.95);
  REQUIRE(big);
  CHECK_FALSE(big->exact);
  CHECK(big->p_value < 1e-6);
  CHECK(big->shift == 3);
}

TEST_CASE("diff: a run against itself has no change and no regression") {
  const json doc = craft_doc({craft_file(training_steps(8, 1, 0.02))});
  const json d = diff(doc, doc, gate(5));
  CHECK(d["schema"] == "tracewise.diff/1");
  CHECK_FALSE(d["verdict"]["regression"].get<bool>());
  for (const json& m : d["metrics"]) {
    CHECK(m["delta"] == 0);
    CHECK(m["verdict"] == "unchanged");
  }
  CHECK(d["kernels"]["changed"] == 0);
  CHECK(d["kernels"]["added"] == 0);
  for (const json& r : d["kernels"]["rows"]) CHECK(r["status"] == "same");
  CHECK(d["step_samples"]["base"].size() == 8);
}

TEST_CASE("diff: one kernel 20 % slower in every step is the first row and fails a 5 % gate") {
  const json base = craft_doc({craft_file(training_steps(8, 1, 0.01))});
  const json cand = craft_doc({craft_file(training_steps(8, 2, 0.01, 1.2))});
  const json d = diff(base, cand, gate(5));
  CHECK(d["verdict"]["regression"].get<bool>());
  CHECK(d["kernels"]["rows"][0]["name"] == "sm90_xmma_gemm");
  const json& k = metric(d, "kernel:sm90_xmma_gemm");
  CHECK(k["verdict"] == "worse");
  CHECK(k["beyond_gate"].get<bool>());
  CHECK(k["delta_pct"].get<double>() == doctest::Approx(20).epsilon(0.02));
  CHECK(k["test"]["confidence_pct"].get<double>() > 99);
  // The step grew by the kernel's extra 8 ms: +8 %, beyond 5 % too.
  CHECK(metric(d, "step_time")["beyond_gate"].get<bool>());
  // The small kernels moved with the noise only.
  CHECK_FALSE(metric(d, "kernel:ncclDevKernel_AllReduce_Sum_bf16_RING_LL")["beyond_gate"].get<bool>());
  CHECK(std::string(d["verdict"]["sentence"]).find("Regression beyond the 5 % gate") == 0);
  // A 10 % gate: the step (+8 %) passes, the kernel (+20 %) does not.
  const json d10 = diff(base, cand, gate(10));
  CHECK_FALSE(metric(d10, "step_time")["beyond_gate"].get<bool>());
  CHECK(metric(d10, "kernel:sm90_xmma_gemm")["beyond_gate"].get<bool>());
  // --metric gates that metric only.
  tw::DiffOptions only = gate(10);
  only.metric = "step_time";
  CHECK_FALSE(diff(base, cand, only)["verdict"]["regression"].get<bool>());
  only.metric = "kernel:sm90_xmma_gemm";
  CHECK(diff(base, cand, only)["verdict"]["regression"].get<bool>());
  // Markdown: the headline and the kernel first in its table.
  const std::string md = tw::diff_markdown(d);
  CHECK(md.find("Regression beyond the 5 % gate") != std::string::npos);
  CHECK(md.find("| `sm90_xmma_gemm` |") != std::string::npos);
}

TEST_CASE("diff: steps with 3 % jitter and no real change pass a 5 % gate") {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const json base = craft_doc({craft_file(training_steps(10, seed, 0.03))});
    const json cand = craft_doc({craft_file(training_steps(10, seed + 100, 0.03))});
    const json d = diff(base, cand, gate(5));
    CHECK_MESSAGE(!d["verdict"]["regression"].get<bool>(), "seed " << seed << ": " << d["verdict"]["sentence"]);
  }
}

TEST_CASE("diff: a share moves in points of the step, not in percent of itself") {
  // Idle from 3.2 % to 4.3 % of the step: 1.1 points (a 34 % relative rise).
  const json base = craft_doc({craft_file(training_steps(8, 1, 0.0, 1.0, 0.032))});
  const json cand = craft_doc({craft_file(training_steps(8, 1, 0.0, 1.0, 0.043))});
  const json d = diff(base, cand, gate(5));
  const json& idle = metric(d, "gpu_idle");
  CHECK(idle["unit"] == "pct");
  CHECK(idle["gate"] == "points");
  CHECK(idle["delta"].get<double>() == doctest::Approx(1.1).epsilon(0.01));
  CHECK_FALSE(idle["beyond_gate"].get<bool>());
  CHECK_FALSE(d["verdict"]["regression"].get<bool>());
  const json d1 = diff(base, cand, gate(1));  // a one-point gate: beyond
  CHECK(metric(d1, "gpu_idle")["beyond_gate"].get<bool>());
}

TEST_CASE("diff: fewer than 5 steps give no noise estimate, and say so") {
  const json base = craft_doc({craft_file(training_steps(3, 1, 0.0))});
  const json cand = craft_doc({craft_file(training_steps(3, 1, 0.0, 1.5))});
  const json d = diff(base, cand, gate(5));
  const json& step = metric(d, "step_time");
  CHECK(step["verdict"] == "no_noise_estimate");
  CHECK(step["test"].is_null());
  CHECK(step["beyond_gate"].get<bool>());  // +20 %: beyond, without a stated confidence
  bool noted = false;
  for (const json& n : d["notes"]) noted = noted || std::string(n).find("no noise estimate") != std::string::npos;
  CHECK(noted);
}

TEST_CASE("diff: a tiny kernel's change stays under the impact floor") {
  std::vector<tw::test::CraftStep> base = training_steps(8, 1, 0.0), cand = base;
  for (auto& s : cand) s.kernels["at::native::vectorized_elementwise_kernel<at::native::FillFunctor>"] *= 3;
  const json d = diff(craft_doc({craft_file(base)}), craft_doc({craft_file(cand)}), gate(5));
  const json& k = metric(d, "kernel:at::native::vectorized_elementwise_kernel<at::native::FillFunctor>");
  CHECK(k["verdict"] == "worse");
  CHECK(k["impact_pct"].get<double>() < 0.5);  // 0.2 ms of a 100 ms step
  CHECK_FALSE(k["beyond_gate"].get<bool>());
}

TEST_CASE("diff: kernels added and removed; a folder of ranks waits for its slowest rank") {
  std::vector<tw::test::CraftStep> a = training_steps(6, 1, 0.0), b = a;
  for (auto& s : b) {
    s.kernels["flash_fwd_kernel"] = s.kernels["sm90_xmma_gemm"] / 2;
    s.kernels.erase("sm90_xmma_gemm");
  }
  std::vector<tw::test::CraftStep> slow = b;
  for (auto& s : slow) s.duration_ns += 30'000'000;
  const json base = craft_doc({craft_file(a, 0), craft_file(a, 1)});
  const json cand = craft_doc({craft_file(b, 0), craft_file(slow, 1)});
  const json d = diff(base, cand);
  CHECK(d["base"]["files"] == 2);
  CHECK(metric(d, "step_time")["cand"].get<double>() == doctest::Approx(130'000'000));
  CHECK(metric(d, "kernel:flash_fwd_kernel")["status"] == "added");
  CHECK(metric(d, "kernel:sm90_xmma_gemm")["status"] == "removed");
  CHECK(metric(d, "kernel:sm90_xmma_gemm")["verdict"] == "removed");
  CHECK(d["kernels"]["added"] == 1);
  CHECK(d["kernels"]["removed"] == 1);
  // Per step, the mean over ranks.
  CHECK(metric(d, "kernel:flash_fwd_kernel")["cand"].get<double>() == doctest::Approx(20'000'000));
}

TEST_CASE("diff: bad input is an error sentence, never a crash") {
  const json good = craft_doc({craft_file(training_steps(6, 1, 0.0))});
  tw::DiffOptions o;
  CHECK_FALSE(tw::diff_summaries("not json", good.dump(), o, "a", "b").error.empty());
  CHECK_FALSE(tw::diff_summaries("{\"traceEvents\": []}", good.dump(), o, "a", "b").error.empty());
  CHECK_FALSE(tw::diff_summaries(std::string(100000, '['), good.dump(), o, "a", "b").error.empty());
  o.metric = "kernel:nope";
  CHECK_FALSE(tw::diff_summaries(good.dump(), good.dump(), o, "a", "b").usage_error.empty());
  o = {};
  o.confidence_pct = 100;
  CHECK_FALSE(tw::diff_summaries(good.dump(), good.dump(), o, "a", "b").usage_error.empty());
  // Mistyped fields read as absent.
  json odd = good;
  odd["files"][0]["step_breakdown"]["steps"][0]["duration_ns"] = "fast";
  odd["files"][0]["by_name"]["kernels"][0]["steps_ns"] = "none";
  odd["files"][0]["by_name"]["kernels"][1] = 7;
  odd["files"][0]["devices"] = {{{"name", 3}}};
  const tw::DiffText t = tw::diff_summaries(odd.dump(), good.dump(), {}, "a", "b");
  CHECK(t.error.empty());
  CHECK_FALSE(t.json.empty());
  // A summary without by_name (an older tracewise): steps compare, names do not, and a note says so.
  json old = good;
  old["files"][0].erase("by_name");
  const json d = json::parse(tw::diff_summaries(old.dump(), good.dump(), {}, "a", "b").json);
  CHECK(d["kernels"]["rows"].empty());
  CHECK(d["notes"].dump().find("by_name") != std::string::npos);
  // The page's entry point reports errors as {"error": ...}.
  CHECK(json::parse(tw::diff_summaries_json("[]", good.dump(), ""))["error"].is_string());
  CHECK(json::parse(tw::diff_summaries_json(good.dump(), good.dump(), "{\"fail_above_pct\": \"x\"}"))["error"]
            .is_string());
  CHECK(json::parse(tw::diff_summaries_json(good.dump(), good.dump(), "{\"base_label\": \"main\"}"))["base"]["label"] ==
        "main");
}

TEST_CASE("diff: Markdown escapes names from traces") {
  std::vector<tw::test::CraftStep> a = training_steps(6, 1, 0.0), b = a;
  for (auto& s : b) s.kernels["evil` | <script>alert(1)</script>\n# head"] = 50'000'000;
  const std::string md = tw::diff_markdown(json::parse(
      tw::diff_summaries(craft_doc({craft_file(a)}).dump(), craft_doc({craft_file(b)}).dump(), {}, "a", "b").json));
  CHECK(md.find("`evil' \\| <script>alert(1)</script> # head`") != std::string::npos);
  CHECK(md.find("\n# head") == std::string::npos);
}
