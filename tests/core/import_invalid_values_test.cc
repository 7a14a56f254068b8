// Values JSON does not allow, read anyway (core/import/json_oddities.h): lone UTF-16 surrogates and
// numbers outside JSON's grammar are counted as import problems with an example, surfaced in the
// summary's import.invalid. The event is kept as before (a lone surrogate becomes U+FFFD; 00012 and
// 1. are read as the numbers they spell; +1, .5, 1e, NaN, Infinity are bad values as before), the
// same with and without the one-pass decoder and in any chunking.
#include <doctest/doctest.h>

#include <string>

#include "core/import/json_oddities.h"
#include "core/session.h"
#include "tests/core/import_modes_util.h"

using namespace tw;
using namespace tw::test;

namespace {

std::string event(const std::string& name, const std::string& ts, const std::string& args = "{}") {
  return "{\"ph\":\"X\",\"name\":\"" + name + "\",\"ts\":" + ts + ",\"dur\":1,\"pid\":1,\"tid\":1,\"args\":" + args +
         "}";
}

// The trace imported every way (whole, chunked, each decoder): all must agree; returns the whole.
ImporterPtr import_checked(const std::string& text) {
  ImporterPtr whole = import_all_ways(text);
  const std::string expected = fingerprint(*whole);
  for (uint32_t seed = 1; seed <= 2; ++seed) {
    CHECK_MESSAGE(fingerprint(*import_mode(text, false, seed, 7)) == expected, "simdjson only, seed ", seed);
    CHECK_MESSAGE(fingerprint(*import_mode(text, true, seed, 7)) == expected, "one-pass decoder, seed ", seed);
  }
  return whole;
}

ProblemCount problem(TraceImporter& imp, const char* name) {
  auto it = imp.stats().problems.find(name);
  return it == imp.stats().problems.end() ? ProblemCount{} : it->second;
}

}  // namespace

TEST_CASE("invalid values: the JSON number grammar and lone surrogates, unit by unit") {
  for (const char* ok : {"0", "-0", "12", "1.5", "0.25", "1e3", "1E+3", "-1.5e-3"})
    CHECK_MESSAGE(is_json_number(ok), ok);
  for (const char* bad :
       {"00012", "01", "1.", "+1", ".5", "1e", "1e+", "-", "NaN", "Infinity", "-Infinity", "1.5.", "0x10", ""})
    CHECK_MESSAGE(!is_json_number(bad), bad);
  CHECK(has_lone_surrogate("\"\\ud800\""));
  CHECK(has_lone_surrogate("\"\\udc00x\""));
  CHECK(has_lone_surrogate("\"a\\uD83D\\u0041\""));  // a high half followed by a plain unit
  CHECK(has_lone_surrogate("\"\\ud83d\""));          // a high half at the end
  CHECK(has_lone_surrogate("\"\\ude00\\ud83d\""));   // low then high: no pair
  CHECK_FALSE(has_lone_surrogate("\"\\ud83d\\ude00\""));
  CHECK_FALSE(has_lone_surrogate("\"\\\\ud800\""));  // an escaped backslash, then text
  CHECK_FALSE(has_lone_surrogate("\"\\u00e9\\n\""));
}

TEST_CASE("invalid values: numbers outside JSON are counted with an example, read as before") {
  struct Case {
    const char* ts;
    bool kept;  // the number is read (00012 = 12); else a bad ts, as before
  };
  for (Case c : {Case{"00012", true}, Case{"1.", true}, Case{"+1", false}, Case{".5", false}, Case{"1e", false},
                 Case{"NaN", false}, Case{"Infinity", false}, Case{"-Infinity", false}}) {
    CAPTURE(c.ts);
    const std::string first = event("a", "5");
    const std::string text = "[" + first + "," + event("b", c.ts) + "," + event("c", "7") + "]";
    ImporterPtr imp = import_checked(text);
    const ProblemCount p = problem(*imp, "non_json_number");
    CHECK(p.count == 1);
    CHECK(p.first_offset == 1 + first.size() + 1);
    CHECK(p.example.find(std::string("\"ts\":") + c.ts) != std::string::npos);
    CHECK(imp->model().slices.size() == (c.kept ? 3u : 2u));
    CHECK(problem(*imp, "bad_ts").count == (c.kept ? 0u : 1u));
    if (c.kept) CHECK(slice_named(imp->model(), "b") >= 0);
  }
  // In args too; JSON numbers are not counted, nor is an args value simdjson cannot type: that event
  // is invalid JSON, dropped and counted as such, as before.
  ImporterPtr imp = import_checked("[" + event("a", "1", "{\"n\":007}") + "," + event("b", "2.5e1", "{\"n\":-0.5}") +
                                   "," + event("c", "3", "{\"m\":NaN}") + "]");
  CHECK(problem(*imp, "non_json_number").count == 1);
  CHECK(problem(*imp, "non_json_number").example.find("007") != std::string::npos);
  CHECK(problem(*imp, "invalid_json_event").count == 1);
}

TEST_CASE("invalid values: lone surrogates are counted with an example; the name keeps U+FFFD") {
  const std::string clean = event("x", "1");
  const std::string text = "[" + clean + "," + event("a\\ud800b", "2") + "," + event("\\udc00", "3") + "," +
                           event("pair \\ud83d\\ude00", "4") + "," + event("c", "5", "{\"k\\ud801\":\"\\udfff\"}") +
                           "," + event("\\\\ud800", "6") + "]";
  ImporterPtr imp = import_checked(text);
  const ProblemCount p = problem(*imp, "lone_surrogate");
  CHECK(p.count == 3);  // events a, \udc00 and c (key and value: one event, counted once)
  CHECK(p.first_offset == 1 + clean.size() + 1);
  CHECK(p.example.find("a\\ud800b") != std::string::npos);
  TraceModel& m = imp->model();
  CHECK(slice_named(m, "a\xEF\xBF\xBD"
                       "b") >= 0);
  CHECK(slice_named(m, "\xEF\xBF\xBD") >= 0);
  CHECK(slice_named(m, "pair \xF0\x9F\x98\x80") >= 0);
  CHECK(slice_named(m, "\\ud800") >= 0);
  CHECK(m.slices.size() == 6);
}

TEST_CASE("invalid values: the summary's import.invalid") {
  const std::string text = "{\"traceEvents\":[" + event("a", "00012") + "," + event("b\\ud800", "1.") + "]}";
  Session s("t");
  s.push(text.data(), text.size());
  s.finish();
  const nlohmann::json imp = s.file_summary()["import"];
  REQUIRE(imp["invalid"].is_object());
  CHECK(imp["invalid"].size() == 2);
  CHECK(imp["invalid"]["non_json_number"]["count"] == 2);
  CHECK(imp["invalid"]["non_json_number"]["first_offset"] == 16);
  CHECK(imp["invalid"]["non_json_number"]["example"].get<std::string>().find("00012") != std::string::npos);
  CHECK(imp["invalid"]["lone_surrogate"]["count"] == 1);
  CHECK(imp["invalid"]["lone_surrogate"]["example"].get<std::string>().find("b\\ud800") != std::string::npos);
  // Also counted among the problems, like every other.
  CHECK(imp["problems"]["non_json_number"] == 2);
  CHECK(imp["problem_first_offsets"]["lone_surrogate"] == imp["invalid"]["lone_surrogate"]["first_offset"]);
  // A clean trace has an empty import.invalid.
  Session clean("t");
  const std::string ok = "[" + event("a", "1") + "]";
  clean.push(ok.data(), ok.size());
  clean.finish();
  CHECK(clean.file_summary()["import"]["invalid"] == nlohmann::json::object());
}
