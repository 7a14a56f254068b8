// The slices' start times in 4 bytes a row (time_column.h): any int64 reads back exactly through
// appends, sets, finish()'s reordering and a part's recoding, against a plain vector of the same
// times; and a trace whose times jump far apart reads back per slice, whole and in parts.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/model/time_column.h"
#include "tests/core/import_parts_check.h"
#include "tests/core/import_test_util.h"

using namespace tw;
using namespace tw::test;

namespace {

// Times as a trace has them, mostly a walk in small steps, with jumps of seconds to hours either
// way (another track's rows, a sparse track) and the extremes of int64.
std::vector<int64_t> random_times(std::mt19937_64& rng, size_t n) {
  std::vector<int64_t> out;
  int64_t t = 1'700'000'000'000'000'000;
  for (size_t i = 0; i < n; ++i) {
    switch (rng() % 16) {
      case 0:
        if (rng() % 512 == 0) t += int64_t(rng() % 20'000'000'000) - 10'000'000'000;  // +-10 s, rarely
        break;
      case 1: out.push_back(rng() % 2 ? INT64_MIN + int64_t(rng() % 3) : INT64_MAX - int64_t(rng() % 3)); continue;
      case 2: out.push_back(int64_t(rng())); continue;                                   // anywhere
      case 3: out.push_back(t - (int64_t(1) << 31) + int64_t(rng() % 3) - 1); continue;  // the base's edge
      default: t += int64_t(rng() % 2'000'000);
    }
    out.push_back(t);
  }
  return out;
}

// The side table holds exactly the rows coded kEscaped, ascending, and every row reads back.
void check_column(const TimeColumn& c, const std::vector<int64_t>& want) {
  REQUIRE(c.size() == want.size());
  CHECK(c.bases.size() == TimeColumn::blocks(c.size()));
  CHECK(c.part_fits(c, 0));
  size_t wrong = 0;
  for (size_t i = 0; i < want.size(); ++i) wrong += c[i] != want[i];
  CHECK(wrong == 0);
}

// Reordered by a random permutation: row where[i] afterwards holds what row i held.
void check_permuted(TimeColumn& c, const std::vector<int64_t>& want, std::mt19937_64& rng) {
  const size_t n = want.size();
  std::vector<uint32_t> where(n);
  std::iota(where.begin(), where.end(), 0u);
  std::shuffle(where.begin(), where.end(), rng);
  c.permute(where);
  std::vector<int64_t> moved(n);
  for (size_t i = 0; i < n; ++i) moved[where[i]] = want[i];
  check_column(c, moved);
}

}  // namespace

TEST_CASE("start times: any int64 reads back through appends, sets and reordering") {
  std::mt19937_64 rng(7);
  for (size_t n : {size_t(0), size_t(1), TimeColumn::kBlockRows - 1, TimeColumn::kBlockRows, size_t(5000)}) {
    CAPTURE(n);
    std::vector<int64_t> want = random_times(rng, n);
    TimeColumn c;
    for (int64_t t : want) c.push_back(t);
    check_column(c, want);
    // Most rows fit their block once it is complete, even where its first row was an outlier.
    const size_t complete = n / TimeColumn::kBlockRows * TimeColumn::kBlockRows;
    const size_t escaped_complete = static_cast<size_t>(
        std::lower_bound(c.escaped_rows.begin(), c.escaped_rows.end(), complete) - c.escaped_rows.begin());
    CHECK(escaped_complete <= complete / 3);
    // Sets: escaping rows, rows that fit again, and rows left as they were.
    for (size_t k = 0; k < n / 4; ++k) {
      const size_t row = rng() % n;
      const int64_t near = c[rng() % n];  // a time close to another row's (not past INT64_MAX)
      want[row] = k % 3 == 0 ? int64_t(rng()) : near < INT64_MAX - 1000 ? near + int64_t(rng() % 1000) : near;
      c.set(row, want[row]);
    }
    check_column(c, want);
    check_permuted(c, want, rng);
  }
  // Reordered past one chunk of the scratch (RowScratch: 2^18 rows), without escapes.
  const size_t n = 600001;
  TimeColumn c;
  std::vector<int64_t> want(n);
  for (size_t i = 0; i < n; ++i) c.push_back(want[i] = int64_t(1) << 40 | int64_t(rng() % 1000000));
  check_permuted(c, want, rng);
}

TEST_CASE("start times: sorted per track, each block re-based on its earliest time, escapes only where tracks meet") {
  // Three tracks of 3 s each, 10 s apart, each in time order: after finish()'s reordering only a
  // block where one track ends and the next begins holds times too far apart.
  std::vector<int64_t> want;
  for (int track = 0; track < 3; ++track)
    for (int64_t i = 0; i < 3000; ++i) want.push_back((int64_t(1) << 50) + track * 10'000'000'000 + i * 1'000'000);
  std::vector<uint32_t> where(want.size());
  std::iota(where.begin(), where.end(), 0u);
  TimeColumn c;
  for (int64_t t : want) c.push_back(t);
  c.permute(where);  // the identity: re-bases only
  check_column(c, want);
  // Where two tracks meet, the base holds the larger group; a block of one track, its earliest time.
  CHECK(!c.escaped_rows.empty());
  CHECK(c.escaped_rows.size() <= TimeColumn::kBlockRows);
  for (size_t b = 0; b < c.bases.size(); ++b) {
    const auto first = want.begin() + b * TimeColumn::kBlockRows;
    const auto last = want.begin() + std::min(want.size(), (b + 1) * TimeColumn::kBlockRows);
    if (*(last - 1) - *first < (int64_t(1) << 32)) CHECK(c.bases[b] == *first);
  }
  // Binary searches over rows read the times through the iterator.
  const auto first = c.begin(), last = c.begin() + 3000;
  for (int64_t t : {int64_t(0), want[0], want[17] + 1, want[2999], want[2999] + 1}) {
    CAPTURE(t);
    CHECK(std::lower_bound(first, last, t) - first ==
          std::lower_bound(want.begin(), want.begin() + 3000, t) - want.begin());
  }
}

TEST_CASE("start times: a part's rows recoded at the end, dropped rows skipped; a damaged part refused") {
  std::mt19937_64 rng(11);
  for (size_t own : {size_t(0), size_t(1000), TimeColumn::kBlockRows, size_t(2500)}) {
    CAPTURE(own);
    const std::vector<int64_t> mine = random_times(rng, own), theirs = random_times(rng, 3000);
    TimeColumn here, part;
    for (int64_t t : mine) here.push_back(t);
    for (int64_t t : theirs) part.push_back(t);
    // As absorb_part.cc does: the part's codes copied behind this column's, checked, then the rows
    // whose E had no B dropped (the rows behind move down), then recoded.
    here.codes.insert(here.codes.end(), part.codes.begin(), part.codes.end());
    CHECK(here.part_fits(part, own));
    std::vector<uint32_t> dropped;
    for (uint32_t i = 0; i < theirs.size(); ++i)
      if (rng() % 10 == 0) dropped.push_back(i);
    std::vector<uint32_t> row_of(theirs.size());
    std::vector<int64_t> want = mine;
    size_t d = 0;
    for (uint32_t i = 0; i < theirs.size(); ++i) {
      if (d < dropped.size() && dropped[d] == i) {
        row_of[i] = UINT32_MAX, ++d;
        continue;
      }
      row_of[i] = static_cast<uint32_t>(want.size());
      here.codes[want.size()] = here.codes[own + i];
      want.push_back(theirs[i]);
    }
    here.codes.resize(want.size());
    here.recode_part(part, theirs.size(), [&](uint32_t i) { return row_of[i]; });
    check_column(here, want);
  }
  // A part whose side tables do not match its codes.
  TimeColumn here, part;
  for (int64_t t : {int64_t(5), int64_t(1) << 40, INT64_MIN}) part.push_back(t);
  REQUIRE(part.escaped_rows == std::vector<uint32_t>{1, 2});
  here.push_back(1);
  here.codes.insert(here.codes.end(), part.codes.begin(), part.codes.end());
  CHECK(here.part_fits(part, 1));
  CHECK(!here.part_fits(part, 0));
  TimeColumn bad = part;
  bad.bases.push_back(0);  // a base for a block it does not have
  CHECK(!here.part_fits(bad, 1));
  bad = part;
  bad.escaped_rows = {2};  // row 1 coded kEscaped without its time
  bad.escaped_values = {INT64_MIN};
  CHECK(!here.part_fits(bad, 1));
  bad = part;
  bad.escaped_values.pop_back();
  CHECK(!here.part_fits(bad, 1));
}

namespace {

// A trace whose slices' times jump far apart: three threads over an hour, a few far outliers (a
// day before, near the ends of int64 in ns), and a B whose E comes at the end, in a later part
// when cut (its row's time is set there).
struct Timed {
  std::string name;
  int64_t ts_ns;
};
std::string far_times_trace(std::vector<Timed>& want) {
  std::string text = R"({"traceEvents": [)"
                     "\n";
  auto add = [&](const std::string& event, const std::string& name, int64_t ts_ns) {
    if (want.size()) text += ",\n";
    text += event;
    want.push_back({name, ts_ns});
  };
  add(R"({"ph": "B", "name": "open", "cat": "cpu_op", "pid": 1, "tid": 9, "ts": -86400000000})", "open",
      -86'400'000'000'000);
  for (int i = 0; i < 2400; ++i) {
    const int tid = i % 3;
    int64_t us = int64_t(i / 3) * 4'500'000 + i % 7;  // 4.5 s apart on a thread
    if (i % 401 == 0) us = 9'000'000'000'000'000;     // 9e18 ns
    if (i % 577 == 0) us = -9'000'000'000'000'000;
    const std::string name = "e" + std::to_string(i);
    add(R"({"ph": "X", "name": ")" + name + R"(", "cat": "cpu_op", "pid": 1, "tid": )" + std::to_string(tid) +
            R"(, "ts": )" + std::to_string(us) + ".001" + R"(, "dur": 1})",
        name, us * 1000 + (us < 0 ? -1 : 1));
  }
  text += R"(,
{"ph": "E", "pid": 1, "tid": 9, "ts": 3600000000}]})";
  return text;
}

void check_times(TraceModel& m, const std::vector<Timed>& want) {
  const SliceTable& s = m.slices;
  REQUIRE(s.size() == want.size());
  CHECK(s.ts_ns.part_fits(s.ts_ns, 0));
  std::unordered_map<std::string, int64_t> got;
  for (size_t i = 0; i < s.size(); ++i) got[std::string(m.strings.get(s.name.at(i)))] = s.ts_ns[i];
  size_t wrong = 0;
  for (const Timed& w : want) {
    const bool ok = got.count(w.name) && got[w.name] == w.ts_ns;
    if (!ok && wrong++ < 3) MESSAGE(w.name, " read back as ", got.count(w.name) ? got[w.name] : -1, " for ", w.ts_ns);
  }
  CHECK(wrong == 0);
  for (size_t t = 0; t < m.tracks.size(); ++t)
    for (uint32_t i = s.rows_of(t).begin + 1; i < s.rows_of(t).end; ++i) CHECK(s.ts_ns[i - 1] <= s.ts_ns[i]);
}

}  // namespace

TEST_CASE("start times: far-apart times read back per slice after finish(), whole and in parts") {
  std::vector<Timed> want;
  const std::string text = far_times_trace(want);
  ImporterPtr whole = import_all_ways(text);
  check_times(whole->model(), want);
  CHECK(!whole->model().slices.ts_ns.escaped_rows.empty());
  const std::string expected = fingerprint(*whole);
  const std::vector<uint64_t> starts = element_starts(text);
  REQUIRE(starts.size() == want.size() + 1);
  for (size_t a : {size_t(1), size_t(700), size_t(1025), size_t(2000), starts.size() - 1}) {
    for (bool bytes : {false, true}) {
      CAPTURE(a);
      CAPTURE(bytes);
      PartsImport r = import_in_parts(text, {starts[a]}, static_cast<uint32_t>(a), size_t(1) << 20, bytes);
      CHECK(r.absorbed == 1);
      CHECK(fingerprint(*r.importer) == expected);
      check_times(r.importer->model(), want);
    }
  }
  PartsImport r3 = import_in_parts(text, {starts[900], starts[1900]}, 3, size_t(1) << 20, true);
  CHECK(r3.absorbed == 2);
  CHECK(fingerprint(*r3.importer) == expected);
}
