// --hta-compat idle time breakdown against HTA itself: for every case of
// reference/hta_no_ns_rounding/ with an idle_time_breakdown.csv (HTA 0.6.1, microsecond rounding
// off), every (stream, category) idle time must match to 0.02 us. One documented exception:
// ns_resolution_trace stream 7 has launches that start 3-6 ns after the previous op's end at
// timestamps near 1.7e15 us, where HTA's float64 microseconds cannot tell them apart; HTA files
// those gaps (56 us in total) as host wait, we (exactly) as kernel wait. The total is unchanged.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "core/analysis/hta_compat.h"
#include "core/analysis/idle.h"
#include "tests/core/detail_test_util.h"
#include "tests/core/reference_util.h"
#include "tests/core/test_data.h"

namespace tw {
namespace {

std::vector<std::vector<std::string>> read_csv(const std::string& path) { return test::read_table(path, ','); }

std::map<std::string, std::string> cases() { return test::reference_case_paths(); }

// The rule at its edges (HTA's _analyze_idle_time_for_stream): a launch that starts exactly at the
// gap's begin is not a host wait; a gap of exactly the threshold is not a kernel wait.
TEST_CASE("detail: one gap's category at the rule's edges") {
  CHECK(categorize_gap(100, 200, 101, 30000) == IdleCategory::kHostWait);
  CHECK(categorize_gap(100, 200, 100, 30000) == IdleCategory::kKernelWait);
  CHECK(categorize_gap(100, 100 + 29999, std::nullopt, 30000) == IdleCategory::kKernelWait);
  CHECK(categorize_gap(100, 100 + 30000, std::nullopt, 30000) == IdleCategory::kOther);
  CHECK(categorize_gap(100, 100 + 30000, 50, 30000) == IdleCategory::kOther);
  CHECK(categorize_gap(100, 40, std::nullopt, 30000) == IdleCategory::kKernelWait);  // hta_compat's negative gaps
}

TEST_CASE("detail: hta-compat idle breakdown matches HTA's unrounded run on every case" *
          doctest::test_suite("corpus")) {
  const std::string ref = test::data_dir() + "/reference/hta_no_ns_rounding";
  std::map<std::string, std::string> paths = cases();
  size_t compared = 0;
  for (const auto& entry : std::filesystem::directory_iterator(ref)) {
    const std::string name = entry.path().filename().string();
    const std::string csv = entry.path().string() + "/idle_time_breakdown.csv";
    if (!paths.count(name) || !std::filesystem::exists(csv)) continue;
    auto rows = read_csv(csv);
    if (rows.size() < 2) continue;
    CAPTURE(name);
    auto imp = std::make_unique<TraceImporter>();
    ReadResult r = stream_file(test::data_path(paths[name]), [&](const char* p, size_t n) { imp->push(p, n); });
    REQUIRE(r.ok);
    imp->finish();
    const TraceModel& m = imp->model();
    HtaSelection sel = hta_select_gpu_ops(m);
    IdleOptions opt;
    opt.hta_compat = true;
    opt.keep = &sel.kept;
    IdleResult idle = idle_breakdown(m, opt);
    std::map<std::pair<int64_t, std::string>, double> got_us;
    for (const StreamIdle& s : idle.streams)
      for (int k = 0; k < kIdleCategoryCount; ++k)
        got_us[{s.stream, idle_category_name(static_cast<IdleCategory>(k))}] = double(s.time_ns[k]) / 1000.0;
    for (size_t i = 1; i < rows.size(); ++i) {
      const auto& row = rows[i];  // rank, stream, idle_category, idle_time, idle_time_ratio
      REQUIRE(row.size() >= 4);
      int64_t stream = static_cast<int64_t>(std::stod(row[1]));
      std::string cat = row[2];
      double expected = std::stod(row[3]);
      CAPTURE(stream);
      CAPTURE(cat);
      auto it = got_us.find({stream, cat});
      REQUIRE(it != got_us.end());
      bool documented = name.find("ns_resolution_trace") != std::string::npos && stream == 7 && cat != "other";
      double tolerance = documented ? 60.0 : 0.02 + 1e-6 * std::fabs(expected);
      CHECK(std::fabs(it->second - expected) <= tolerance);
      ++compared;
    }
  }
  CHECK(compared >= 150);
}

}  // namespace
}  // namespace tw
