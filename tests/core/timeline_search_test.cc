// Timeline search in the core: LinearRegex agrees with std::regex on the names of a real trace,
// never backtracks (patterns that make std::regex explode finish), refuses what it cannot do in
// linear time; match_names (substring, case folding) and paging of the matches in time order.
#include <doctest/doctest.h>

#include <cctype>
#include <random>
#include <regex>

#include "core/regex/linear_regex.h"
#include "core/timeline/name_match.h"
#include "core/timeline/search.h"
#include "tests/core/timeline_test_util.h"

using namespace tw;

namespace {

bool re_search(const std::string& pattern, const std::string& text, bool icase = false) {
  LinearRegex re;
  std::string error;
  REQUIRE_MESSAGE(re.compile(pattern, icase, &error), pattern << ": " << error);
  return re.search(text);
}

}  // namespace

TEST_CASE("LinearRegex: the accepted syntax on small cases") {
  struct Case {
    const char* pattern;
    const char* text;
    bool icase;
    bool match;
  };
  const Case cases[] = {
      {"gemm", "void ampere_sgemm_128x64_tn", false, true},
      {"^gemm", "ampere_sgemm", false, false},
      {"^amp.*tn$", "ampere_sgemm_128x64_tn", false, true},
      {"^amp.*tn$", "ampere_sgemm_128x64_tnx", false, false},
      {"nccl(Kernel|Dev)_All(Reduce|Gather)", "ncclDevKernel_AllGather_RING_LL ncclKernel_AllReduce", false, true},
      {"\\d{3}x\\d+", "sgemm_128x64", false, true},
      {"\\d{4}x", "sgemm_128x64", false, false},
      {"a{2,3}b", "xaab", false, true},
      {"^a{2,3}b", "aaaab", false, false},
      {"[^a-z_]+", "abc_DEF", false, true},
      {"\\bAdd\\b", "aten::Add (x)", false, true},
      {"\\bAdd\\b", "aten::Addmm", false, false},
      {"ADDMM", "aten::addmm", true, true},
      {"ADDMM", "aten::addmm", false, false},
      {"[A-D]+mm", "aten::addmm", true, true},
      {"[A-C]+mm", "aten::addmm", true, false},
      {"x*", "", false, true},
      {"(a*)*$", "b", false, true},  // empty loops terminate
      {"a+?b", "aab", false, true},  // lazy: same answer
      {"\\.\\*\\[", "a.*[b", false, true},
      {"cudaLaunch(?:Kernel)?$", "cudaLaunch", false, true},
  };
  for (const Case& c : cases) {
    CAPTURE(c.pattern);
    CAPTURE(c.text);
    CHECK(re_search(c.pattern, c.text, c.icase) == c.match);
  }
}

TEST_CASE("LinearRegex: refuses what it cannot run in linear time, and invalid patterns") {
  LinearRegex re;
  std::string error;
  CHECK_FALSE(re.compile("(a)\\1", false, &error));
  CHECK(error.find("back-references") != std::string::npos);
  CHECK_FALSE(re.compile("foo(?=bar)", false, &error));
  CHECK(error.find("look-ahead") != std::string::npos);
  CHECK_FALSE(re.compile("(unclosed", false, &error));
  CHECK_FALSE(re.compile("a**", false, &error));
  CHECK_FALSE(re.compile("[z-a]", false, &error));
  CHECK_FALSE(re.compile("(?:a{1000}){1000}", false, &error));  // expands past kMaxProgram
  CHECK(error.find("too large") != std::string::npos);
  std::string nested(150, '(');
  nested += "a" + std::string(150, ')');
  CHECK_FALSE(re.compile(nested, false, &error));
  CHECK(!error.empty());
}

TEST_CASE("LinearRegex: patterns that make a backtracking engine explode finish") {
  // (a+)+b against 100k 'a's: a backtracking engine takes 2^n steps; the Pike VM is linear.
  std::string text(100000, 'a');
  CHECK_FALSE(re_search("(a+)+b", text));
  CHECK_FALSE(re_search("(a|aa)*c", text));
  CHECK_FALSE(re_search(".*.*.*.*.*.*=", text));
  CHECK(re_search("(a+)+$", text));
}

// Searches start only where a match can begin (the bytes a match can start with, assertions passed
// over; not when the pattern matches empty): on random texts of few letters, words and boundaries,
// every pattern finds what std::regex finds.
TEST_CASE("LinearRegex: skipping to where a match can begin agrees with std::regex on random texts") {
  const char* patterns[] = {
      "ab",    "^ab",     "b$",         "\\bab",          "a\\B",    "a?b",      "x*ab",    "(ab|ba)a", "[xy]a",
      "^$",    "a*",      "\\b",        "(a|b)?c",        "ca|^b",   "y{2,}",    "a.b",     "[^ ]b",    "[^a-b]",
      "[^a]c", "[^A-Z_]", "\\x61\\x62", "[\\x61-\\x62]y", "\\u0062", "[^\\x41]", "[a\\-c]", "[x\\-]b"};
  std::mt19937 rng(11);
  const std::string alphabet = "aabbc xy_";
  for (const char* p : patterns) {
    for (bool icase : {false, true}) {
      CAPTURE(std::string(p));
      CAPTURE(icase);
      LinearRegex re;
      std::string error;
      REQUIRE(re.compile(p, icase, &error));
      std::regex ref(p, icase ? std::regex::ECMAScript | std::regex::icase : std::regex::ECMAScript);
      size_t wrong = 0;
      for (int t = 0; t < 400; ++t) {
        std::string text(rng() % 12, ' ');
        for (char& c : text) c = alphabet[rng() % alphabet.size()];
        if (icase && t % 2)
          for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        if (re.search(text) != std::regex_search(text, ref) && wrong++ == 0) FAIL_CHECK("text \"" << text << "\"");
      }
      CHECK(wrong == 0);
    }
  }
  // \xHH and \uHHHH beyond ASCII are characters, matched as their UTF-8 bytes; inside [ ] refused.
  for (const char* p : {"caf\\u00e9", "caf\\xe9", "\\u20ac5"}) {
    LinearRegex u;
    std::string why;
    REQUIRE_MESSAGE(u.compile(p, false, &why), p);
    CHECK_MESSAGE(u.search(p[0] == '\\' ? "price \xe2\x82\xac"
                                          "5"
                                        : "un caf\xc3\xa9"),
                  p);
    CHECK_FALSE(u.search("cafe"));
  }
  for (const char* p : {"[\\u00e9]", "[\\xe9]"}) {
    LinearRegex u;
    std::string why;
    CHECK_FALSE_MESSAGE(u.compile(p, false, &why), p);
    CHECK(why.find("beyond ASCII") != std::string::npos);
  }
  // A skip must forget what the last step found at another position: in "ax b", the \b before "b"
  // was marked dead right after the "a" (no boundary there) and holds at "b".
  LinearRegex re;
  std::string error;
  REQUIRE(re.compile("a?\\bb", false, &error));
  CHECK(re.search("ax b"));
}

// Every name of `strings` that std::regex (ECMAScript) finds, LinearRegex finds, and no other.
static void check_agrees_with_std_regex(const StringPool& strings) {
  const char* patterns[] = {"gemm",
                            "^aten::",
                            "^(cuda|cu)[A-Z]\\w+$",
                            "internode::combine<",
                            "[0-9]{3,}",
                            "(Memcpy|Memset) [HD]to[HD]",
                            "\\bcopy_\\b",
                            "^$",
                            "nccl.*(Reduce|Gather)",
                            "Kernel$",
                            "nccl|rccl|hccl|msccl|gloo:",
                            "deep_?ep::|dpsk::ep::|\\bep::(intra|inter)node::",
                            "x?gemm",
                            "(at)?en::",
                            "a*"};
  for (const char* p : patterns) {
    for (bool icase : {false, true}) {
      CAPTURE(p);
      CAPTURE(icase);
      std::vector<uint32_t> got;
      std::string error;
      REQUIRE(match_names(strings, {p, true, !icase}, &got, &error));
      std::regex ref(p, icase ? std::regex::ECMAScript | std::regex::icase : std::regex::ECMAScript);
      std::vector<uint32_t> want;
      for (uint32_t i = 1; i < strings.size(); ++i) {
        std::string name(strings.get(i));
        if (std::regex_search(name, ref)) want.push_back(i);
      }
      CHECK(got == want);
    }
  }
}

TEST_CASE("match_names: regex agrees with std::regex on every name of real traces; substring; refusals") {
  auto s = test::import_data_trace("deepseek_profile_data/train.json");
  auto k =
      test::import_data_trace("kineto/tb_plugin/samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz");
  REQUIRE(s);
  REQUIRE(k);
  const StringPool& strings = s->model().strings;
  REQUIRE(strings.size() > 200);
  REQUIRE(k->model().strings.size() > 100);
  check_agrees_with_std_regex(strings);
  check_agrees_with_std_regex(k->model().strings);

  std::vector<uint32_t> sub, upper;
  std::string error;
  REQUIRE(match_names(strings, {"GEMM", false, false}, &upper, &error));
  REQUIRE(match_names(strings, {"gemm", false, true}, &sub, &error));
  CHECK(sub.size() > 0);
  CHECK(upper.size() >= sub.size());  // folding finds the case-sensitive ones and more
  CHECK_FALSE(match_names(strings, {std::string(kMaxQueryChars + 1, 'a'), false, false}, &sub, &error));
  CHECK_FALSE(match_names(strings, {"(", true, false}, &sub, &error));
  CHECK(!error.empty());
}

TEST_CASE("search_page: matches in time order, in pages, with the total count") {
  auto s = test::import_data_trace("deepseek_profile_data/train.json");
  REQUIRE(s);
  const TraceModel& m = s->model();
  TimelineIndex idx(m);
  std::vector<uint32_t> ids;
  std::string error;
  REQUIRE(match_names(m.strings, {"internode::COMBINE<", false, false}, &ids, &error));
  SearchState search;
  search.run(idx, ids);
  REQUIRE(search.count() == 8);
  nlohmann::json first = search_page(idx, search, 0, 5), rest = search_page(idx, search, 5, 5);
  CHECK(first["count"] == 8);
  CHECK(first["matches"].size() == 5);
  CHECK(rest["matches"].size() == 3);
  CHECK(rest["offset"] == 5);
  double prev = -1;
  for (const auto& page : {first, rest})
    for (const auto& x : page["matches"]) {
      CHECK(x["name"].get<std::string>().find("internode::combine<") != std::string::npos);
      CHECK(x["startNs"].get<double>() >= prev);
      prev = x["startNs"].get<double>();
      CHECK(x["lane"].get<uint32_t>() < idx.tracks().size());
    }
  CHECK(search_page(idx, search, 100, 5)["matches"].empty());
}
