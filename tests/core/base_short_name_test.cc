// The name normalisation the run comparison matches by must equal the page's slice labels
// (web/timeline/short_name.ts): both read the same cases.
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "core/base/short_name.h"

TEST_CASE("short_name: the shared cases of tests/short_names.json") {
  std::ifstream in(std::string(TW_TEST_DATA) + "/../short_names.json");
  REQUIRE(in.good());
  const nlohmann::json doc = nlohmann::json::parse(in);
  const nlohmann::json& cases = doc.at("cases");
  REQUIRE(cases.size() >= 20);
  for (const nlohmann::json& c : cases) {
    const std::string full = c.at(0), want = c.at(1);
    CHECK_MESSAGE(tw::short_name(full) == want, full);
  }
}

TEST_CASE("short_name: hostile names stay bounded and never throw") {
  CHECK(tw::short_name(std::string(100000, '<')) == std::string(100000, '<'));
  CHECK(tw::short_name(std::string(5000, '>') + "(") == std::string(5000, '>') + "(");
  CHECK(tw::short_name("0x") == "0x");
  CHECK(tw::short_name("0x123456") == "0x\xE2\x80\xA6");
  CHECK(tw::short_name("a0x123456") == "a0x123456");
}
