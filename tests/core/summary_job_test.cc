// The job's verdict over several ranks' summaries (core/summary/job_summary.h): the limiter most ranks
// share, the ranks that differ, and the slowest rank against the median, from hand-written summaries.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/summary/job_summary.h"
#include "core/summary/summary.h"

namespace tw {
namespace {

using nlohmann::json;

json rank(int r, const std::string& limiter, json step_mean, json span = nullptr) {
  json f = {{"name", "rank" + std::to_string(r) + ".json"}, {"rank", r}, {"verdict", {{"limiter", limiter}}}};
  f["step_breakdown"] = step_mean.is_null() ? json(nullptr) : json{{"mean_ns", step_mean}};
  f["temporal"] = span.is_null() ? json(nullptr) : json{{"span_ns", span}};
  return f;
}

TEST_CASE("job summary: all ranks agree; the slowest against the median") {
  const json j = job_summary({rank(0, "compute", 100000000), rank(1, "compute", 104000000),
                              rank(2, "compute", 100000000), rank(3, "compute", 125000000)});
  CHECK(j["rank_count"] == 4);
  const json& v = j["verdict"];
  CHECK(v["limiter"] == "compute");
  CHECK(v["agree"] == 4);
  CHECK(v["slowest"]["label"] == "rank 3");
  CHECK(v["slowest"]["median_ns"] == 100000000);  // the lower median of 100, 100, 104, 125
  CHECK(v["slowest"]["over_median"] == 0.25);
  CHECK(v["slowest"]["of"] == "step_mean");
  CHECK(v["sentence"] ==
        "All 4 ranks are GPU compute-bound. The slowest is rank 3: 125.000 ms per step, 25.0% over the median rank "
        "(100.000 ms).");
}

TEST_CASE("job summary: the ranks that differ are named; a tie goes to the slowest rank's limiter") {
  json v = job_summary({rank(0, "compute", 100), rank(1, "host", 300), rank(2, "host", 200), rank(3, "compute", 100),
                        rank(4, "communication", 100)})["verdict"];
  CHECK(v["by_limiter"]["host"] == json::array({"rank 1", "rank 2"}));
  CHECK(v["limiter"] == "host");  // 2 and 2: rank 1, the slowest, is host-bound
  CHECK(v["agree"] == 2);
  CHECK(
      v["sentence"] ==
      "2 of 5 ranks are host-bound; rank 4 is communication-bound; rank 0, rank 3 are GPU compute-bound. The slowest is "
      "rank 1: 300 ns per step, 200.0% over the median rank (100 ns).");
}

TEST_CASE("job summary: step times or GPU spans, never a mix") {
  // One rank without steps: all are compared by their GPU span.
  json v = job_summary({rank(0, "compute", 100, 1000), rank(1, "compute", nullptr, 3000)})["verdict"];
  CHECK(v["slowest"]["of"] == "gpu_span");
  CHECK(v["slowest"]["label"] == "rank 1");
  CHECK(v["sentence"] ==
        "Both ranks are GPU compute-bound. The slowest is rank 1: 3.0 us of GPU span, 200.0% over the median rank "
        "(1.0 us).");
  // Neither for one of them: no slowest rank.
  v = job_summary({rank(0, "compute", 100, 1000), rank(1, "cpu_only", nullptr, nullptr)})["verdict"];
  CHECK(v["slowest"].is_null());
  CHECK(v["sentence"] == "1 of 2 ranks are GPU compute-bound; rank 1 is CPU-only (no GPU work).");
}

TEST_CASE("job summary: in the document only for several files") {
  CHECK(!summary_document({rank(0, "compute", 100)}).contains("job"));
  CHECK(summary_document({rank(0, "compute", 100), rank(1, "compute", 100)})["job"]["rank_count"] == 2);
}

}  // namespace
}  // namespace tw
