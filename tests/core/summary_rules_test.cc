// User kernel rules reach the summary: the same trace classified with extra rules changes classes.
#include <doctest/doctest.h>

#include <string>

#include "core/session.h"
#include "core/summary/summary_rules.h"

namespace {

const char* kTrace = R"({"traceEvents":[
 {"ph":"X","cat":"kernel","name":"my_fused_exchange","pid":0,"tid":7,"ts":10,"dur":5,"args":{"stream":7,"device":0}},
 {"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":20,"dur":4,"args":{"stream":7,"device":0}}]})";

nlohmann::json classes(const tw::SummaryOptions& opts) {
  tw::Session s("t.json");
  s.push(kTrace, std::string(kTrace).size());
  s.finish();
  return s.file_summary(opts)["kernel_classes_ns"];
}

}  // namespace

TEST_CASE("summary: user kernel rules extend the defaults") {
  tw::SummaryOptions opts;
  CHECK(classes(opts)["communication"] == 0);
  opts.kernel_rules_json = R"({"rules":[{"pattern":"fused_exchange","class":"communication"}]})";
  CHECK(tw::check_user_kernel_rules(opts.kernel_rules_json, false).empty());
  nlohmann::json c = classes(opts);
  CHECK(c["communication"] == 5000);
  CHECK(c["computation"] == 4000);
}

TEST_CASE("summary: invalid user kernel rules are reported, built-in rules stay in force") {
  std::string bad = R"({"rules":[{"pattern":"(","class":"communication"}]})";
  CHECK_FALSE(tw::check_user_kernel_rules(bad, false).empty());
  CHECK_FALSE(tw::check_user_kernel_rules("not json", true).empty());
  tw::SummaryOptions opts;
  opts.kernel_rules_json = bad;
  CHECK(classes(opts)["computation"] == 9000);
}
