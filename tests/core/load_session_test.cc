// The facades the wasm bindings list (core/load_session.h, core/timeline_session.h), driven natively
// the way the page's workers drive them: a file in two parts moved between sessions through their
// buffers gives the one-piece summary; a refused part changes nothing; the timeline answers before
// and after a trace is there, and its search state follows the queries.
#include <doctest/doctest.h>

#include <cstring>
#include <nlohmann/json.hpp>
#include <string>

#include "core/import/import_parts.h"
#include "core/load_session.h"
#include "core/timeline/window_columns.h"
#include "tests/core/test_data.h"

using namespace tw;

namespace {

const char* kTrace = "hta/tests/data/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz";

void push_all(LoadSession& s, std::string_view text) {
  for (size_t pos = 0; pos < text.size(); pos += 65536) {
    const size_t n = std::min<size_t>(65536, text.size() - pos);
    std::memcpy(s.input_buffer(n), text.data() + pos, n);
    s.push_input(n);
  }
}

std::string summary_of(LoadSession& s) {
  s.session().set_file_bytes(123);
  return s.session().summary_json({});
}

std::string one_piece(std::string_view text) {
  LoadSession s("t");
  push_all(s, text);
  s.finish();
  return summary_of(s);
}

// Moves `part`'s header and columns into `into` as the trace worker does (`cut_header`: only the
// header's first half arrives); false when refused.
bool absorb(LoadSession& into, LoadSession& part, bool cut_header = false) {
  std::span<const uint8_t> header = part.part_header();
  std::vector<std::vector<uint8_t>> columns;
  for (auto [p, n] : part.part_columns())
    columns.emplace_back(static_cast<const uint8_t*>(p), static_cast<const uint8_t*>(p) + n);
  uint8_t* at = into.part_buffer(header.size());
  std::memcpy(at, header.data(), header.size());
  std::vector<size_t> sizes = into.load_part(cut_header ? header.size() / 2 : header.size());
  if (sizes.size() != columns.size()) {
    if (!sizes.empty()) into.drop_part();
    return false;
  }
  for (size_t i = 0; i < sizes.size(); ++i) {
    REQUIRE(sizes[i] == columns[i].size());
    if (sizes[i]) std::memcpy(into.part_column_address(i), columns[i].data(), sizes[i]);
  }
  CHECK(into.part_column_address(sizes.size()) == nullptr);
  return into.absorb_part();
}

}  // namespace

TEST_CASE("load session: a file in two parts, moved through the part buffers, gives the one-piece summary") {
  const std::string text = test::read_data(kTrace);
  REQUIRE(!text.empty());
  const uint64_t cut = likely_event_start(std::string_view(text).substr(text.size() / 2, 65536), text.size() / 2);
  REQUIRE(cut > 0);
  const bool object_form = starts_as_object(std::string_view(text).substr(0, 64));
  for (bool spoil : {false, true}) {  // a spoiled part is refused, and its bytes pushed instead
    CAPTURE(spoil);
    LoadSession first("t"), later("part");
    push_all(first, std::string_view(text).substr(0, cut));
    later.session().importer().begin_later_part(cut, object_form);
    push_all(later, std::string_view(text).substr(cut));
    later.session().importer().end_input();
    const bool absorbed = absorb(first, later, spoil);
    CHECK(absorbed == !spoil);
    if (!absorbed) push_all(first, std::string_view(text).substr(cut));  // refused: the bytes instead
    first.finish();
    CHECK(summary_of(first) == one_piece(text));
  }
}

TEST_CASE("timeline session: refuses before a trace is there, then answers; the search follows the queries") {
  const std::string text = test::read_data(kTrace);
  LoadSession s("t");
  CHECK(s.timeline().tracks_json() == R"({"error":"no trace"})");
  CHECK(s.timeline().window({0}, 0, 1e9, 100, false) == nullptr);
  push_all(s, text);
  s.finish();
  const nlohmann::json tracks = nlohmann::json::parse(s.timeline().tracks_json());
  REQUIRE(tracks.contains("tracks"));
  std::vector<uint32_t> lanes;
  for (size_t i = 0; i < tracks["tracks"].size(); ++i) lanes.push_back(static_cast<uint32_t>(i));

  const nlohmann::json found = nlohmann::json::parse(s.timeline().search_json("cudaLaunchKernel", false, true));
  REQUIRE(found.value("count", 0) > 0);
  const WindowResult* w = s.timeline().window(lanes, 0, 1e15, 800, true);
  REQUIRE(w != nullptr);
  CHECK(w->match_id.size() > 0);
  int columns = 0;
  for_each_window_column(*w, [&columns](const char*, const auto&) { ++columns; });
  CHECK(columns == kWindowColumnCount);
  const nlohmann::json next = nlohmann::json::parse(s.timeline().search_step_json(0, -1, 1));
  CHECK(next["index"] == 0);
  CHECK(next["event"].contains("name"));

  const nlohmann::json refused = nlohmann::json::parse(s.timeline().search_json("(?=x)", true, true));
  CHECK(refused.contains("error"));
  CHECK(s.timeline().window(lanes, 0, 1e15, 800, true)->match_id.empty());  // the search was cleared
  CHECK(s.timeline().event_json(-1) == R"({"error":"no such event"})");
  CHECK(s.timeline().string_at(1e12).empty());
  const char* ev = R"({"ph":"X","name":"k","args":{"grid":[1,2,3]}})";
  std::memcpy(s.timeline().args_buffer(std::strlen(ev)), ev, std::strlen(ev));
  CHECK(nlohmann::json::parse(s.timeline().event_args_json(std::strlen(ev))).contains("args"));
  CHECK(s.timeline().event_args_json(1 << 30) == R"({"error":"bad size"})");
}

TEST_CASE("timeline session: the lane of each model track, as the flame graph maps the call tree's tracks") {
  LoadSession s("t");
  CHECK(s.timeline().lanes_of_tracks() == nullptr);
  push_all(s, test::read_data(kTrace));
  s.finish();
  const std::vector<uint32_t>* lanes = s.timeline().lanes_of_tracks();
  REQUIRE(lanes != nullptr);
  const TraceModel& m = s.session().model();
  CHECK(lanes->size() == m.tracks.size());
  // A slice's lane in its details is its model track's.
  for (double id : {0.0, 1.0, 100.0}) {
    const nlohmann::json d = nlohmann::json::parse(s.timeline().event_json(id));
    CHECK(d["lane"] == (*lanes)[m.slices.track_at(static_cast<size_t>(id))]);
  }
}
