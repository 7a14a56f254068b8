// Finalisation helpers: permute_columns (one 32-bit scratch buffer for every column, 8-byte values
// moved as two halves) must equal a plain gather for every column type the model uses, and leave
// the inverse permutation behind; v1 flows whose (cat, name) pairs are first seen in an order unlike
// their string ids still pair per key and in time order, as do endpoints listed out of time order
// (many under one id, dense ids, ids far apart); an endpoint past its packed fields' limits is
// refused, not wrapped.
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "core/model/flows.h"
#include "core/model/permute.h"
#include "core/model/trace_model.h"
#include "tests/core/import_parts_check.h"
#include "tests/core/import_test_util.h"

using namespace tw;
using namespace tw::test;

namespace {

template <typename T>
std::vector<T> gathered(const std::vector<T>& v, const std::vector<uint32_t>& order) {
  std::vector<T> out(order.size());
  for (size_t i = 0; i < order.size(); ++i) out[i] = v[order[i]];
  return out;
}

}  // namespace

TEST_CASE("permute_columns equals a gather for every column type and returns the inverse") {
  std::mt19937_64 rng(42);
  for (size_t n : {0, 1, 2, 63, 64, 65, 1000, 100003, 600001}) {  // the last: its scratch in 3 chunks, one partial
    std::vector<uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), rng);
    if (n == 1000) std::iota(order.begin(), order.end(), 0);  // the identity too
    std::vector<int64_t> i64(n);
    std::vector<uint64_t> u64(n);
    std::vector<int32_t> i32(n);
    std::vector<uint32_t> u32(n);
    std::vector<uint16_t> u16(n);
    std::vector<uint8_t> u8(n);
    std::vector<EventKind> kind(n);
    for (size_t i = 0; i < n; ++i) {
      uint64_t r = rng();
      i64[i] = static_cast<int64_t>(r) >> (i % 40);  // negative and positive, high bits in use
      u64[i] = r ^ (uint64_t(i) << 32);
      i32[i] = static_cast<int32_t>(r >> 7);
      u32[i] = static_cast<uint32_t>(r >> 13);
      u16[i] = static_cast<uint16_t>(r >> 3);
      u8[i] = static_cast<uint8_t>(r >> 50);
      kind[i] = static_cast<EventKind>(r % 11);
    }
    auto e_i64 = gathered(i64, order);
    auto e_u64 = gathered(u64, order);
    auto e_i32 = gathered(i32, order);
    auto e_u32 = gathered(u32, order);
    auto e_u16 = gathered(u16, order);
    auto e_u8 = gathered(u8, order);
    auto e_kind = gathered(kind, order);
    std::vector<uint32_t> perm = order;
    permute_columns(perm, i64, u64, i32, u32, u16, u8, kind);
    CHECK(i64 == e_i64);
    CHECK(u64 == e_u64);
    CHECK(i32 == e_i32);
    CHECK(u32 == e_u32);
    CHECK(u16 == e_u16);
    CHECK(u8 == e_u8);
    CHECK(kind == e_kind);
    bool inverse = true;
    for (size_t i = 0; i < n; ++i) inverse = inverse && perm[order[i]] == i;
    CHECK(inverse);
  }
}

TEST_CASE("v1 flows: keys first seen out of string-id order pair per (id, cat, name) in time order") {
  // The strings "a"/"aa" get lower ids than "zz"/"b", but the first flow event uses ("zz", "b"), so
  // the key table's order differs from the string ids' order; flow id 7 exists under both keys.
  auto imp = import_all_ways(R"([
    {"ph":"X","name":"a","cat":"aa","pid":1,"tid":1,"ts":0,"dur":100},
    {"ph":"X","name":"dst","pid":1,"tid":2,"ts":0,"dur":100},
    {"ph":"X","name":"cat_z","cat":"zz","pid":1,"tid":3,"ts":0,"dur":100},
    {"ph":"f","bp":"e","cat":"zz","name":"b","id":7,"pid":1,"tid":2,"ts":50},
    {"ph":"s","cat":"zz","name":"b","id":7,"pid":1,"tid":3,"ts":10},
    {"ph":"s","cat":"aa","name":"a","id":7,"pid":1,"tid":1,"ts":20},
    {"ph":"t","cat":"aa","name":"a","id":7,"pid":1,"tid":3,"ts":30},
    {"ph":"f","bp":"e","cat":"aa","name":"a","id":7,"pid":1,"tid":2,"ts":40},
    {"ph":"f","bp":"e","cat":"aa","name":"a","id":8,"pid":1,"tid":2,"ts":60}
  ])");
  TraceModel& m = imp->model();
  REQUIRE(m.flows.size() == 3);
  auto names = [&](const Flow& f) {
    return name_of_slice(m, f.from_slice) + ">" + name_of_slice(m, f.to_slice) + " " +
           std::string(m.strings.get(f.cat));
  };
  std::vector<std::string> got;
  for (const Flow& f : m.flows) got.push_back(names(f));
  std::sort(got.begin(), got.end());
  CHECK(got == std::vector<std::string>{"a>cat_z aa", "cat_z>dst aa", "cat_z>dst zz"});
  CHECK(problem_count(*imp, "flow_without_start") == 1);
}

namespace {

// 20 launches ("sK" on thread 1) and their kernels ("dK" on thread 2), flow K from sK to dK, the
// flow events listed out of time order. `id_of(k)` gives flow k's id, `us_of(k)` when sK starts.
int64_t hundred_us_apart(int k) { return k * 100; }
std::string twenty_flows(uint64_t (*id_of)(int), int64_t (*us_of)(int)) {
  std::string t = "[";
  for (int k = 0; k < 20; ++k) {
    t += R"({"ph":"X","name":"s)" + std::to_string(k) + R"(","pid":1,"tid":1,"ts":)" + std::to_string(us_of(k)) +
         R"(,"dur":10},)";
    t += R"({"ph":"X","name":"d)" + std::to_string(k) + R"(","pid":1,"tid":2,"ts":)" + std::to_string(us_of(k) + 50) +
         R"(,"dur":10},)";
  }
  for (int j = 0; j < 20; ++j) {
    const int k = (j * 7) % 20, f = 19 - j;  // both orders differ from time order
    t += R"({"ph":"s","cat":"c","name":"n","id":)" + std::to_string(id_of(k)) + R"(,"pid":1,"tid":1,"ts":)" +
         std::to_string(us_of(k) + 5) + "},";
    t += R"({"ph":"f","bp":"e","cat":"c","name":"n","id":)" + std::to_string(id_of(f)) + R"(,"pid":1,"tid":2,"ts":)" +
         std::to_string(us_of(f) + 55) + "}";
    t += j + 1 < 20 ? "," : "]";
  }
  return t;
}

void check_twenty_flows(uint64_t (*id_of)(int), int64_t (*us_of)(int) = hundred_us_apart) {
  auto imp = import_all_ways(twenty_flows(id_of, us_of));
  TraceModel& m = imp->model();
  std::vector<std::string> got, want;
  for (const Flow& f : m.flows) got.push_back(name_of_slice(m, f.from_slice) + ">" + name_of_slice(m, f.to_slice));
  for (int k = 0; k < 20; ++k) want.push_back("s" + std::to_string(k) + ">d" + std::to_string(k));
  std::sort(got.begin(), got.end());
  std::sort(want.begin(), want.end());
  CHECK(got == want);
  CHECK(problem_count(*imp, "flow_without_start") == 0);
  CHECK(problem_count(*imp, "flow_without_end") == 0);
}

}  // namespace

// Endpoints pair in time order per id whatever order the file lists them in, also when one id
// carries many of them, and whether ids are dense (Kineto's correlation ids) or far apart.
TEST_CASE("v1 flows: one id with 40 endpoints pairs them in time order") {
  check_twenty_flows([](int) -> uint64_t { return 5; });
}

TEST_CASE("v1 flows: ids far apart (no counting by id) pair per id") {
  check_twenty_flows([](int k) -> uint64_t { return uint64_t(k) * 1000000000000ull + 3; });
}

TEST_CASE("v1 flows: dense ids pair per id") {
  check_twenty_flows([](int k) -> uint64_t { return 1000 + uint64_t(k); });
}

// An endpoint's time is 4 bytes against its MiB of input (FlowTimes): times seconds to centuries
// apart in one MiB, and near both ends of int64 in ns, are kept beside it and read back exactly,
// whole and with the file cut anywhere (a part's times recoded at the absorb).
TEST_CASE("v1 flows: endpoint times far apart in one MiB of input pair and bind exactly, whole and in parts") {
  const auto far = [](int k) -> int64_t {
    if (k == 3) return -9'000'000'000'000'000;  // -9e18 ns
    if (k == 11) return 9'000'000'000'000'000;
    return int64_t(k % 7) * 3'000'000 + int64_t(k / 7) * 5'000'000'000;  // 3 s to ~3 h apart
  };
  check_twenty_flows([](int k) -> uint64_t { return 1000 + uint64_t(k); }, far);
  check_twenty_flows([](int) -> uint64_t { return 5; }, far);  // paired by time alone
  const std::string text = twenty_flows([](int) -> uint64_t { return 5; }, far);
  CHECK(check_every_cut(text) > 0);
  FlowPoints f;
  for (int k = 0; k < 20; ++k) CHECK(f.add(uint64_t(k), 1, 2, 3, far(k) * 1000, 0, false, uint64_t(k) * 64));
  CHECK(f.times.bases.size() == 1);
  CHECK(f.times.escaped_offsets.size() >= 10);
  CHECK(f.times.fits(f.points.data(), f.points.size()));
  for (int k = 0; k < 20; ++k) CHECK(f.times.at(f.points[size_t(k)]) == far(k) * 1000);
  // A point coded as escaped without its side row, or past the MiBs that have a base, does not fit.
  FlowPoints bad = f;
  bad.times.escaped_offsets.pop_back(), bad.times.escaped_ts.pop_back();
  CHECK_FALSE(bad.times.fits(bad.points.data(), bad.points.size()));
  bad = f;
  bad.points[0] = FlowPoint::make(0, FlowEndpoint::bits_of(uint64_t(1) << 20, 0, 0, false), 0);
  CHECK_FALSE(bad.times.fits(bad.points.data(), 1));
}

TEST_CASE("after finish() a slice's track is read from where each track's rows start") {
  // Three threads' events interleaved in the file, and a named thread with no slices (an empty
  // track between the others): the rows come out grouped by track, the column is freed, and
  // track_at finds every row's track, the empty one's range included.
  const std::string text = R"({"traceEvents": [
    {"ph": "M", "name": "thread_name", "pid": 1, "tid": 2, "args": {"name": "idle"}},
    {"ph": "X", "name": "t3", "pid": 1, "tid": 3, "ts": 5, "dur": 1},
    {"ph": "X", "name": "t1", "pid": 1, "tid": 1, "ts": 4, "dur": 3},
    {"ph": "X", "name": "t3", "pid": 1, "tid": 3, "ts": 1, "dur": 1},
    {"ph": "X", "name": "t1", "pid": 1, "tid": 1, "ts": 5, "dur": 1},
    {"ph": "X", "name": "t4", "pid": 1, "tid": 4, "ts": 2, "dur": 9},
    {"ph": "X", "name": "t1", "pid": 1, "tid": 1, "ts": 1, "dur": 1}
  ]})";
  ImporterPtr imp = import_all_ways(text);
  TraceModel& m = imp->model();
  const SliceTable& s = m.slices;
  REQUIRE(s.size() == 6);
  CHECK((s.track.codes.empty() && s.track.values.empty()));
  REQUIRE(s.track_start.size() == m.tracks.size() + 1);
  CHECK(s.track_start.front() == 0);
  CHECK(s.track_start.back() == s.size());
  size_t empty_tracks = 0;
  for (uint32_t t = 0; t < m.tracks.size(); ++t) {
    const uint32_t begin = s.track_start[t], end = s.track_start[t + 1];
    CHECK(begin <= end);
    CHECK(s.rows_of(t).begin == begin);
    CHECK(s.rows_of(t).end == end);
    if (begin == end) {
      ++empty_tracks;
      continue;
    }
    for (uint32_t i = begin; i < end; ++i) {
      CHECK(s.track_at(i) == t);
      CHECK(name_of_slice(m, i) == "t" + std::to_string(m.tracks[t].tid));
      if (i > begin) CHECK(s.ts_ns[i - 1] <= s.ts_ns[i]);
    }
  }
  CHECK(empty_tracks >= 1);
}

// A flow endpoint packs its lane ((cat, name) and track) and its input offset beside its time: one
// past either limit is not kept (the importer counts it as flow_endpoint_skipped), and neither
// limit costs a kept endpoint anything: every field reads back as it was given.
TEST_CASE("v1 flow endpoints: fields read back, and the lane and offset limits refuse, not wrap") {
  FlowPoints f;
  CHECK(f.add(uint64_t(1) << 63 | 5, 3, 4, 77, -123456789, 2, false, FlowPoint::kOffsetLimit - 1));
  REQUIRE(f.points.size() == 1);
  const FlowPoint p = f.points[0];
  CHECK(p.id() == (uint64_t(1) << 63 | 5));
  CHECK(f.times.at(p) == -123456789);
  CHECK(p.offset() == FlowPoint::kOffsetLimit - 1);
  CHECK(p.order() == 2);
  CHECK_FALSE(p.enclosing());
  REQUIRE(p.lane() < f.lanes.size());
  CHECK(f.lanes[p.lane()].track == 77);
  CHECK(f.keys[f.lanes[p.lane()].key] == (uint64_t(3) << 32 | 4));
  CHECK_FALSE(f.add(1, 3, 4, 77, 0, 0, true, FlowPoint::kOffsetLimit));
  // Fill every lane: the last one still takes points, a new one is refused, an old one is not.
  const uint32_t key = f.key_of(3, 4);
  for (uint32_t track = 0; f.lanes.size() < FlowPoint::kLaneLimit; ++track) f.lane_of(key, 1000 + track);
  CHECK(f.lane_of(key, 1000 + FlowPoint::kLaneLimit) == FlowPoint::kLaneLimit);
  CHECK(f.add(2, 3, 4, 1000 + FlowPoint::kLaneLimit - 2, 10, 1, true, 99));
  CHECK(f.points[f.points.size() - 1].lane() == FlowPoint::kLaneLimit - 1);
  CHECK(f.points[f.points.size() - 1].enclosing());
  CHECK(f.points[f.points.size() - 1].order() == 1);
  CHECK_FALSE(f.add(3, 3, 4, 1, 10, 0, true, 100));   // a new lane
  CHECK_FALSE(f.add(3, 5, 6, 77, 10, 0, true, 100));  // a new key: a new lane too
  CHECK(f.add(3, 3, 4, 77, 10, 0, true, 100));
  CHECK(f.points.size() == 3);
}
