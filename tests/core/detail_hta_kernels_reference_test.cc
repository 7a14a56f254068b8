// --hta-compat kernel table against HTA itself: for every case of reference/hta_no_ns_rounding/,
// result.json's top_kernels (per rank, the ten names with the longest summed time among the rows
// HTA's filtered trace counts as GPU work, stream != -1, which is what get_gpu_kernel_breakdown
// tabulates) must be rows of our `kernels` section with the same count and a sum within 0.01 us.
// Those rows include events that are not GPU ops: Stream Sync / Context Sync on alexnet and
// simple_add, the Triton launcher cpu_op with "stream": 0 on triton_example.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/file_reader.h"
#include "core/session.h"
#include "tests/core/test_data.h"

namespace tw {

TEST_CASE("detail: hta-compat kernels per name match HTA's kernel table on every case" *
          doctest::test_suite("corpus")) {
  const std::string ref = test::data_dir() + "/reference/hta_no_ns_rounding";
  SummaryOptions opts;
  opts.hta_compat = true;
  size_t compared = 0;
  for (const auto& entry : std::filesystem::directory_iterator(ref)) {
    const std::string result = entry.path().string() + "/result.json";
    if (!std::filesystem::exists(result)) continue;
    std::ifstream in(result);
    const nlohmann::json r = nlohmann::json::parse(in);
    // (operator[] on a const json must find its key: a case without the table is skipped first)
    if (!r.contains("files") || !r.contains("numbers") || !r["numbers"].contains("top_kernels")) continue;
    const nlohmann::json& top = r["numbers"]["top_kernels"];
    if (!top.is_array() || top.empty()) continue;
    for (const auto& [rank, rel] : r["files"].items()) {
      // Inputs the reference derived (a bare array wrapped as an object) are not in tests/data.
      const std::string path = test::data_dir() + "/" + rel.get<std::string>();
      if (!std::filesystem::exists(path)) continue;
      CAPTURE(entry.path().filename().string());
      CAPTURE(rank);
      auto session = std::make_unique<Session>(path);
      REQUIRE(stream_file(path, [&](const char* p, size_t n) { session->push(p, n); }).ok);
      session->finish();
      const nlohmann::json f = session->file_summary(opts);
      std::map<std::string, nlohmann::json> ours;
      for (const nlohmann::json& k : f["kernels"]["top"]) ours[k["name"].get<std::string>()] = k;
      for (const nlohmann::json& k : top) {
        if (std::to_string(k["rank"].get<int>()) != rank) continue;
        const std::string name = k["name"].get<std::string>();
        CAPTURE(name);
        REQUIRE(ours.count(name));
        CHECK(ours[name]["count"] == k["count"]);
        CHECK(std::fabs(ours[name]["total_ns"].get<double>() / 1000.0 - k["sum_us"].get<double>()) <= 0.01);
        ++compared;
      }
    }
  }
  CHECK(compared >= 229);  // 229 rows over 30 traces
}

}  // namespace tw
