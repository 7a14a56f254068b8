// The track list as columns (core/timeline/track_columns.h): the same groups and tracks as the JSON
// list, each group's tracks contiguous, names paged and cut at a UTF-8 boundary.
#include <doctest/doctest.h>

#include "core/timeline/track_columns.h"
#include "core/timeline/track_list.h"
#include "tests/core/timeline_test_util.h"

namespace tw {

TEST_CASE("track columns: the JSON list's groups and tracks, each group's tracks contiguous") {
  test::ModelBuilder b;
  uint32_t host = b.process(100, "host");
  uint32_t gpu = b.process(0, "gpu");
  uint32_t main = b.track(host, 1, TrackKind::kThread, "main");
  uint32_t other = b.track(host, 2, TrackKind::kThread, "worker");
  uint32_t s7 = b.track(gpu, 7, TrackKind::kGpuStream);
  b.slice(main, 0, 100, "step");
  b.slice(main, 10, 20, "inner");
  b.slice(other, 5, 5, "w");
  b.slice(s7, 50, 40, "gemm_kernel", EventKind::kKernel, 5);
  b.slice(s7, 95, 10, "ncclKernel_AllReduce", EventKind::kKernel, 6);
  TraceModel& m = b.finish();
  TimelineIndex idx(m);
  const TrackColumns c = track_columns(idx);
  const nlohmann::json j = tracks_json(idx);
  REQUIRE(c.group_pid.size() == j["groups"].size());
  REQUIRE(c.track_group.size() == j["tracks"].size());
  REQUIRE(c.group_first_track.size() == c.group_pid.size() + 1);
  CHECK(c.group_first_track.back() == c.track_group.size());
  for (size_t g = 0; g < c.group_pid.size(); ++g) {
    CHECK(c.group_pid[g] == j["groups"][g]["pid"].get<double>());
    CHECK((c.group_gpu[g] == 1) == j["groups"][g]["gpu"].get<bool>());
    for (uint32_t t = c.group_first_track[g]; t < c.group_first_track[g + 1]; ++t) CHECK(c.track_group[t] == g);
  }
  static const char* kKinds[] = {"slices", "counter", "memory", "overlap"};
  for (size_t t = 0; t < c.track_group.size(); ++t) {
    CHECK(c.track_group[t] == j["tracks"][t]["group"].get<uint32_t>());
    CHECK(kKinds[c.track_kind[t]] == j["tracks"][t]["kind"].get<std::string>());
    CHECK(c.track_rows[t] == j["tracks"][t]["rows"].get<uint32_t>());
  }
  const nlohmann::json head = track_head_json(idx);
  CHECK(head["groups"] == c.group_pid.size());
  CHECK(head["tracks"] == c.track_group.size());
  CHECK(head["originNs"] == j["originNs"]);
  // Names by page: the same as the list's, the page cut at the end.
  const nlohmann::json names = track_names_json(idx, false, 1, 100, 512);
  REQUIRE(names.size() == c.track_group.size() - 1);
  for (size_t i = 0; i < names.size(); ++i) CHECK(names[i] == j["tracks"][i + 1]["name"]);
  CHECK(track_names_json(idx, true, 0, 1, 512)[0] == j["groups"][0]["name"]);
  CHECK(track_names_json(idx, true, 99, 5, 512).empty());
}

TEST_CASE("track columns: a huge name is cut to the bytes asked for, never inside a character") {
  CHECK(utf8_prefix("short", 10) == "short");
  CHECK(utf8_prefix("abcdef", 3) == "abc\xE2\x80\xA6");
  // "é" is two bytes: a cut at byte 2 of "aé" falls inside it, so only "a" is kept.
  CHECK(utf8_prefix("a\xC3\xA9z", 2) == "a\xE2\x80\xA6");
  CHECK(utf8_prefix("a\xC3\xA9z", 3) == "a\xC3\xA9\xE2\x80\xA6");
  test::ModelBuilder b;
  const std::string huge(5u << 20, 'x');
  uint32_t t = b.track(b.process(1, huge), 1, TrackKind::kThread, huge);
  b.slice(t, 0, 10, "s");
  TraceModel& m = b.finish();
  TimelineIndex idx(m);
  CHECK(track_names_json(idx, true, 0, 1, 512)[0].get<std::string>().size() <= 512 + 3);
  CHECK(track_names_json(idx, false, 0, 1, 512)[0].get<std::string>().size() == 512 + 3);
}

}  // namespace tw
