// The slices' dictionary-coded columns (dict_column.h): the category in one byte a row for the first
// 255 distinct ones, the name and the import's track in two for the first 65535; any further one
// kept exactly in a side table, through sorting, B/E pairs closed in a later part, and a part's
// transfer, whose columns are checked before they are read.
#include <doctest/doctest.h>

#include <string>

#include "core/model/dict_column.h"
#include "core/model/permute.h"
#include "tests/core/import_parts_check.h"
#include "tests/core/import_test_util.h"

using namespace tw;
using namespace tw::test;

namespace {

constexpr int kDistinct = 270;  // more categories than one byte codes

// kDistinct events with a category each, written backwards in time on three threads (sorting moves
// every row), with Kineto's common category between them, a B/E pair whose E comes last (closed in
// a later part at most cuts: its category is set on the row then), a B never closed and an event
// without a category.
std::string category_trace() {
  std::string t = R"({"traceEvents": [
  {"ph": "B", "name": "pair", "cat": "c_pair", "pid": 1, "tid": 9, "ts": 0},
  {"ph": "X", "name": "nocat", "pid": 1, "tid": 8, "ts": 1, "dur": 1})";
  for (int k = 0; k < kDistinct; ++k) {
    const std::string ts = std::to_string(1000 - k);
    t += ",\n  {\"ph\": \"X\", \"name\": \"e" + std::to_string(k) + "\", \"cat\": \"c" + std::to_string(k) +
         "\", \"pid\": 1, \"tid\": " + std::to_string(k % 3) + ", \"ts\": " + ts + ", \"dur\": 1}";
    if (k % 40 == 0)
      t += ",\n  {\"ph\": \"X\", \"name\": \"op" + std::to_string(k) +
           R"(", "cat": "cpu_op", "pid": 1, "tid": 7, "ts": )" + ts + ", \"dur\": 1}";
  }
  t += R"(,
  {"ph": "B", "name": "unclosed", "cat": "c_unclosed", "pid": 1, "tid": 6, "ts": 5},
  {"ph": "E", "pid": 1, "tid": 9, "ts": 2000}
]})";
  return t;
}

std::string cat_of(TraceModel& m, const char* name) {
  const int slice = slice_named(m, name);
  REQUIRE(slice >= 0);
  return std::string(m.strings.get(m.slices.cat.at(slice)));
}

void check_categories(TraceModel& m) {
  const CategoryColumn& c = m.slices.cat;
  for (int k = 0; k < kDistinct; ++k) {
    const std::string name = "e" + std::to_string(k);
    CAPTURE(name);
    CHECK(cat_of(m, name.c_str()) == "c" + std::to_string(k));
  }
  for (int k = 0; k < kDistinct; k += 40) CHECK(cat_of(m, ("op" + std::to_string(k)).c_str()) == "cpu_op");
  CHECK(cat_of(m, "pair") == "c_pair");
  CHECK(cat_of(m, "unclosed") == "c_unclosed");
  CHECK(cat_of(m, "nocat").empty());
  // The dictionary is full and only the rows beyond it are escaped, each a row coded kEscaped.
  CHECK(c.values.size() == CategoryColumn::kEscaped);
  CHECK(c.escaped_rows.size() >= kDistinct + 4 - 255 - 1);  // (a part's row for an E may hold a slot)
  CHECK(c.escaped_rows.size() <= kDistinct + 4 - 255);
  CHECK(c.part_fits(c, 0, m.strings.size()));
}

}  // namespace

TEST_CASE("categories: one byte a row, any number of them read back after sorting, whole and in parts") {
  const std::string text = category_trace();
  ImporterPtr whole = import_all_ways(text);
  check_categories(whole->model());
  CHECK(whole->model().slices.cat.codes.size() == whole->model().slices.size());
  const std::string expected = fingerprint(*whole);
  const std::vector<uint64_t> starts = element_starts(text);
  size_t absorbed = 0;
  for (size_t a = 1; a < starts.size(); ++a) {
    CAPTURE(starts[a]);
    PartsImport r = import_in_parts(text, {starts[a]}, static_cast<uint32_t>(a), 64, a % 2 == 1);
    absorbed += r.absorbed;
    check_categories(r.importer->model());
    CHECK(fingerprint(*r.importer) == expected);
  }
  for (size_t a = 1; a + 100 < starts.size(); a += 37) {  // three parts: the dictionary fills in the second
    PartsImport r = import_in_parts(text, {starts[a], starts[a + 100]}, static_cast<uint32_t>(a), 1 << 20, a % 2);
    absorbed += r.absorbed;
    check_categories(r.importer->model());
    CHECK(fingerprint(*r.importer) == expected);
  }
  CHECK(absorbed > starts.size() / 2);
}

TEST_CASE("categories: set, renumber and a part's recoding keep the side table to the rows coded kEscaped") {
  CategoryColumn c;
  for (StringId id = 100; id < 100 + 255; ++id) c.push_back(id);  // fills the dictionary
  c.push_back(7);                                                 // row 255: no room
  c.push_back(100);                                               // row 256: found
  CHECK(c.values.size() == 255);
  CHECK(c.codes[255] == CategoryColumn::kEscaped);
  CHECK(c.codes[256] == 0);
  CHECK(c.escaped_rows == std::vector<uint32_t>{255});
  c.set(3, 8);    // fitting -> escaped, before the other side row
  c.set(255, 5);  // escaped -> escaped
  c.set(256, 9);  // fitting -> escaped
  CHECK(c.escaped_rows == std::vector<uint32_t>{3, 255, 256});
  CHECK(c.escaped_ids == std::vector<StringId>{8, 5, 9});
  c.set(3, 101);  // escaped -> fitting
  CHECK(c.escaped_rows == std::vector<uint32_t>{255, 256});
  CHECK(c.at(3) == 101);
  CHECK(c.part_fits(c, 0, 400));
  CHECK_FALSE(c.part_fits(c, 0, 300));  // an id beyond the strings

  // Old row -> new row: reversed; the side rows follow the codes' permutation.
  const size_t n = c.size();
  std::vector<uint32_t> new_index(n), order(n);
  for (uint32_t i = 0; i < n; ++i) new_index[i] = static_cast<uint32_t>(n - 1 - i), order[i] = new_index[i];
  std::vector<StringId> before(n);
  for (size_t i = 0; i < n; ++i) before[i] = c.at(i);
  permute_columns(order, c.codes);
  c.renumber(new_index);
  for (size_t i = 0; i < n; ++i) CHECK(c.at(new_index[i]) == before[i]);
  CHECK(c.part_fits(c, 0, 400));

  // A damaged part: a code past its dictionary, a kEscaped without its side row, a dictionary too long.
  CategoryColumn bad = c;
  bad.codes[0] = static_cast<uint8_t>(bad.values.size());
  bad.values.pop_back();
  CHECK_FALSE(c.part_fits(bad, 0, 400));
  bad = c;
  bad.codes[5] = CategoryColumn::kEscaped;
  CHECK_FALSE(bad.part_fits(bad, 0, 400));
  bad = c;
  bad.values.push_back(1);
  CHECK_FALSE(c.part_fits(bad, 0, 400));

  // A part's rows recoded into a column whose dictionary fills on the way: row 1 of the part is
  // dropped (an E no B was open for), its escaped row is recoded, ids renamed (+1000).
  CategoryColumn part;
  for (StringId id : {1u, 2u, 1u, 3u}) part.push_back(id);
  part.escaped_rows = {2}, part.escaped_ids = {4};
  part.codes[2] = CategoryColumn::kEscaped;  // as if its dictionary had been full then
  CategoryColumn here;
  for (StringId id = 0; id < 254; ++id) here.push_back(id);  // room for one more
  const size_t first = here.size();
  here.codes.insert(here.codes.end(), {part.codes[0], part.codes[2], part.codes[3]});  // the dropped row moved out
  const uint32_t f = static_cast<uint32_t>(first);
  const std::vector<uint32_t> row_of = {f, UINT32_MAX, f + 1, f + 2};
  here.recode_part(
      part, row_of.size(), [&](uint32_t i) { return row_of[i]; }, [](StringId id) { return id + 1000; });
  CHECK(here.at(first) == 1001);      // took the last slot
  CHECK(here.at(first + 1) == 1004);  // escaped in the part, no room here
  CHECK(here.at(first + 2) == 1003);  // no room here
  CHECK(here.escaped_rows == std::vector<uint32_t>{f + 1, f + 2});
  CHECK(here.part_fits(here, 0, 2000));
}

namespace {

constexpr int kWide = IdColumn::kEscaped + 40;  // more names and tracks than two bytes code

// kWide events, each with its own name on its own thread, written backwards in time, between a B
// that opens first and its E that comes last: whole, the E's row is added once the dictionary is
// full; in parts, the row is a placeholder named when the E's part is absorbed.
std::string wide_trace() {
  std::string t = R"({"traceEvents": [
  {"ph": "B", "name": "pair", "pid": 1, "tid": 99999999, "ts": 0})";
  for (int k = 0; k < kWide; ++k)
    t += ",\n{\"ph\":\"X\",\"name\":\"n" + std::to_string(k) + "\",\"pid\":1,\"tid\":" + std::to_string(k) +
         ",\"ts\":" + std::to_string(1000000 - k) + ",\"dur\":1}";
  t += R"(,
  {"ph": "E", "pid": 1, "tid": 99999999, "ts": 2000000}
]})";
  return t;
}

void check_wide(TraceModel& m) {
  const SliceTable& s = m.slices;
  REQUIRE(s.size() == size_t(kWide) + 1);
  size_t named = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const std::string name(m.strings.get(s.name.at(i)));
    const int64_t tid = m.tracks[s.track_at(i)].tid;
    if (name == "pair") {
      CHECK(tid == 99999999);
      CHECK(s.dur_at(i) == 2000000000);
      continue;
    }
    REQUIRE(name.size() > 1);
    CHECK(name == "n" + std::to_string(tid));
    ++named;
  }
  CHECK(named == size_t(kWide));
  CHECK(s.name.values.size() == IdColumn::kEscaped);
  CHECK(s.name.escaped_rows.size() >= size_t(kWide) + 1 - IdColumn::kEscaped);
  CHECK(s.name.part_fits(s.name, 0, m.strings.size()));
}

}  // namespace

TEST_CASE("names and tracks: two bytes a row, more than 65535 of them read back whole and in parts") {
  const std::string text = wide_trace();
  ImporterPtr whole = import_whole(text);
  check_wide(whole->model());
  const std::string expected = fingerprint(*whole);
  const std::vector<uint64_t> starts = element_starts(text);
  // Cuts before the dictionaries fill, where they fill, after, and just before the E.
  for (size_t a : {size_t(100), size_t(IdColumn::kEscaped) - 3, size_t(IdColumn::kEscaped) + 20, starts.size() - 1}) {
    CAPTURE(a);
    PartsImport r = import_in_parts(text, {starts[a]}, static_cast<uint32_t>(a), size_t(1) << 20, a % 2 == 1);
    CHECK(r.absorbed == 1);
    check_wide(r.importer->model());
    CHECK(fingerprint(*r.importer) == expected);
  }
}

TEST_CASE("IdColumn: the first 65535 ids in two bytes, the rest escaped, a part recoded and checked") {
  IdColumn c;
  for (uint32_t id = 0; id < IdColumn::kEscaped; ++id) c.push_back(id * 3);  // fills the dictionary
  c.push_back(1);                                                            // no room
  c.push_back(3000);                                                         // found
  CHECK(c.values.size() == IdColumn::kEscaped);
  CHECK(c.codes[IdColumn::kEscaped] == IdColumn::kEscaped);
  CHECK(c.codes[IdColumn::kEscaped + 1] == 1000);
  CHECK(c.escaped_rows == std::vector<uint32_t>{IdColumn::kEscaped});
  CHECK(c.at(IdColumn::kEscaped) == 1);
  CHECK(c.at(7) == 21);
  c.set(7, 5);  // fitting -> escaped
  CHECK(c.at(7) == 5);
  CHECK(c.escaped_rows == std::vector<uint32_t>{7, IdColumn::kEscaped});
  CHECK(c.part_fits(c, 0, 3 * IdColumn::kEscaped));
  CHECK_FALSE(c.part_fits(c, 0, 3 * IdColumn::kEscaped - 3));  // an id beyond the limit

  // A copy (as a part read from its bytes holds) finds its codes without its lookup index.
  IdColumn copy;
  copy.values = c.values;
  copy.push_back(21);
  copy.push_back(2);
  CHECK(copy.codes[0] == 7);
  CHECK(copy.codes[1] == IdColumn::kEscaped);

  // Part rows recoded: its dictionary's ids renamed into this column's.
  IdColumn part, here;
  for (uint32_t id : {10u, 11u, 10u}) part.push_back(id);
  here.push_back(500);
  here.codes.insert(here.codes.end(), part.codes.begin(), part.codes.end());
  here.recode_part(
      part, 3, [](uint32_t i) { return i + 1; }, [](uint32_t id) { return id + 490; });
  CHECK(here.at(0) == 500);
  CHECK(here.at(1) == 500);
  CHECK(here.at(2) == 501);
  CHECK(here.at(3) == 500);
  CHECK(here.values.size() == 2);
  // The part's codes as they came, checked against its dictionary: one past its two ids is refused.
  IdColumn received;
  received.push_back(500);
  received.codes.insert(received.codes.end(), part.codes.begin(), part.codes.end());
  CHECK(received.part_fits(part, 1, 1000));
  received.codes[2] = 2;
  CHECK_FALSE(received.part_fits(part, 1, 1000));
  CHECK(here.part_fits(here, 0, 1000));
}
