// TimelineSession: the timeline of one opened trace, as the page's trace worker asks for it: the
// track list, windows at a level of detail, single events and their args, the name search and its
// state, area aggregates. The index is built on the first call after a successful import. Times
// are float64 ns relative to the trace origin (exact below 2^53 ns); replies are JSON text, a
// refused request {"error": "..."}. The wasm bindings list its functions; its state lives here.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/session.h"
#include "core/timeline/lod_query.h"
#include "core/timeline/search.h"
#include "core/timeline/timeline_index.h"
#include "core/timeline/track_columns.h"

namespace tw {

class TimelineSession {
 public:
  // `session` must outlive this object.
  explicit TimelineSession(Session& session) : session_(session) {}

  // The whole track list with names (small traces, tests); the page asks for the three below.
  std::string tracks_json();
  // {"originNs", "endNs", "groups": count, "tracks": count}, or {"error"} before a trace.
  std::string track_head_json();
  // The track list as columns (core/timeline/track_columns.h); nullptr before a trace is there.
  const TrackColumns* track_columns();
  // Names of groups or tracks [first, first + count), each cut to max_bytes (tw::track_names_json).
  std::string track_names_json(bool groups, double first, double count, double max_bytes);
  // The window of `lanes` over [t0_ns, t1_ns) at `px` pixel columns (1..65535, else 1000), with
  // the search's matches when asked; nullptr before a trace is there. Valid until the next call.
  const WindowResult* window(std::vector<uint32_t> lanes, double t0_ns, double t1_ns, double px, bool with_search);
  // The name of a string id ("" when out of range).
  std::string string_at(double id);
  // The same cut to at most `max_bytes` bytes (then "…"): what a row or a tip can show.
  std::string string_prefix(double id, double max_bytes);
  std::string event_json(double id);
  std::string instant_json(double id);
  // The args of the event whose bytes the caller copied to args_buffer(size).
  char* args_buffer(size_t size);
  std::string event_args_json(size_t size);
  // Runs a name search: {"count": matching slices, "names": matching names}, or {"error": ...} for
  // a refused query (the previous search is then cleared).
  std::string search_json(std::string text, bool regex, bool case_sensitive);
  // Matches [offset, offset + limit) in time order (tw::search_page).
  std::string search_page_json(double offset, double limit);
  void search_clear() { search_.clear(); }
  // {"index": k, "count": n, "event": {...}} for the next (dir > 0) / previous match from a time or
  // from the current match id (-1 = none); index -1 when there are no matches.
  std::string search_step_json(double from_ns, double from_id, int dir);
  std::string aggregate_json(const std::vector<uint32_t>& lanes, double t0_ns, double t1_ns);
  // The timeline track (lane) of each model track, UINT32_MAX for none: the call tree names model
  // tracks (core/calltree), the page highlights a frame's slices on its lane. nullptr before a trace.
  const std::vector<uint32_t>* lanes_of_tracks();

 private:
  TimelineIndex* index();

  Session& session_;
  std::unique_ptr<TimelineIndex> index_;
  std::unique_ptr<TrackColumns> track_columns_;
  SearchState search_;
  WindowResult window_;
  std::vector<char> args_;
  std::vector<uint32_t> lanes_of_tracks_;
};

}  // namespace tw
