// The crafted jobs of tests/core/job_craft.h: a real rank (HTA's nccl_data.json, rank 0 of 2, 21
// collective kernels) copied into ranks with known offsets, one straggler and a dropped collective;
// every expectation is exact in ns, read back from the crafted text without going through a double.
#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

#include "tests/core/import_fingerprint.h"
#include "tests/core/job_craft.h"
#include "tests/core/test_data.h"

namespace tw::job_test {
namespace {

// The base is 9.7 MB of JSON: read and parsed once for the whole file.
const std::string& base_text() {
  static const std::string text = test::read_data("hta/tests/data/nccl_parser_config/nccl_data.json");
  return text;
}

const Json& base() {
  static const Json trace = parse_trace_ns(base_text());
  return trace;
}

const std::vector<std::pair<int64_t, int64_t>>& base_collectives() {
  static const auto collectives = collective_spans(base());
  return collectives;
}

// One job without a straggler serves the cases below (crafting and reading back a rank of the base
// takes a few tenths of a second): ranks 6, 7 and 5 of 8 with known offsets, rank 5 missing collective 5.
constexpr int64_t kAhead = 1234567891, kBehind = -987654321;
constexpr int kDropped = 5;
const std::vector<CraftRank> kRanks = {{.rank = 6},
                                       {.rank = 7, .clock_offset_ns = kAhead},
                                       {.rank = 5, .clock_offset_ns = kBehind, .drop_collective = kDropped}};

const std::vector<std::string>& job_text() {
  static const std::vector<std::string> job = craft_job_parsed(base(), kRanks, 8);
  return job;
}

const std::vector<Json>& job() {
  static const std::vector<Json> ranks = [] {
    std::vector<Json> out;
    for (const std::string& text : job_text()) out.push_back(parse_trace_ns(text));
    return out;
  }();
  return ranks;
}

TEST_CASE("job craft: the base trace has 21 collective kernels, read exactly") {
  REQUIRE_FALSE(base_text().empty());
  const auto& c = base_collectives();
  REQUIRE(c.size() == 21);
  CHECK(c[19].first == 4458677009853422);  // "ts": 4458677009853.422: a double would miss the last ns
  CHECK(c[19].second - c[19].first == 2636669);
  for (size_t i = 1; i < c.size(); ++i) CHECK(c[i - 1].second <= c[i].first);  // one at a time
}

TEST_CASE("job craft: without delay or offset a rank is the base again") {
  REQUIRE(job_text().size() == 3);
  CHECK(job_text()[0].find("\"ts\":4458677009853.422,") != std::string::npos);  // 3 decimals, as Kineto writes
  const Json& crafted = job()[0];
  CHECK(crafted["traceEvents"] == base()["traceEvents"]);
  for (const auto& [key, value] : base().items()) {
    if (key != "distributedInfo") CHECK_MESSAGE(crafted[key] == value, key);
  }
  CHECK(collective_spans(crafted) == base_collectives());
}

TEST_CASE("job craft: a clock offset moves every timestamp by exactly that much") {
  const Json& crafted = job()[1];
  const Json& events = crafted["traceEvents"];
  const Json& original = base()["traceEvents"];
  REQUIRE(events.size() == original.size());
  size_t moved = 0, mismatched = 0;
  for (size_t i = 0; i < events.size(); ++i) {
    Json e = events[i];
    if (original[i].contains("ts")) {
      mismatched += e["ts"].get<int64_t>() != original[i]["ts"].get<int64_t>() + kAhead;
      e["ts"] = original[i]["ts"];
      ++moved;
    }
    mismatched += e != original[i];  // nothing else changed, "dur" included
  }
  CHECK(moved == original.size());  // every event of this trace has a ts, "M" events included
  CHECK(mismatched == 0);
  // A negative offset too (rank 5, where one kernel is missing: compare the collectives).
  auto expected = base_collectives();
  expected.erase(expected.begin() + kDropped);
  for (auto& [start, end] : expected) start += kBehind, end += kBehind;
  CHECK(collective_spans(job()[2]) == expected);
}

TEST_CASE("job craft: a straggler arrives exactly its delay late at every collective, which all end together") {
  const int64_t d = 2345678;  // 2.3 ms on rank 1
  const std::vector<std::string> job = craft_job_parsed(base(), {{.rank = 0}, {.rank = 1, .delay_ns = d}}, 2);
  const auto& c = base_collectives();
  const Json ranks[2] = {parse_trace_ns(job[0]), parse_trace_ns(job[1])};
  const auto on_time = collective_spans(ranks[0]), late = collective_spans(ranks[1]);
  REQUIRE(on_time.size() == c.size());
  REQUIRE(late.size() == c.size());
  for (size_t i = 0; i < c.size(); ++i) {
    CAPTURE(i);
    const int64_t n = static_cast<int64_t>(i);
    CHECK(late[i].first - on_time[i].first == d);
    CHECK(late[i].second == on_time[i].second);
    CHECK(on_time[i].first == c[i].first + n * d);  // the others arrive on time and wait d longer
    CHECK(on_time[i].second - on_time[i].first == c[i].second - c[i].first + d);
    CHECK(late[i].second - late[i].first == c[i].second - c[i].first);  // the straggler does not wait
  }
  // After the last collective both ranks are n*d behind the base: the job got that much longer.
  const Json& last = base()["traceEvents"].back();
  const int64_t n_d = static_cast<int64_t>(c.size()) * d;
  REQUIRE(last["ts"].get<int64_t>() > c.back().second);
  for (const Json& rank : ranks) CHECK(rank["traceEvents"].back()["ts"] == last["ts"].get<int64_t>() + n_d);
}

TEST_CASE("job craft: delays and offsets compose, checked by hand on a small trace with integer microseconds") {
  // Two collectives [100, 110) and [200, 230) us; a compute kernel between them; no distributedInfo.
  const std::string text = R"({"traceEvents": [
    {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce", "ts": 100, "dur": 10},
    {"ph": "X", "cat": "kernel", "name": "gemm", "ts": 150, "dur": 20},
    {"ph": "X", "cat": "kernel", "name": "AllGather", "ts": 200, "dur": 30, "args": {"Collective name": "allgather"}},
    {"ph": "X", "cat": "cpu_op", "name": "step", "ts": 50, "dur": 200},
    {"ph": "i", "name": "mark", "ts": 205, "s": "t"},
    {"ph": "M", "name": "process_name", "pid": 1, "args": {"name": "x"}}]})";
  const std::vector<std::string> job =
      craft_job(text, {{.rank = 3, .clock_offset_ns = 7}, {.rank = 5, .delay_ns = 1000}}, 8);
  REQUIRE(job.size() == 2);
  const Json other = parse_trace_ns(job[0]), late = parse_trace_ns(job[1]);
  const auto ts = [](const Json& t, int i) { return t["traceEvents"][i]["ts"].get<int64_t>(); };
  const auto dur = [](const Json& t, int i) { return t["traceEvents"][i]["dur"].get<int64_t>(); };
  // The other rank: moved by 1 us per collective ended before, then its 7 ns offset.
  CHECK(ts(other, 0) == 100007);
  CHECK(dur(other, 0) == 11000);  // waits 1 us for the straggler
  CHECK(ts(other, 1) == 151007);
  CHECK(dur(other, 1) == 20000);
  CHECK(ts(other, 2) == 201007);
  CHECK(dur(other, 2) == 31000);
  CHECK(ts(other, 3) == 50007);
  CHECK(dur(other, 3) == 202000);  // ends at 250 us, after both collectives' ends
  CHECK(ts(other, 4) == 206007);
  // The straggler: moved by 1 us per collective started at or before.
  CHECK(ts(late, 0) == 101000);
  CHECK(dur(late, 0) == 10000);
  CHECK(ts(late, 1) == 151000);
  CHECK(ts(late, 2) == 202000);
  CHECK(dur(late, 2) == 30000);
  CHECK(dur(late, 3) == 202000);
  CHECK(ts(late, 4) == 207000);
  CHECK_FALSE(late["traceEvents"][5].contains("ts"));  // metadata without ts stays as it was
  CHECK(late["traceEvents"][5] ==
        Json::parse(R"({"ph": "M", "name": "process_name", "pid": 1, "args": {"name": "x"}})"));
  // Integer microseconds come back as decimals; distributedInfo is created.
  CHECK(job[0].find("\"ts\":100.007,\"dur\":11.000") != std::string::npos);
  CHECK(other["distributedInfo"] == Json({{"rank", 3}, {"world_size", 8}}));
  CHECK(late["distributedInfo"] == Json({{"rank", 5}, {"world_size", 8}}));
  CHECK(ns_to_us_text(-1500) == "-1.500");  // a large negative offset may take a timestamp below zero
  CHECK(ns_to_us_text(-5) == "-0.005");
  CHECK_THROWS_AS(craft_job(text, {{.delay_ns = 1}, {.rank = 1, .delay_ns = 2}}, 2), std::invalid_argument);
  CHECK_THROWS_AS(craft_job(text, {{.drop_collective = 2}}, 1), std::out_of_range);
}

TEST_CASE("job craft: a dropped collective removes exactly that kernel, on that rank only") {
  const Json& missing = job()[2];
  CHECK(missing["traceEvents"].size() == base()["traceEvents"].size() - 1);
  const auto spans = collective_spans(missing);
  REQUIRE(spans.size() == base_collectives().size() - 1);
  for (size_t i = 0; i < spans.size(); ++i) {
    CHECK(spans[i].first - kBehind == base_collectives()[i < kDropped ? i : i + 1].first);
  }
  for (size_t r = 0; r < 2; ++r) CHECK(collective_spans(job()[r]).size() == base_collectives().size());
  // The CPU side of the missing kernel (correlation 29943) stays: its launch and its flow's two ends.
  size_t launches = 0, kernels = 0, flow_ends = 0;
  for (const Json& e : missing["traceEvents"]) {
    flow_ends += e.value("cat", "") == "ac2g" && e.value("id", int64_t{-1}) == 29943;
    if (!e.contains("args") || e["args"].value("correlation", int64_t{-1}) != 29943) continue;
    kernels += e.value("cat", "") == "kernel";
    launches += e.value("cat", "") == "cuda_runtime";
  }
  CHECK(kernels == 0);
  CHECK(launches == 1);
  CHECK(flow_ends == 2);
}

TEST_CASE("job craft: --repeat tiles the base K times in time, ids and steps unique per copy, links kept") {
  constexpr int kCopies = 3;
  const Json tiled = repeat_trace(base(), kCopies);
  const Json& events = tiled["traceEvents"];
  const Json& original = base()["traceEvents"];
  size_t meta = 0;
  for (const Json& e : original) meta += e.value("ph", "") == "M";
  REQUIRE(meta > 0);
  CHECK(events.size() == meta + kCopies * (original.size() - meta));  // metadata once
  // Copy k is the base shifted by k * (span + 1 ms), its ids by k * 10^5 (the largest id is 5 digits).
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  for (const Json& e : original) {
    const int64_t ts = e["ts"].get<int64_t>();
    lo = std::min(lo, ts);
    hi = std::max(hi, ts + e.value("dur", int64_t{0}));
  }
  const int64_t shift = hi - lo + 1000000;
  size_t copy2 = 0, mismatched = 0;
  for (size_t i = 0, j = 0; i < original.size(); ++i) {
    if (original[i].value("ph", "") == "M") continue;
    // the events of copy 2 follow copy 0 (all events) and copy 1 (no metadata)
    const Json& c = events[original.size() + (original.size() - meta) + j++];
    Json e = original[i];
    e["ts"] = e["ts"].get<int64_t>() + 2 * shift;
    if (e.contains("id")) e["id"] = e["id"].get<int64_t>() + 200000;
    for (const char* k : {"correlation", "External id"})
      if (e.contains("args") && e["args"].contains(k)) e["args"][k] = e["args"][k].get<int64_t>() + 200000;
    if (e.value("name", "").rfind("ProfilerStep#", 0) == 0)
      e["name"] = "ProfilerStep#" + std::to_string(std::stoll(e["name"].get<std::string>().substr(13)) + 6);
    mismatched += c != e;
    ++copy2;
  }
  CHECK(copy2 == original.size() - meta);
  CHECK(mismatched == 0);
  // Counts x K, every id and step distinct across copies.
  const auto distinct = [](const Json& evs, const char* key, bool in_args) {
    std::multiset<int64_t> all;
    for (const Json& e : evs) {
      const Json* holder = in_args ? (e.contains("args") ? &e["args"] : nullptr) : &e;
      if (holder && holder->contains(key)) all.insert((*holder)[key].get<int64_t>());
    }
    return std::set<int64_t>(all.begin(), all.end()).size();
  };
  for (const auto& [key, in_args] : {std::pair{"id", false}, {"correlation", true}, {"External id", true}}) {
    CAPTURE(key);
    CHECK(distinct(events, key, in_args) == kCopies * distinct(original, key, in_args));
  }
  std::set<std::string> steps;
  for (const Json& e : events)
    if (e.value("cat", "") == "user_annotation" && e.value("name", "").rfind("ProfilerStep#", 0) == 0)
      steps.insert(e["name"].get<std::string>());
  CHECK(steps == std::set<std::string>{"ProfilerStep#10", "ProfilerStep#11", "ProfilerStep#12", "ProfilerStep#4",
                                       "ProfilerStep#5", "ProfilerStep#6", "ProfilerStep#7", "ProfilerStep#8",
                                       "ProfilerStep#9"});
  const auto spans = collective_spans(tiled);
  REQUIRE(spans.size() == kCopies * base_collectives().size());
  for (size_t i = 0; i < spans.size(); ++i) {
    const auto& b = base_collectives()[i % base_collectives().size()];
    const int64_t k = static_cast<int64_t>(i / base_collectives().size());
    CHECK(spans[i] == std::pair{b.first + k * shift, b.second + k * shift});
  }
  // The importer links each copy as it links the base: K times the launches and flows, no new problems.
  const auto once = test::import_whole(base_text());
  const auto thrice = test::import_whole(write_trace_ns(tiled));
  CHECK(thrice->model().launches.size() == kCopies * once->model().launches.size());
  CHECK(thrice->model().flows.size() == kCopies * once->model().flows.size());
  CHECK(thrice->model().slices.size() == kCopies * once->model().slices.size());
  for (const auto& [name, p] : thrice->stats().problems) {
    CAPTURE(name);
    const auto it = once->stats().problems.find(name);
    CHECK(p.count == kCopies * (it == once->stats().problems.end() ? 0 : it->second.count));
  }
  // Crafted after the repeat, a straggler's delay follows every collective of the tiled trace.
  const auto job = craft_job_parsed(tiled, {{.rank = 0}, {.rank = 1, .delay_ns = 1000}}, 2);
  const auto on_time = collective_spans(parse_trace_ns(job[0])), late = collective_spans(parse_trace_ns(job[1]));
  REQUIRE(late.size() == spans.size());
  for (size_t i = 0; i < late.size(); ++i) {
    CHECK(late[i].first - on_time[i].first == 1000);
    CHECK(late[i].second == on_time[i].second);
  }
  CHECK_THROWS_AS(repeat_trace(base(), 0), std::invalid_argument);
}

TEST_CASE("job craft: distributedInfo gets the rank and world size, its other keys kept") {
  for (size_t r = 0; r < kRanks.size(); ++r) {
    Json info = job()[r]["distributedInfo"];
    CHECK(info["rank"] == kRanks[r].rank);
    CHECK(info["world_size"] == 8);
    CHECK(info["pg_config"] == base()["distributedInfo"]["pg_config"]);
    info["rank"] = 0;
    info["world_size"] = 2;
    CHECK(info == base()["distributedInfo"]);
  }
}

}  // namespace
}  // namespace tw::job_test
