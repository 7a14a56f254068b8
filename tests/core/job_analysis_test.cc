// The job analysis (core/job) on jobs crafted from a real rank (tests/core/job_craft.h: HTA's
// nccl_data.json, 21 allreduce / broadcast kernels of process group "0"): known clock offsets must
// be recovered, a delay injected before every collective on one rank must flag that rank with the
// injected skew within 1 us, and a collective missing on one rank must be reported as a mismatch.
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "core/job/job_analysis.h"
#include "core/job/job_json.h"
#include "core/job/rank_record_json.h"
#include "core/session.h"
#include "core/summary/summary.h"
#include "tests/core/detail_summary_util.h"
#include "tests/core/job_craft.h"
#include "tests/core/test_data.h"

namespace tw::job_test {
namespace {

const Json& nccl_base() {
  static const Json trace = parse_trace_ns(test::read_data("hta/tests/data/nccl_parser_config/nccl_data.json"));
  return trace;
}

RankRecord record_of(const std::string& text, const std::string& name) {
  Session s(name);
  s.push(text.data(), text.size());
  s.finish();
  REQUIRE(!s.failed());
  s.file_summary();
  return s.rank_record();
}

std::vector<RankRecord> records_of(const std::vector<CraftRank>& ranks, int64_t world) {
  const std::vector<std::string> texts = craft_job_parsed(nccl_base(), ranks, world);
  std::vector<RankRecord> out;
  for (size_t i = 0; i < texts.size(); ++i) out.push_back(record_of(texts[i], "rank" + std::to_string(i) + ".json"));
  return out;
}

const JobRank& rank_labelled(const JobAnalysis& a, const std::string& label) {
  for (const JobRank& r : a.ranks)
    if (r.label == label) return r;
  FAIL("no rank labelled " << label);
  return a.ranks.front();
}

constexpr int64_t kDelay = 500000;  // 500 us before every collective on the straggler
constexpr int64_t kMicro = 1000;

// Four ranks with clocks apart by up to 5 ms; rank 2 late at every collective.
const std::vector<RankRecord>& straggler_job() {
  static const std::vector<RankRecord> job = records_of({{.rank = 0},
                                                         {.rank = 1, .clock_offset_ns = 3700123},
                                                         {.rank = 2, .clock_offset_ns = -1200456, .delay_ns = kDelay},
                                                         {.rank = 3, .clock_offset_ns = 250789}},
                                                        4);
  return job;
}

TEST_CASE("job: the crafted rank's record carries its collectives, steps and identity") {
  const RankRecord& r = straggler_job()[1];
  CHECK(r.has_rank);
  CHECK(r.rank == 1);
  CHECK(r.world_size == 4);
  CHECK(r.calls.size() == collective_spans(nccl_base()).size());
  CHECK(r.steps.size() == 3);
  for (const CollectiveCall& c : r.calls) {
    CHECK(c.group == "0");
    CHECK(c.bytes > 0);
  }
}

TEST_CASE("job: injected clock offsets are recovered from the collectives' ends") {
  const JobAnalysis a = analyze_job(straggler_job());
  REQUIRE(a.aligned);
  CHECK(a.mismatched == 0);
  CHECK(a.matched == collective_spans(nccl_base()).size());
  const int64_t expected[4] = {0, 3700123, -1200456, 250789};
  for (int r = 0; r < 4; ++r) {
    const JobRank& jr = rank_labelled(a, "rank " + std::to_string(r));
    CHECK(jr.aligned);
    CHECK(std::llabs(jr.clock_offset_ns - expected[r]) <= kMicro);
    CHECK(jr.clock_residual_ns <= kMicro);
  }
}

TEST_CASE("job: a delay before every collective on one rank flags it, with the injected skew") {
  const JobAnalysis a = analyze_job(straggler_job());
  const JobRank& late = rank_labelled(a, "rank 2");
  for (const CollectiveInstance& in : a.instances) {
    REQUIRE(in.status == CollectiveInstance::kMatched);
    CHECK(std::llabs(in.skew_ns - kDelay) <= kMicro);
    CHECK(a.ranks[in.last_rank].label == "rank 2");
  }
  CHECK(late.last_arrivals == a.matched);
  const int64_t n = static_cast<int64_t>(a.matched);
  for (const JobRank& r : a.ranks) {
    if (&r == &late) {
      CHECK(r.wait_ns <= n * kMicro);
    } else {
      CHECK(std::llabs(r.wait_ns - n * kDelay) <= n * kMicro);  // each waits the delay at every collective
      CHECK(r.last_arrivals == 0);
    }
  }
  bool flagged = false;
  for (const Straggler& s : a.stragglers) {
    if (s.metric != "arrival_late_ns") continue;
    CHECK(a.ranks[s.rank].label == "rank 2");  // nobody else arrives late
    CHECK(std::llabs(s.value - kDelay) <= kMicro);
    CHECK(!s.steps.empty());
    CHECK(s.reason.find("rank 2 arrives last at " + std::to_string(n) + " of " + std::to_string(n)) == 0);
    flagged = true;
  }
  CHECK(flagged);
  // The transfer is measured after the last arrival: the on-time ranks' kernels are longer by the
  // delay, but the bandwidth is not lowered by it.
  REQUIRE(!a.by_op_group.empty());
  const JobAnalysis calm = analyze_job(records_of({{.rank = 0}, {.rank = 1}}, 2));
  for (const OpGroupStat& s : a.by_op_group)
    for (const OpGroupStat& c : calm.by_op_group)
      if (c.op == s.op && c.group == s.group) CHECK(std::llabs(c.transfer_ns - s.transfer_ns) <= s.count * kMicro);
}

TEST_CASE("job: ranks without a delay have no arrival straggler and no skew") {
  const JobAnalysis a = analyze_job(records_of({{.rank = 0}, {.rank = 1, .clock_offset_ns = -40000000}}, 2));
  for (const CollectiveInstance& in : a.instances) CHECK(in.skew_ns <= kMicro);
  for (const Straggler& s : a.stragglers) CHECK(s.metric != "arrival_late_ns");
  CHECK(std::llabs(a.ranks[1].clock_offset_ns + 40000000) <= kMicro);
}

TEST_CASE("job: a collective missing on one rank is a mismatch") {
  const JobAnalysis a = analyze_job(records_of({{.rank = 0}, {.rank = 1, .drop_collective = 7}, {.rank = 2}}, 3));
  REQUIRE(a.mismatched >= 1);
  bool named = false;
  for (const CollectiveInstance& in : a.instances)
    if (in.status == CollectiveInstance::kMismatched) named = named || in.problem.find("missing on rank 1") == 0;
  CHECK(named);
}

TEST_CASE("job: the records' JSON round trip gives the same job") {
  const std::vector<RankRecord>& job = straggler_job();
  std::vector<RankRecord> back;
  std::string error;
  std::string text = "[";
  for (size_t i = 0; i < job.size(); ++i) text += (i ? "," : "") + dump_json(rank_record_json(job[i]));
  REQUIRE(rank_records_from_json(text + "]", &back, &error));
  nlohmann::json a = nlohmann::json::object(), b = nlohmann::json::object();
  add_job_analysis_json(job, analyze_job(job), a);
  add_job_analysis_json(back, analyze_job(back), b);
  CHECK(dump_json(a) == dump_json(b));
}

TEST_CASE("job: malformed records are refused with a reason, never thrown") {
  std::vector<RankRecord> out;
  std::string error;
  for (const char* bad :
       {"", "{}", "[1]", "[{\"schema\": \"other\"}]", "[{\"schema\": \"tracewise.rank/1\", \"rank\": \"x\"}]",
        "[{\"schema\": \"tracewise.rank/1\", \"calls\": [[0]]}]",
        "[{\"schema\": \"tracewise.rank/1\", \"strings\": [\"\"], \"calls\": [[9,0,0,-1,-1,-1,0,null,0,1]]}]",
        "[{\"schema\": \"tracewise.rank/1\", \"strings\": [\"\"], \"calls\": [[0,0,0,-1,-1,-1,0,null,5,1]]}]",
        "[{\"schema\": \"tracewise.rank/1\", \"steps\": [[1,2,3]]}]"}) {
    error.clear();
    CHECK_MESSAGE(!rank_records_from_json(bad, &out, &error), bad);
    CHECK(!error.empty());
  }
}

TEST_CASE("job: notes for files without a rank, a rank twice and ranks missing from the world") {
  RankRecord a, b, c, d;
  a.has_rank = b.has_rank = c.has_rank = true;
  a.rank = 0, b.rank = 0, c.rank = 3;
  a.world_size = b.world_size = c.world_size = 8;
  d.file = "loose.json";
  std::vector<std::string> notes;
  const std::vector<JobRank> ranks = order_ranks({d, c, a, b}, &notes);
  REQUIRE(ranks.size() == 4);
  CHECK(ranks[0].label == "rank 0");
  CHECK(ranks[2].label == "rank 3");
  CHECK(ranks[3].label == "loose.json");
  std::string all;
  for (const std::string& n : notes) all += n + "\n";
  CHECK(all.find("1 file carries no rank") != std::string::npos);
  CHECK(all.find("Rank 0 appears in 2 files") != std::string::npos);
  CHECK(all.find("2 of 8 ranks are open; missing: 1, 2, 4, 5, 6, 7") != std::string::npos);
  // No collective at all: timestamps as written, said so.
  const JobAnalysis j = analyze_job({a, c});
  CHECK(!j.aligned);
  CHECK(j.notes.back().find("No collective could be matched") == 0);
}

TEST_CASE("job: HTA's two sampled ranks of a 128-rank job") {
  std::vector<RankRecord> records;
  for (const char* f :
       {"hta/tests/data/trace_filter/sampled_rank-0.json", "hta/tests/data/trace_filter/sampled_rank-1.json"})
    records.push_back(record_of(test::read_data(f), f));
  const JobAnalysis a = analyze_job(records);
  CHECK(a.ranks.size() == 2);
  CHECK(a.matched == 10);  // their ten SendRecv kernels, by order within each step
  CHECK(a.aligned);
  bool noted = false, scattered = false;
  for (const std::string& n : a.notes) {
    noted = noted || n.find("2 of 128 ranks are open") == 0;
    scattered = scattered || n.find("The collective ends of rank 0, rank 1 scatter") == 0;
  }
  CHECK(noted);
  // Their SendRecv kernels do not end together (other peers, most likely): the clocks do not hold,
  // so nobody is named late from arrivals.
  CHECK(scattered);
  for (const JobRank& r : a.ranks) CHECK(r.clock_residual_ns > kClockResidualNoteNs);
  for (const Straggler& s : a.stragglers) CHECK(s.metric != "arrival_late_ns");
}

}  // namespace
}  // namespace tw::job_test

namespace tw::job_test {
namespace {

// Four ranks in two tensor-parallel groups (1 MB allreduces) and two data-parallel groups (8 MB):
// rank 3's groups transfer 4x slower than their peers, rank 3 sits in both; ranks 1 and 2 each
// also sit in a group of normal speed.
std::vector<RankRecord> slow_link_job() {
  std::vector<RankRecord> ranks(4);
  const char* tp[4] = {"tp0", "tp0", "tp1", "tp1"};
  const char* dp[4] = {"dp0", "dp1", "dp0", "dp1"};
  for (int r = 0; r < 4; ++r) {
    ranks[r].has_rank = true;
    ranks[r].rank = r;
    ranks[r].world_size = 4;
    for (int k = 0; k < 5; ++k) {
      for (int which = 0; which < 2; ++which) {
        CollectiveCall c;
        c.group = which ? dp[r] : tp[r];
        c.op = "allreduce";
        c.dtype = "Float";
        c.nelems = which ? 2097152 : 262144;
        c.bytes = c.nelems * 4;
        const bool slow = c.group == std::string("tp1") || c.group == std::string("dp1");
        c.begin_ns = int64_t(k) * 10000000 + which * 5000000;
        c.end_ns = c.begin_ns + (which ? 800000 : 100000) * (slow ? 4 : 1);
        ranks[r].calls.push_back(c);
      }
    }
  }
  return ranks;
}

TEST_CASE("job: a rank whose process groups all transfer slowly is named for a slow link") {
  const JobAnalysis a = analyze_job(slow_link_job());
  CHECK(a.matched == 20);
  std::vector<std::string> named;
  for (const Straggler& s : a.stragglers) {
    if (s.cause != "slow_link") continue;
    named.push_back(a.ranks[s.rank].label);
    CHECK(s.metric == "group_busbw_mbps");
    CHECK(s.value * 4 == doctest::Approx(s.median).epsilon(0.01));
    CHECK(s.reason.find("rank 3 is in 2 process groups that transfer slowly") == 0);
  }
  CHECK(named == std::vector<std::string>{"rank 3"});
  for (const Straggler& s : a.stragglers) CHECK(s.metric != "arrival_late_ns");  // everyone arrives together
}

}  // namespace
}  // namespace tw::job_test

namespace tw::job_test {
namespace {

// More profiler steps than the summary lists (a chart's worth): the record still has every step,
// so no collective is taken for one outside a rank's profiled steps.
TEST_CASE("job: ranks with more steps than the summary's chart lists") {
  std::vector<RankRecord> records;
  for (int r = 0; r < 2; ++r) {
    detail_test::TraceText t;
    for (int k = 0; k < 1005; ++k) {
      const double at = 100.0 * k + 50.0 * r;  // rank 1's clock runs 50 us ahead
      t.step(k, at, 90);
      t.kernel("ncclKernel_AllReduce_RING_LL_Sum_float", at + 20, 10, 7, at + 5);
    }
    records.push_back(record_of(t.text(), "r" + std::to_string(r) + ".json"));
    CHECK(records.back().steps.size() == 1005);
  }
  const JobAnalysis a = analyze_job(records);
  CHECK(a.matched == 1005);
  CHECK(a.partial == 0);
  CHECK(std::llabs(rank_labelled(a, "r1.json").clock_offset_ns - 50000) <= kMicro);
}

}  // namespace
}  // namespace tw::job_test

namespace tw::job_test {
namespace {

// Records may come from elsewhere: extreme times must neither overflow (UBSan runs this) nor hang.
TEST_CASE("job: records with extreme times are analysed without overflow") {
  std::vector<RankRecord> ranks(3);
  const int64_t far[3] = {INT64_MIN / 2, 0, INT64_MAX / 2};
  for (int r = 0; r < 3; ++r) {
    ranks[r].has_rank = true;
    ranks[r].rank = r;
    RankStep step;
    step.number = 1;
    step.begin_ns = INT64_MIN;
    step.end_ns = INT64_MAX;
    step.category_ns[0] = INT64_MAX;
    ranks[r].steps = {step, step};
    for (int k = 0; k < 4; ++k) {
      CollectiveCall c;
      c.group = "0";
      c.op = "allreduce";
      c.step = 1;
      c.begin_ns = far[r] + k;
      c.end_ns = k == 3 ? INT64_MAX : far[r] + 2 * k + 1;
      ranks[r].calls.push_back(c);
    }
  }
  const JobAnalysis a = analyze_job(ranks);
  CHECK(a.ranks.size() == 3);
  nlohmann::json j = nlohmann::json::object();
  add_job_analysis_json(ranks, a, j);
  CHECK(j["collectives"]["instances"].get<uint64_t>() >= 1);
  // Two ranks 2^62 ns apart: not aligned, not measured as one collective.
  const JobAnalysis b = analyze_job({ranks[0], ranks[2]});
  CHECK(!b.aligned);
  CHECK(b.matched == 0);
}

}  // namespace
}  // namespace tw::job_test

namespace tw::job_test {
namespace {

// Where every rank writes "Seq", a collective is matched by it, not by its position: rank 1's
// profile starts one call earlier (seq 9 is outside rank 0's window), which would shift every
// ordinal by one; and a point-to-point call keeps its own sequence.
TEST_CASE("job: collectives matched by Seq when every rank writes it") {
  std::vector<RankRecord> ranks(2);
  for (int r = 0; r < 2; ++r) {
    ranks[r].has_rank = true;
    ranks[r].rank = r;
    for (int64_t seq = r == 1 ? 9 : 10; seq < 15; ++seq) {
      CollectiveCall c;
      c.group = "0";
      c.op = "allreduce";
      c.dtype = "Float";
      c.nelems = 1024 * seq;  // each call its own size: a wrong pairing would disagree
      c.seq = seq;
      c.begin_ns = seq * 1000000 + r * 7000;  // rank 1 arrives 7 us later at each
      c.end_ns = seq * 1000000 + 500000;
      ranks[r].calls.push_back(c);
    }
    CollectiveCall p2p;
    p2p.group = "0";
    p2p.op = "send";
    p2p.seq = 10;  // the same number as an allreduce: another sequence
    p2p.begin_ns = 20000000;
    p2p.end_ns = 20100000;
    ranks[r].calls.push_back(p2p);
  }
  const JobAnalysis a = analyze_job(ranks);
  CHECK(a.mismatched == 1);  // seq 9: missing on rank 0, which has no steps to say it was outside
  CHECK(a.matched == 6);     // seq 10..14 and the send
  for (const CollectiveInstance& in : a.instances) {
    CHECK(in.by_seq);
    if (in.status == CollectiveInstance::kMatched && in.op == "allreduce") CHECK(std::llabs(in.skew_ns - 7000) <= 1);
  }
  CHECK(a.ranks[1].last_arrivals == 5);
}

}  // namespace
}  // namespace tw::job_test
