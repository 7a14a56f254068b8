#include "core/timeline_session.h"

#include <nlohmann/json.hpp>

#include "core/summary/summary.h"
#include "core/timeline/area_aggregate.h"
#include "core/timeline/event_details.h"
#include "core/timeline/name_match.h"
#include "core/timeline/track_list.h"

namespace tw {

namespace {

const char* const kNoTrace = R"({"error":"no trace"})";

// An id or count from JavaScript (a double): false when it is not in uint32 range.
bool to_u32(double v, uint32_t* out) {
  if (!(v >= 0 && v < 4294967295.0)) return false;
  *out = static_cast<uint32_t>(v);
  return true;
}

}  // namespace

TimelineIndex* TimelineSession::index() {
  if (!index_ && session_.finished() && !session_.failed()) index_ = std::make_unique<TimelineIndex>(session_.model());
  return index_.get();
}

std::string TimelineSession::tracks_json() { return index() ? dump_json(tw::tracks_json(*index_)) : kNoTrace; }

std::string TimelineSession::track_head_json() { return index() ? dump_json(tw::track_head_json(*index_)) : kNoTrace; }

const TrackColumns* TimelineSession::track_columns() {
  if (!index()) return nullptr;
  if (!track_columns_) track_columns_ = std::make_unique<TrackColumns>(tw::track_columns(*index_));
  return track_columns_.get();
}

std::string TimelineSession::track_names_json(bool groups, double first, double count, double max_bytes) {
  if (!index()) return kNoTrace;
  uint32_t f = 0, n = 0, b = 0;
  if (!to_u32(first, &f) || !to_u32(count, &n) || !to_u32(max_bytes, &b)) return "[]";
  return dump_json(tw::track_names_json(*index_, groups, f, n, b));
}

const WindowResult* TimelineSession::window(std::vector<uint32_t> lanes, double t0_ns, double t1_ns, double px,
                                            bool with_search) {
  if (!index()) return nullptr;
  WindowQuery q;
  q.lanes = std::move(lanes);
  q.t0_ns = t0_ns;
  q.t1_ns = t1_ns;
  q.px = px >= 1 && px < 65536 ? static_cast<uint32_t>(px) : 1000;
  q.search = with_search && search_.active() ? &search_ : nullptr;
  query_window(*index_, q, window_);
  return &window_;
}

std::string TimelineSession::string_at(double id) {
  const StringPool& p = session_.model().strings;
  uint32_t i = 0;
  return to_u32(id, &i) && i < p.size() ? std::string(p.get(i)) : std::string();
}

std::string TimelineSession::string_prefix(double id, double max_bytes) {
  const StringPool& p = session_.model().strings;
  uint32_t i = 0, b = 0;
  if (!to_u32(id, &i) || i >= p.size() || !to_u32(max_bytes, &b)) return std::string();
  return utf8_prefix(p.get(i), b);
}

std::string TimelineSession::event_json(double id) {
  uint32_t i = 0;
  if (!index() || !to_u32(id, &i)) return R"({"error":"no such event"})";
  return dump_json(event_details(*index_, i));
}

std::string TimelineSession::instant_json(double id) {
  uint32_t i = 0;
  if (!index() || !to_u32(id, &i)) return R"({"error":"no such instant"})";
  return dump_json(instant_details(*index_, i));
}

char* TimelineSession::args_buffer(size_t size) {
  if (args_.size() < size) args_.resize(size);
  return args_.data();
}

std::string TimelineSession::event_args_json(size_t size) {
  if (size > args_.size()) return R"({"error":"bad size"})";
  return dump_json(event_args(args_.data(), size));
}

std::string TimelineSession::search_json(std::string text, bool regex, bool case_sensitive) {
  if (!index()) return kNoTrace;
  std::vector<uint32_t> ids;
  std::string error;
  if (!match_names(session_.model().strings, {std::move(text), regex, case_sensitive}, &ids, &error)) {
    search_.clear();
    return dump_json({{"error", error}});
  }
  search_.run(*index_, ids);
  return dump_json({{"count", search_.count()}, {"names", ids.size()}});
}

std::string TimelineSession::search_page_json(double offset, double limit) {
  if (!index()) return kNoTrace;
  uint32_t o = 0, n = 0;
  to_u32(offset, &o);
  to_u32(limit, &n);
  return dump_json(search_page(*index_, search_, o, n));
}

std::string TimelineSession::search_step_json(double from_ns, double from_id, int dir) {
  nlohmann::json j = {{"index", -1}, {"count", search_.count()}};
  if (!index() || !search_.active()) return dump_json(j);
  uint32_t id = UINT32_MAX;
  to_u32(from_id, &id);
  const size_t k = search_.step(*index_, to_abs_ns(*index_, from_ns), id, dir);
  if (k == SIZE_MAX) return dump_json(j);
  j["index"] = k;
  j["event"] = event_details(*index_, search_.match(k));
  return dump_json(j);
}

std::string TimelineSession::aggregate_json(const std::vector<uint32_t>& lanes, double t0_ns, double t1_ns) {
  if (!index()) return kNoTrace;
  return dump_json(area_aggregate(*index_, lanes, to_abs_ns(*index_, t0_ns), to_abs_ns(*index_, t1_ns)));
}

const std::vector<uint32_t>* TimelineSession::lanes_of_tracks() {
  if (!index()) return nullptr;
  const size_t n = session_.model().tracks.size();
  if (lanes_of_tracks_.size() != n) {
    lanes_of_tracks_.resize(n);
    for (size_t i = 0; i < n; ++i) lanes_of_tracks_[i] = index_->lane_of_model_track(static_cast<uint32_t>(i));
  }
  return &lanes_of_tracks_;
}

}  // namespace tw
