// Side tables of the model (side_rows.h): the collective args of the GPU ops that have any, the
// Kineto id pairs (id_pair_column.h) and durations (compact_int_column.h) that do not fit 4 bytes and the event sources that
// do not fit 8 bytes (source_column.h), read back per row after sorting and after a parts import. (The collective args' parts imports: import_parts_test.cc.)
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <string>

#include "core/model/side_rows.h"
#include "tests/core/import_parts_check.h"
#include "tests/core/import_test_util.h"

using namespace tw;
using namespace tw::test;

namespace {

// The GPU op row of the first slice named `name`.
uint32_t op_named(TraceModel& m, std::string_view name) {
  const int slice = slice_named(m, name);
  REQUIRE(slice >= 0);
  for (uint32_t row = 0; row < m.gpu_ops.size(); ++row)
    if (m.gpu_ops.slice[row] == static_cast<uint32_t>(slice)) return row;
  FAIL("no GPU op for ", name);
  return 0;
}

// Imported every way and at every cut, each giving the whole import's model; and the side tables
// themselves read back per row by `check` after each: rows offset and renumbered, none lost.
void check_side_tables_all_ways(const std::string& text, void (*check)(TraceModel&)) {
  ImporterPtr whole = import_all_ways(text);
  check(whole->model());
  CHECK(check_every_cut(text) > 0);
  const std::vector<uint64_t> starts = element_starts(text);
  for (size_t a = 1; a < starts.size(); ++a) {
    CAPTURE(starts[a]);
    PartsImport r = import_in_parts(text, {starts[a]}, static_cast<uint32_t>(a), 64, a % 2 == 1);
    check(r.importer->model());
  }
}

}  // namespace

TEST_CASE("collective args: a side row only for the ops that have any, each found again after sorting") {
  // Written stream 2 first and backwards in time, so sorting moves every op row.
  const std::string text = R"({"traceEvents": [
  {"ph": "X", "name": "plain", "cat": "kernel", "pid": 0, "tid": 2, "ts": 50, "dur": 1, "args": {"stream": 2, "Seq": -1}},
  {"ph": "X", "name": "ag", "cat": "kernel", "pid": 0, "tid": 2, "ts": 40, "dur": 1, "args": {"stream": 2, "Collective name": "allgather", "In msg nelems": 7, "Out msg nelems": 56, "Group size": 8, "dtype": "Float", "Process Group Name": "pg1", "Seq": 3}},
  {"ph": "X", "name": "seq0", "cat": "kernel", "pid": 0, "tid": 1, "ts": 30, "dur": 1, "args": {"stream": 1, "Seq": 0}},
  {"ph": "X", "name": "copy", "cat": "gpu_memcpy", "pid": 0, "tid": 1, "ts": 20, "dur": 1, "args": {"stream": 1, "bytes": 64}},
  {"ph": "X", "name": "ar", "cat": "kernel", "pid": 0, "tid": 1, "ts": 10, "dur": 1, "args": {"stream": 1, "Collective name": "allreduce", "In msg nelems": 5, "Group size": 0, "Seq": -7}}
]})";
  ImporterPtr imp = import_all_ways(text);
  TraceModel& m = imp->model();
  const GpuOpTable& g = m.gpu_ops;
  REQUIRE(g.size() == 5);
  // "Seq": -1 is the default: no side row for it, nor for the copy.
  CHECK(g.collectives.size() == 3);
  CHECK(side_rows_valid(g.collectives.op, g.size()));

  const CollectiveArgs ag = g.collective_args(op_named(m, "ag"));
  CHECK(m.strings.get(ag.collective) == "allgather");
  CHECK(ag.in_nelems == 7);
  CHECK(ag.out_nelems == 56);
  CHECK(ag.group_size == 8);
  CHECK(ag.seq == 3);
  CHECK(m.strings.get(ag.dtype) == "Float");
  CHECK(m.strings.get(ag.pg_name) == "pg1");

  const CollectiveArgs ar = g.collective_args(op_named(m, "ar"));
  CHECK(m.strings.get(ar.collective) == "allreduce");
  CHECK(ar.in_nelems == 5);
  CHECK(ar.out_nelems == -1);
  CHECK(ar.group_size == 0);
  CHECK(ar.seq == -7);
  CHECK(ar.dtype == 0);

  const CollectiveArgs seq0 = g.collective_args(op_named(m, "seq0"));
  CHECK(seq0.any());
  CHECK(seq0.seq == 0);
  CHECK(seq0.collective == 0);
  for (const char* name : {"plain", "copy"}) {
    CAPTURE(name);
    CHECK_FALSE(g.collective_args(op_named(m, name)).any());
  }
}

TEST_CASE("collective args: renumbered side rows are sorted again, their values with them") {
  CollectiveTable t;
  CollectiveArgs a;
  for (uint32_t row : {1u, 4u, 6u}) a.seq = 100 + row, t.push_back(row, a);
  // Old row -> new row: 1 -> 5, 4 -> 0, 6 -> 2.
  t.renumber({3, 5, 4, 1, 0, 6, 2});
  CHECK(t.op == std::vector<uint32_t>{0, 2, 5});
  CHECK(t.seq == std::vector<int64_t>{104, 106, 101});
  CHECK(find_side_row(t.op, 2) == 1);
  CHECK(find_side_row(t.op, 3) == t.size());
  CHECK(side_rows_valid(t.op, 6));
  CHECK_FALSE(side_rows_valid(t.op, 5));
  CHECK_FALSE(side_rows_valid({2, 2}, 5));
}

namespace {

// Ids of every kind a trace may hold: fitting the 32-bit codes (0, 2^32 - 3), equal to the two
// reserved codes (2^32 - 2, 2^32 - 1), wider, negative, int64's ends, none, on X events, on a B/E
// pair (the E may come in a later part: the ids are set on the row then) and on a B never closed.
// Written out of time order, so sorting moves every row; the launches link by the widest ids.
const char* const kIdTrace = R"({"traceEvents": [
  {"ph": "X", "name": "launch_max", "cat": "cuda_runtime", "pid": 1, "tid": 1, "ts": 30, "dur": 1, "args": {"correlation": 9223372036854775807, "External id": -5}},
  {"ph": "X", "name": "launch_fit", "cat": "cuda_runtime", "pid": 1, "tid": 1, "ts": 10, "dur": 1, "args": {"correlation": 4294967293, "External id": 0}},
  {"ph": "X", "name": "k_max", "cat": "kernel", "pid": 0, "tid": 7, "ts": 40, "dur": 2, "args": {"correlation": 9223372036854775807, "stream": 7}},
  {"ph": "X", "name": "k_fit", "cat": "kernel", "pid": 0, "tid": 7, "ts": 20, "dur": 2, "args": {"correlation": 4294967293, "stream": 7}},
  {"ph": "X", "name": "codes", "cat": "cpu_op", "pid": 1, "tid": 2, "ts": 5, "dur": 1, "args": {"correlation": 4294967294, "External id": 4294967295}},
  {"ph": "X", "name": "wide", "cat": "cpu_op", "pid": 1, "tid": 2, "ts": 3, "dur": 1, "args": {"correlation": 4294967296, "External id": -9223372036854775807}},
  {"ph": "X", "name": "minus_one", "cat": "cpu_op", "pid": 1, "tid": 2, "ts": 1, "dur": 1, "args": {"correlation": -1}},
  {"ph": "X", "name": "no_ids", "cat": "cpu_op", "pid": 1, "tid": 2, "ts": 0, "dur": 1},
  {"ph": "B", "name": "pair", "cat": "cpu_op", "pid": 1, "tid": 3, "ts": 2, "args": {"correlation": -2, "External id": 8589934592}},
  {"ph": "X", "name": "inside", "cat": "cpu_op", "pid": 1, "tid": 3, "ts": 3, "dur": 1, "args": {"External id": 1}},
  {"ph": "E", "pid": 1, "tid": 3, "ts": 9},
  {"ph": "B", "name": "unclosed", "cat": "cpu_op", "pid": 1, "tid": 4, "ts": 1, "args": {"External id": -3}},
  {"ph": "X", "name": "int64_min", "cat": "cpu_op", "pid": 1, "tid": 4, "ts": 2, "dur": 1, "args": {"correlation": -9223372036854775808}},
  {"ph": "X", "name": "same", "cat": "cpu_op", "pid": 1, "tid": 5, "ts": 9, "dur": 1, "args": {"correlation": 1073741821, "External id": 1073741821}},
  {"ph": "X", "name": "same_reserved", "cat": "cpu_op", "pid": 1, "tid": 5, "ts": 8, "dur": 1, "args": {"correlation": 1073741822, "External id": 1073741822}},
  {"ph": "X", "name": "differ_wide", "cat": "cpu_op", "pid": 1, "tid": 5, "ts": 7, "dur": 1, "args": {"correlation": 0, "External id": 4294967295}},
  {"ph": "X", "name": "differ_over", "cat": "cpu_op", "pid": 1, "tid": 5, "ts": 6, "dur": 1, "args": {"correlation": 12, "External id": 4294967296}},
  {"ph": "X", "name": "corr_only", "cat": "cpu_op", "pid": 1, "tid": 5, "ts": 5, "dur": 1, "args": {"correlation": 1073741821}},
  {"ph": "X", "name": "ext_reserved", "cat": "cpu_op", "pid": 1, "tid": 5, "ts": 4, "dur": 1, "args": {"External id": 1073741822}},
  {"ph": "B", "name": "pair_differ", "cat": "cpu_op", "pid": 1, "tid": 6, "ts": 2, "args": {"correlation": 5, "External id": 6}},
  {"ph": "X", "name": "inside_differ", "cat": "cpu_op", "pid": 1, "tid": 6, "ts": 3, "dur": 1, "args": {"correlation": 7, "External id": 0}},
  {"ph": "E", "pid": 1, "tid": 6, "ts": 9}
]})";

struct Ids {
  const char* name;
  int64_t correlation, external_id;
};
const Ids kIds[] = {
    {"launch_max", INT64_MAX, -5},
    {"launch_fit", 4294967293, 0},
    {"k_max", INT64_MAX, kNoId},
    {"k_fit", 4294967293, kNoId},
    {"codes", 4294967294, 4294967295},
    {"wide", 4294967296, -INT64_MAX},
    {"minus_one", -1, kNoId},
    {"no_ids", kNoId, kNoId},
    {"pair", -2, 8589934592},
    {"inside", kNoId, 1},
    {"unclosed", kNoId, -3},
    {"int64_min", kNoId, kNoId},  // INT64_MIN is kNoId: read as no id, as before
    {"same", 1073741821, 1073741821},
    {"same_reserved", 1073741822, 1073741822},
    {"differ_wide", 0, 4294967295},
    {"differ_over", 12, 4294967296},
    {"corr_only", 1073741821, kNoId},
    {"ext_reserved", kNoId, 1073741822},
    {"pair_differ", 5, 6},
    {"inside_differ", 7, 0},
};

void check_ids(TraceModel& m) {
  const SliceTable& s = m.slices;
  for (const Ids& want : kIds) {
    CAPTURE(want.name);
    const int slice = slice_named(m, want.name);
    REQUIRE(slice >= 0);
    CHECK(s.correlation_at(slice) == want.correlation);
    CHECK(s.external_id_at(slice) == want.external_id);
  }
  // Only the pairs that do not fit have an escaped side row, only those whose ids differ a second
  // id, and each side row is a row coded so.
  CHECK(s.ids.escaped_rows.size() == 12);
  CHECK(s.ids.second_rows.size() == 3);
  CHECK(s.ids.escapes_fit(s.ids, 0));
  auto linked = [&m](const char* launch, const char* gpu) {
    for (const LaunchLink& l : m.launches)
      if (name_of_slice(m, l.launch_slice) == launch && name_of_slice(m, l.gpu_slice) == gpu) return true;
    return false;
  };
  CHECK(m.launches.size() == 2);
  CHECK(linked("launch_max", "k_max"));
  CHECK(linked("launch_fit", "k_fit"));
}

}  // namespace

TEST_CASE("ids: any int64 and kNoId read back after sorting, whole and in parts") {
  check_side_tables_all_ways(kIdTrace, check_ids);
}

TEST_CASE("compact ints: set and renumber keep the side table to the rows coded kEscaped") {
  CompactIntColumn c;
  for (int64_t id : {int64_t(7), kNoId, int64_t(-1), int64_t(CompactIntColumn::kEscaped), int64_t(3)}) c.push_back(id);
  CHECK(c.codes ==
        std::vector<uint32_t>{7, CompactIntColumn::kAbsent, CompactIntColumn::kEscaped, CompactIntColumn::kEscaped, 3});
  CHECK(c.escaped_rows == std::vector<uint32_t>{2, 3});
  c.set(0, INT64_MIN + 1);  // fitting -> escaped, before the other side rows
  c.set(2, 5);              // escaped -> fitting
  c.set(3, -8);             // escaped -> escaped
  c.set(4, kNoId);
  CHECK(c.escaped_rows == std::vector<uint32_t>{0, 3});
  CHECK(c.escaped_ids == std::vector<int64_t>{INT64_MIN + 1, -8});
  CHECK(c.escapes_fit(c, 0));
  // Old row -> new row: the side rows follow the codes' permutation.
  const std::vector<uint32_t> new_index = {4, 2, 3, 1, 0};
  std::vector<uint32_t> order = {4, 3, 1, 2, 0};  // new row -> old row, the same permutation
  permute_columns(order, c.codes);
  c.renumber(new_index);
  const int64_t want[] = {kNoId, -8, kNoId, 5, INT64_MIN + 1};
  for (size_t row = 0; row < 5; ++row) CHECK(c.at(row) == want[row]);
  CHECK(c.escaped_rows == std::vector<uint32_t>{1, 4});
  CHECK(c.escapes_fit(c, 0));
  // A code kEscaped without its side row, or a side row on a row not coded kEscaped, does not fit.
  CompactIntColumn bad = c;
  bad.codes[2] = CompactIntColumn::kEscaped;
  CHECK_FALSE(bad.escapes_fit(bad, 0));
  bad = c;
  bad.escaped_rows[0] = 2;
  CHECK_FALSE(bad.escapes_fit(bad, 0));
  CHECK_FALSE(c.escapes_fit(CompactIntColumn{}, 2));  // row 4 is coded kEscaped, and no side row says so
  CHECK(c.escapes_fit(CompactIntColumn{}, 5));
}

TEST_CASE("side rows: many rows set at once merge into the side tables as sets one at a time would") {
  // set_rows (side_rows.h set_side_rows): random ascending rows, each escaping, fitting again or
  // kept, against a plain vector; both side tables of an id pair, the rows set and the rows between.
  std::mt19937_64 rng(5);
  const auto any_id = [&]() -> int64_t {
    switch (rng() % 5) {
      case 0: return kNoId;
      case 1: return int64_t(rng());                 // escapes
      case 2: return int64_t(rng() % (1ull << 33));  // fits an id pair's second only sometimes
      default: return int64_t(rng() % 1000);
    }
  };
  const size_t n = 3000;
  CompactIntColumn ints;
  IdPairColumn pairs;
  std::vector<int64_t> want_int(n), want_corr(n), want_ext(n);
  for (size_t i = 0; i < n; ++i) {
    want_int[i] = any_id(), want_corr[i] = any_id(), want_ext[i] = any_id();
    ints.push_back(want_int[i]), pairs.push_back(want_corr[i], want_ext[i]);
  }
  for (int round = 0; round < 6; ++round) {
    CAPTURE(round);
    std::vector<uint32_t> rows;
    std::vector<int64_t> ids, corrs, exts;
    for (uint32_t r = static_cast<uint32_t>(rng() % 50); r < n; r += 1 + static_cast<uint32_t>(rng() % (round + 2))) {
      rows.push_back(r), ids.push_back(any_id()), corrs.push_back(any_id()), exts.push_back(any_id());
      want_int[r] = ids.back(), want_corr[r] = corrs.back(), want_ext[r] = exts.back();
    }
    ints.set_rows(rows, ids);
    pairs.set_rows(rows, corrs, exts);
    CHECK(ints.escapes_fit(ints, 0));
    CHECK(pairs.escapes_fit(pairs, 0));
    size_t wrong = 0;
    for (size_t i = 0; i < n; ++i)
      wrong += ints.at(i) != want_int[i] || pairs.correlation_at(i) != want_corr[i] ||
               pairs.external_id_at(i) != want_ext[i];
    CHECK(wrong == 0);
  }
  CHECK(!ints.escaped_rows.empty());
  CHECK(!pairs.second_rows.empty());
  CHECK(!pairs.escaped_rows.empty());
}

TEST_CASE("id pairs: each shape reads back, and set and renumber keep both side tables to their rows") {
  using C = IdPairColumn;
  struct Pair {
    int64_t correlation, external_id;
  };
  // Rows 0-7: neither, External id only, both equal, correlation only, both differ (two rows: the
  // side table holds 8 bytes of them), an id at the reserved code, a negative one.
  const std::vector<Pair> pairs = {
      {kNoId, kNoId}, {kNoId, 9}, {4, 4}, {C::kAbsentId - 1, kNoId}, {3, 70}, {2, 0}, {kNoId, C::kAbsentId}, {-1, 2}};
  C c;
  for (const Pair& p : pairs) c.push_back(p.correlation, p.external_id);
  for (size_t row = 0; row < pairs.size(); ++row) {
    CAPTURE(row);
    CHECK(c.correlation_at(row) == pairs[row].correlation);
    CHECK(c.external_id_at(row) == pairs[row].external_id);
  }
  CHECK((c.codes[2] >> C::kShapeShift) == C::kSame);
  CHECK((c.codes[3] >> C::kShapeShift) == C::kCorrelation);
  CHECK(c.second_rows == std::vector<uint32_t>{4, 5});
  CHECK(c.escaped_rows == std::vector<uint32_t>{6, 7});
  CHECK(c.escapes_fit(c, 0));

  std::vector<Pair> want = pairs;
  auto set = [&](size_t row, Pair p) { c.set(row, p.correlation, p.external_id), want[row] = p; };
  set(0, {8, 1});                 // none -> differ, before the other side rows
  set(4, {3, kNoId});             // differ -> correlation only
  set(6, {5, 6});                 // escaped -> differ
  set(1, {kNoId, INT64_MAX});     // -> escaped
  set(7, {1, int64_t(1) << 32});  // escaped -> escaped (an External id wider than the side table's)
  CHECK(c.second_rows == std::vector<uint32_t>{0, 5, 6});
  CHECK(c.second_ids == std::vector<uint32_t>{1, 0, 6});
  CHECK(c.escaped_rows == std::vector<uint32_t>{1, 7});
  CHECK(c.escapes_fit(c, 0));

  // Old row -> new row, moving the kDiffer rows out of order: their ids go by rank, not by sort.
  const std::vector<uint32_t> new_index = {7, 0, 1, 2, 3, 4, 5, 6};
  std::vector<uint32_t> order = {1, 2, 3, 4, 5, 6, 7, 0};  // new row -> old row, the same permutation
  permute_columns(order, c.codes);
  c.renumber(new_index);
  for (size_t old = 0; old < pairs.size(); ++old) {
    CAPTURE(old);
    CHECK(c.correlation_at(new_index[old]) == want[old].correlation);
    CHECK(c.external_id_at(new_index[old]) == want[old].external_id);
  }
  CHECK(c.second_rows == std::vector<uint32_t>{4, 5, 7});
  CHECK(c.escaped_rows == std::vector<uint32_t>{0, 6});
  CHECK(c.escapes_fit(c, 0));

  // More rows than one 64-row block of the rank count, permuted by reversal.
  C big;
  for (int64_t i = 0; i < 200; ++i) big.push_back(i, i % 3 ? i + 1 : i);
  std::vector<uint32_t> reverse(200), rev_order(200);
  for (uint32_t i = 0; i < 200; ++i) reverse[i] = 199 - i, rev_order[i] = 199 - i;
  permute_columns(rev_order, big.codes);
  big.renumber(reverse);
  for (int64_t i = 0; i < 200; ++i) {
    CAPTURE(i);
    CHECK(big.correlation_at(199 - i) == i);
    CHECK(big.external_id_at(199 - i) == (i % 3 ? i + 1 : i));
  }
  CHECK(big.escapes_fit(big, 0));

  // A random permutation of 5,000 rows, each of four shapes (both equal, both differ, External id
  // only, escaped): each kDiffer id goes to its row's rank, whichever of its 64-row block's bits
  // the row is.
  C mixed;
  std::vector<Pair> mixed_pairs;
  std::mt19937_64 rng(11);
  for (int64_t i = 0; i < 5000; ++i) {
    const int shape = int(rng() % 4);
    const Pair p = shape == 0   ? Pair{i, i}
                   : shape == 1 ? Pair{i, i + 7}
                   : shape == 2 ? Pair{kNoId, i}
                                : Pair{-i - 1, i};
    mixed.push_back(p.correlation, p.external_id), mixed_pairs.push_back(p);
  }
  std::vector<uint32_t> shuffled_order(5000), shuffled_index(5000);  // new row -> old row, and back
  std::iota(shuffled_order.begin(), shuffled_order.end(), 0u);
  std::shuffle(shuffled_order.begin(), shuffled_order.end(), rng);
  for (uint32_t i = 0; i < 5000; ++i) shuffled_index[shuffled_order[i]] = i;
  permute_columns(shuffled_order, mixed.codes);
  mixed.renumber(shuffled_index);
  size_t wrong = 0;
  for (uint32_t old = 0; old < 5000; ++old)
    wrong += mixed.correlation_at(shuffled_index[old]) != mixed_pairs[old].correlation ||
             mixed.external_id_at(shuffled_index[old]) != mixed_pairs[old].external_id;
  CHECK(wrong == 0);
  CHECK(mixed.second_rows.size() > 1000);
  CHECK(mixed.escapes_fit(mixed, 0));

  // A kDiffer code without its side row, or a side row on another code, does not fit.
  C bad = c;
  bad.codes[2] = C::kDiffer << C::kShapeShift | 1;
  CHECK_FALSE(bad.escapes_fit(bad, 0));
  bad = c;
  bad.second_rows[0] = 3;
  CHECK_FALSE(bad.escapes_fit(bad, 0));
  bad = c;
  bad.second_ids.pop_back();
  CHECK_FALSE(bad.escapes_fit(bad, 0));
  CHECK_FALSE(c.escapes_fit(C{}, 7));  // row 7 is coded kDiffer, and no side row says so
  CHECK(c.escapes_fit(C{}, 8));
}

namespace {

// Durations of every kind: within the 4-byte codes (up to 2^32 - 3 ns), equal to the reserved
// codes (2^32 - 2 and 2^32 - 1 ns), longer (a 5 s step, a day), on X events, on a B/E pair (the E
// may come in a later part: the duration is set on the row then) and on a B never closed, which
// finish() closes at the end of the trace (the day's end).
const char* const kDurTrace = R"({"traceEvents": [
  {"ph": "X", "name": "step", "cat": "user_annotation", "pid": 1, "tid": 1, "ts": 100, "dur": 5000000},
  {"ph": "X", "name": "fits", "cat": "cpu_op", "pid": 1, "tid": 1, "ts": 150, "dur": 4294967.293},
  {"ph": "X", "name": "code_absent", "cat": "cpu_op", "pid": 1, "tid": 2, "ts": 40, "dur": 4294967.294},
  {"ph": "X", "name": "code_escaped", "cat": "cpu_op", "pid": 1, "tid": 2, "ts": 30, "dur": 4294967.295},
  {"ph": "X", "name": "day", "cat": "cpu_op", "pid": 1, "tid": 3, "ts": 0, "dur": 86400000000},
  {"ph": "X", "name": "zero", "cat": "cpu_op", "pid": 1, "tid": 3, "ts": 20, "dur": 0},
  {"ph": "B", "name": "pair", "cat": "cpu_op", "pid": 1, "tid": 4, "ts": 10},
  {"ph": "X", "name": "inside", "cat": "cpu_op", "pid": 1, "tid": 4, "ts": 11, "dur": 1},
  {"ph": "E", "pid": 1, "tid": 4, "ts": 6000010},
  {"ph": "B", "name": "unclosed", "cat": "cpu_op", "pid": 1, "tid": 5, "ts": 0},
  {"ph": "X", "name": "last", "cat": "cpu_op", "pid": 1, "tid": 5, "ts": 3600000000, "dur": 1}
]})";

struct Dur {
  const char* name;
  int64_t dur_ns;
};
const Dur kDurs[] = {
    {"step", 5'000'000'000},          {"fits", 4294967293}, {"code_absent", 4294967294}, {"code_escaped", 4294967295},
    {"day", 86'400'000'000'000},      {"zero", 0},          {"pair", 6'000'000'000},     {"inside", 1000},
    {"unclosed", 86'400'000'000'000}, {"last", 1000},
};

void check_durs(TraceModel& m) {
  const SliceTable& s = m.slices;
  for (const Dur& want : kDurs) {
    CAPTURE(want.name);
    const int slice = slice_named(m, want.name);
    REQUIRE(slice >= 0);
    CHECK(s.dur_at(slice) == want.dur_ns);
    CHECK(s.end_ns(slice) == s.ts_ns[slice] + want.dur_ns);
  }
  // Only the durations that do not fit have a side row.
  CHECK(s.dur.escaped_rows.size() == 6);
  CHECK(s.dur.escapes_fit(s.dur, 0));
  // The long step still holds what it encloses: nesting reads the durations back.
  CHECK(s.parent[slice_named(m, "fits")] == static_cast<uint32_t>(slice_named(m, "step")));
}

}  // namespace

TEST_CASE("durations: 4 bytes a row, any length read back after sorting, whole and in parts") {
  check_side_tables_all_ways(kDurTrace, check_durs);
}

TEST_CASE("sources: offset and length in 6 bytes; a 4 KiB event and any offset kept exactly") {
  SourceColumn c;
  const uint64_t lim = SourceColumn::kOffsetLimit;  // just under 64 GiB: the first offset that does not fit
  const uint32_t len = SourceColumn::kLengthLimit;  // 4 KiB: the first length that does not fit
  c.push_back(0, 0);
  c.push_back(lim - 1, len - 1);  // the largest that fit
  c.push_back(lim, 10);           // offset too large
  c.push_back(5, len);            // length too large
  c.push_back(7, UINT32_MAX);
  c.push_back(uint64_t(10) << 30 | 12345, 777);  // past 4 GiB, fitting
  CHECK(c.escaped_rows == std::vector<uint32_t>{2, 3, 4});
  CHECK(c.hi[1] != SourceColumn::kEscapedHi);  // no fitting row reads as escaped
  const uint64_t offsets[] = {0, lim - 1, lim, 5, 7, uint64_t(10) << 30 | 12345};
  const uint32_t lengths[] = {0, len - 1, 10, len, UINT32_MAX, 777};
  for (size_t row = 0; row < 6; ++row) {
    CHECK(c.offset_at(row) == offsets[row]);
    CHECK(c.length_at(row) == lengths[row]);
  }
  c.set(0, UINT64_MAX, 1);  // fitting -> escaped, before the other side rows
  c.set(2, 3, 4);           // escaped -> fitting
  c.set(3, 9, 1u << 30);    // escaped -> escaped
  c.set(5, 11, len - 2);    // fitting -> fitting
  CHECK(c.escaped_rows == std::vector<uint32_t>{0, 3, 4});
  CHECK(c.escapes_fit(c, 0));
  const std::vector<uint32_t> new_index = {4, 2, 3, 1, 0, 5};
  std::vector<uint32_t> order = {4, 3, 1, 2, 0, 5};
  permute_columns(order, c.lo, c.hi);
  c.renumber(new_index);
  CHECK(c.escaped_rows == std::vector<uint32_t>{0, 1, 4});
  CHECK(c.offset_at(4) == UINT64_MAX);
  CHECK(c.length_at(1) == 1u << 30);
  CHECK(c.offset_at(2) == lim - 1);
  CHECK(c.length_at(2) == len - 1);
  CHECK(c.offset_at(0) == 7);
  CHECK(c.length_at(0) == UINT32_MAX);
  CHECK(c.length_at(3) == 4);
  CHECK(c.offset_at(5) == 11);
  CHECK(c.length_at(5) == len - 2);
  SourceColumn bad = c;
  bad.hi[2] = SourceColumn::kEscapedHi;
  CHECK_FALSE(bad.escapes_fit(bad, 0));
  bad = c;
  bad.escaped_lengths.pop_back();
  CHECK_FALSE(c.escapes_fit(bad, 0));

  // Through the importer: an event of 16 MiB + 100 bytes (a long Python stack in its args), whole
  // and with a cut after it, its bytes found again from the model.
  std::string text =
      R"({"traceEvents": [{"ph": "X", "name": "a", "cat": "cpu_op", "pid": 1, "tid": 1, "ts": 2, "dur": 1},
  {"ph": "X", "name": "big", "cat": "cpu_op", "pid": 1, "tid": 1, "ts": 1, "dur": 9, "args": {"stack": ")";
  text += std::string((16u << 20) + 100, 'x') + R"("}},
  {"ph": "X", "name": "b", "cat": "cpu_op", "pid": 1, "tid": 1, "ts": 3, "dur": 1}]})";
  auto check_big = [&text](TraceModel& m) {
    const int big = slice_named(m, "big");
    REQUIRE(big >= 0);
    CHECK(m.slices.src_length_at(big) > 16u << 20);
    CHECK(m.slices.src.escaped_rows == std::vector<uint32_t>{static_cast<uint32_t>(big)});
    const std::string_view src =
        std::string_view(text).substr(m.slices.src_offset_at(big), m.slices.src_length_at(big));
    CHECK(src.substr(0, 30) == R"({"ph": "X", "name": "big", "ca)");
    CHECK(src.back() == '}');
    const int b = slice_named(m, "b");
    CHECK(std::string_view(text).substr(m.slices.src_offset_at(b), 14) == R"({"ph": "X", "n)");
  };
  ImporterPtr whole = import_whole(text);
  check_big(whole->model());
  const std::vector<uint64_t> starts = element_starts(text);
  REQUIRE(starts.size() == 3);
  for (int k = 0; k < 4; ++k) {  // the big event in the first part or in the later one; absorbed through bytes or not
    PartsImport r = import_in_parts(text, {starts[1 + k / 2]}, 1, size_t(1) << 20, k % 2 == 1);
    CHECK(r.absorbed == 1);
    check_big(r.importer->model());
    CHECK(fingerprint(*r.importer) == fingerprint(*whole));
  }
}
