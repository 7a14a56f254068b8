// finish() sets each slice's parent with its depth. Checked against the definition written from
// the depths alone: the parent of a slice at depth d > 0 is the last slice before it on its track
// at depth d - 1 (a row is only reused once the slice on it has closed), and that slice starts no
// later and is still open when the child starts. Slices at depth 0 have none.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "tests/core/detail_test_util.h"

using namespace tw;

namespace {

// Returns the number of slices with a parent; fails a check per wrong slice (the first one named).
size_t check_parents(const TraceModel& m) {
  const SliceTable& s = m.slices;
  REQUIRE(s.parent.size() == s.size());
  size_t with_parent = 0, wrong = 0;
  for (size_t t = 0; t < m.tracks.size(); ++t) {
    std::vector<uint32_t> last_at_depth;  // the last slice seen on this track at each depth
    const auto [begin, end] = s.rows_of(t);
    for (uint32_t i = begin; i < end; ++i) {
      const uint16_t d = s.depth[i];
      const uint32_t expected = d == 0 || d > last_at_depth.size() ? kNoParent : last_at_depth[d - 1];
      bool ok = s.parent[i] == expected;
      if (expected != kNoParent) {
        ok = ok && s.ts_ns[expected] <= s.ts_ns[i] && s.ts_ns[i] < s.end_ns(expected);
        ++with_parent;
      }
      if (!ok && wrong++ == 0)
        FAIL_CHECK("slice " << i << " depth " << d << " parent " << s.parent[i] << " expected " << expected);
      if (last_at_depth.size() <= d) last_at_depth.resize(d + 1u, kNoParent);
      last_at_depth[d] = i;
    }
  }
  CHECK(wrong == 0);
  return with_parent;
}

}  // namespace

TEST_CASE("finish sets every slice's parent: the last slice one row below on its track") {
  for (const char* rel : {"kineto/tb_plugin/samples/resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz",
                          "hta/tests/data/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz",
                          "speedscope/sample/profiles/trace-event/zero-duration-events.json"}) {
    CAPTURE(rel);
    CHECK(check_parents(detail_test::data_trace(rel)) > 0);
  }
}

TEST_CASE("parents with overlapping, equal and zero-length slices") {
  // a/b overlap without nesting (b is flagged and sits on the row above a: a is its parent);
  // c/d are equal twins (d nests in c); z is zero-length; q starts with p and nests in it.
  auto imp = detail_test::import_text(R"({"traceEvents":[
    {"ph":"X","name":"a","pid":1,"tid":1,"ts":0,"dur":10},
    {"ph":"X","name":"b","pid":1,"tid":1,"ts":5,"dur":10},
    {"ph":"X","name":"c","pid":1,"tid":1,"ts":20,"dur":4},
    {"ph":"X","name":"d","pid":1,"tid":1,"ts":20,"dur":4},
    {"ph":"X","name":"z","pid":1,"tid":1,"ts":22,"dur":0},
    {"ph":"X","name":"q","pid":1,"tid":2,"ts":0,"dur":50},
    {"ph":"X","name":"p","pid":1,"tid":2,"ts":0,"dur":100},
    {"ph":"X","name":"r","pid":1,"tid":2,"ts":50,"dur":25}]})");
  const TraceModel& m = imp->model();
  REQUIRE(m.slices.size() == 8);
  CHECK(check_parents(m) == 5);  // b in a, d in c, z in d; q in p, r in p
  auto named = [&m](const char* n) {
    for (uint32_t i = 0; i < m.slices.size(); ++i)
      if (m.strings.get(m.slices.name.at(i)) == n) return i;
    return kNoParent;
  };
  CHECK(m.slices.parent[named("b")] == named("a"));
  CHECK(m.slices.parent[named("z")] == named("d"));
  CHECK(m.slices.parent[named("r")] == named("p"));
  CHECK(m.slices.parent[named("a")] == kNoParent);
}
