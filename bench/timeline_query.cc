// Replays timeline window queries natively: tw_timeline_query FILE REQUESTS.json [ROUNDS]
// REQUESTS.json is an array of the page's window requests ({lanes, t0, t1, px, search}: relative
// ns, as web/timeline/window_cache.ts sends them). Prints the index build and each request's time
// (the fastest of ROUNDS replays), for profiling the LOD query (core/timeline/lod_query.cc) on a
// large trace without a browser.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/file_reader.h"
#include "core/session.h"
#include "core/timeline_session.h"

namespace {
// FNV-1a over every item column of a window: two builds' replies compare by one number.
uint64_t digest_of(const tw::WindowResult& w, uint64_t h) {
  auto mix = [&h](const auto& column) {
    const auto* p = reinterpret_cast<const unsigned char*>(column.data());
    for (size_t i = 0; i < column.size() * sizeof(column[0]); ++i) h = (h ^ p[i]) * 1099511628211ull;
  };
  mix(w.item_offset), mix(w.start_ns), mix(w.dur_ns), mix(w.depth), mix(w.name), mix(w.cls), mix(w.id);
  mix(w.count), mix(w.flags);
  return h;
}

double now_s() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: tw_timeline_query FILE REQUESTS.json [ROUNDS]\n");
    return 2;
  }
  const int rounds = argc > 3 ? std::max(1, std::atoi(argv[3])) : 3;
  std::ifstream rf(argv[2]);
  std::stringstream text;
  text << rf.rdbuf();
  const nlohmann::json reqs = nlohmann::json::parse(text.str(), nullptr, false);
  if (!reqs.is_array()) {
    std::fprintf(stderr, "tw_timeline_query: %s is not a JSON array\n", argv[2]);
    return 1;
  }
  tw::Session s("trace");
  double t = now_s();
  // The CLI's reader (plain or gzip), as `tracewise summarize` loads a file.
  const tw::ReadResult read = tw::stream_file(argv[1], [&s](const char* d, size_t n) { s.push(d, n); });
  if (!read.ok) {
    std::fprintf(stderr, "tw_timeline_query: %s\n", read.error.c_str());
    return 1;
  }
  s.finish();
  if (s.failed()) {
    std::fprintf(stderr, "tw_timeline_query: %s\n", s.error().c_str());
    return 1;
  }
  std::printf("import %.2f s, %zu slices\n", now_s() - t, s.model().slices.size());
  tw::TimelineSession tl(s);
  t = now_s();
  tl.track_head_json();
  const double index_s = now_s() - t;
  // The session keeps its index to itself: its size from a second one, built untimed.
  std::printf("index %.3f s, %.1f MB\n", index_s, tw::TimelineIndex(s.model()).memory_bytes() / 1e6);
  std::vector<double> best(reqs.size(), 1e9), first(reqs.size(), 0);
  std::vector<size_t> items(reqs.size());
  uint64_t digest = 1469598103934665603ull;
  for (int r = 0; r < rounds; ++r) {
    for (size_t i = 0; i < reqs.size(); ++i) {
      const auto& q = reqs[i];
      std::vector<uint32_t> lanes = q.at("lanes").get<std::vector<uint32_t>>();
      t = now_s();
      const tw::WindowResult* w = tl.window(std::move(lanes), q.at("t0").get<double>(), q.at("t1").get<double>(),
                                            q.at("px").get<double>(), q.value("search", false));
      const double took = now_s() - t;
      if (r == 0) first[i] = took;
      best[i] = std::min(best[i], took);
      items[i] = w ? w->start_ns.size() : 0;
      if (r == 0 && w) digest = digest_of(*w, digest);
    }
  }
  double total = 0, total_first = 0;
  for (size_t i = 0; i < reqs.size(); ++i) {
    std::printf("%3zu span %12.1f ms  items %7zu  first %8.2f ms  best %8.2f ms\n", i,
                (reqs[i].at("t1").get<double>() - reqs[i].at("t0").get<double>()) / 1e6, items[i], first[i] * 1e3,
                best[i] * 1e3);
    total += best[i], total_first += first[i];
  }
  std::printf("digest %016llx\n", static_cast<unsigned long long>(digest));
  std::printf("total: first round %.1f ms, best %.1f ms over %zu requests (%d rounds)\n", total_first * 1e3,
              total * 1e3, reqs.size(), rounds);
  return 0;
}
