// Every test trace yields valid, bounded detail sections in both modes (no crash, tables capped,
// fractions in range, idle categories consistent), and DeepSeek's DeepEP kernels are reported as
// dispatch / combine collectives with their exposed time.
#include <doctest/doctest.h>

#include <climits>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "core/summary/detail_sections.h"
#include "core/summary/summary.h"
#include "tests/core/detail_test_util.h"
#include "tests/core/test_data.h"

namespace tw {
namespace {

std::vector<std::string> corpus_paths() {
  std::vector<std::string> out;
  std::ifstream in(test::data_dir() + "/MANIFEST.tsv");
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::string path = line.substr(0, line.find('\t'));
    if (!path.empty()) out.push_back(path);
  }
  return out;
}

void check_bounded(const nlohmann::json& f) {
  auto at_most = [](const nlohmann::json& a, size_t n) { return !a.is_array() || a.size() <= n; };
  if (!f["kernels"].is_null()) CHECK(at_most(f["kernels"]["top"], 50));
  CHECK(at_most(f["operators"]["top"], 50));
  CHECK(at_most(f["operators"]["modules"], 50));
  CHECK(at_most(f["operators"]["operator_kernels"], 50));
  if (!f["launches"].is_null()) {
    for (const auto& q : f["launches"]["queues"]) CHECK(at_most(q["series"]["ts_ns"], 1000));
    CHECK(at_most(f["launches"]["worst_delays"], 10));
    CHECK(at_most(f["launches"]["host_syncs"]["top_sites"], 10));
    CHECK(at_most(f["launches"]["host_syncs"]["longest"], 10));
  }
  if (!f["memory"].is_null())
    for (const auto& d : f["memory"]["devices"]) CHECK(at_most(d["series"]["ts_ns"], 1000));
  if (!f["utilization"].is_null()) {
    CHECK(f["utilization"]["buckets"].get<size_t>() <= 1000);
    for (const auto& x : f["utilization"]["all"]) {
      CHECK(x.is_number());
      CHECK(x.get<double>() >= 0);
      CHECK(x.get<double>() <= 1.0);
    }
  }
  if (!f["idle"].is_null()) {
    for (const auto& s : f["idle"]["streams"]) {
      int64_t sum = 0;
      for (const auto& [k, c] : s["categories"].items()) sum += c["ns"].get<int64_t>();
      CHECK(sum == s["idle_ns"].get<int64_t>());
      CHECK(at_most(s["longest_gaps"], 10));
    }
    // Per device the idle stretches add up to the span minus the busy time, by cause, and no
    // stretch overlaps an op (the device's busy time is the utilisation's).
    if (f["idle"].contains("devices")) {
      for (const auto& d : f["idle"]["devices"]) {
        int64_t sum = 0;
        for (const auto& [k, c] : d["categories"].items()) sum += c["ns"].get<int64_t>();
        CHECK(sum == d["idle_ns"].get<int64_t>());
        CHECK(d["idle_ns"].get<int64_t>() ==
              d["last_ns"].get<int64_t>() - d["first_ns"].get<int64_t>() - d["busy_ns"].get<int64_t>());
        CHECK(at_most(d["longest_gaps"], 10));
        int64_t prev = INT64_MAX;
        for (const auto& g : d["longest_gaps"]) {
          CHECK(g["duration_ns"].get<int64_t>() <= prev);
          prev = g["duration_ns"].get<int64_t>();
        }
      }
    }
  }
  if (!f["step_breakdown"].is_null()) {
    for (const auto& st : f["step_breakdown"]["steps"]) {
      int64_t sum = 0;
      for (const auto& [k, v] : st["categories_ns"].items()) sum += v.get<int64_t>();
      CHECK(sum == st["duration_ns"].get<int64_t>());
    }
  }
}

TEST_CASE("detail corpus: every test trace yields valid, bounded detail sections" * doctest::test_suite("corpus")) {
  size_t imported = 0;
  for (const std::string& rel : corpus_paths()) {
    CAPTURE(rel);
    auto imp = std::make_unique<TraceImporter>();
    ReadResult r = stream_file(test::data_path(rel), [&](const char* p, size_t n) { imp->push(p, n); });
    if (!r.ok) continue;
    imp->finish();
    if (imp->stats().fatal) continue;  // not a trace (the importer reports why)
    ++imported;
    for (bool hta : {false, true}) {
      nlohmann::json f = nlohmann::json::object();
      SummaryOptions o;
      o.hta_compat = hta;
      add_detail_sections(f, imp->model(), o);
      for (const char* key : {"idle", "kernels", "operators", "launches", "memory", "collectives", "step_breakdown",
                              "utilization", "recommendations"})
        CHECK(f.contains(key));
      check_bounded(f);
      // Summaries stay small whatever the trace size.
      CHECK(dump_json(f).size() < 2000000);
    }
  }
  CHECK(imported > 40);
}

TEST_CASE("detail corpus: DeepSeek DeepEP kernels are dispatch / combine collectives") {
  TraceModel& m = detail_test::data_trace("deepseek_profile_data/train.json");
  nlohmann::json f = nlohmann::json::object();
  add_detail_sections(f, m, SummaryOptions{});
  REQUIRE(f["collectives"].is_object());
  std::map<std::string, nlohmann::json> by_type;
  for (const auto& t : f["collectives"]["by_type"]) by_type[t["type"].get<std::string>()] = t;
  REQUIRE(by_type.count("combine"));
  REQUIRE(by_type.count("dispatch"));
  CHECK(by_type["combine"]["count"] == 8);
  CHECK(by_type["combine"]["total_ns"] == 49448000);
  // Mostly hidden under computation: exposed is a small part of the total.
  CHECK(f["collectives"]["exposed_ns"].get<int64_t>() < f["collectives"]["total_ns"].get<int64_t>() / 10);
  // In HTA-compat mode DeepEP is computation, as HTA has it: no collectives at all.
  nlohmann::json h = nlohmann::json::object();
  SummaryOptions o;
  o.hta_compat = true;
  add_detail_sections(h, m, o);
  CHECK(h["collectives"].is_null());
}

}  // namespace
}  // namespace tw
