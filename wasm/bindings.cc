// Embind bindings: the wasm face of the core's facades (core/load_session.h, core/timeline_session.h).
// This file only lists functions: the state of a load and of a timeline lives in the core. The
// adapters below convert at the boundary only: numbers cross as double (the link uses
// -sWASM_BIGINT, so a uint64_t would arrive as a BigInt), addresses as numbers, memory as
// typed-array views into the heap that the caller copies before its next call into wasm (a heap
// growth detaches them), and JSON as text.
#include <emscripten/bind.h>
#include <emscripten/em_js.h>
#include <emscripten/em_macros.h>
#include <emscripten/val.h>

#include <algorithm>
#include <cstdlib>
#include <new>
#include <span>
#include <string>
#include <vector>

#include "core/diff/diff_json.h"
#include "core/diff/diff_markdown.h"
#include "core/import/import_parts.h"
#include "core/inflate/gzip_inflater.h"
#include "core/inflate/gzip_size.h"
#include "core/load_session.h"
#include "core/summary/job_summary.h"
#include "core/timeline/window_columns.h"

// A C++ allocation that fails (the heap could not grow: the browser refused, or the 4 GB ceiling)
// ends in abort() either way, as there are no exceptions; first it marks the module, so that the
// worker reports running out of memory instead of a bare "Aborted()" (web/worker/worker.ts).
EM_JS(void, tw_mark_out_of_memory, (), { Module['outOfMemory'] = true; });

namespace {

using emscripten::val;
using tw::LoadSession;
using tw::inflate::GzipDamage;
using tw::inflate::GzipInflater;

[[noreturn]] void out_of_memory() {
  tw_mark_out_of_memory();
  std::abort();
}
[[maybe_unused]] const bool kNewHandlerSet = (std::set_new_handler(out_of_memory), true);

template <typename T>
val view(std::span<const T> s) {
  return val(emscripten::typed_memory_view(s.size(), s.data()));
}
template <typename T>
val view(const std::vector<T>& v) {
  return view(std::span<const T>(v));
}
double address(const void* p) { return static_cast<double>(reinterpret_cast<uintptr_t>(p)); }
std::vector<uint32_t> numbers(const val& array) { return emscripten::convertJSArrayToNumberVector<uint32_t>(array); }

// The damage as web/load/input/gzip_damage.ts's GzipDamage[] in JSON.
std::string damage_json(const GzipInflater& g) {
  std::string out = "[";
  for (const GzipDamage& d : g.damage()) {
    if (out.size() > 1) out += ',';
    if (d.kind == GzipDamage::Kind::kTrailer)
      out += "{\"kind\":\"trailer\",\"member\":" + std::to_string(d.member) + "}";
    else out += d.kind == GzipDamage::Kind::kTruncated ? "{\"kind\":\"truncated\"}" : "{\"kind\":\"corrupt\"}";
  }
  return out + "]";
}

}  // namespace

EMSCRIPTEN_BINDINGS(tracewise) {
  using emscripten::function;
  using emscripten::optional_override;

  // Where to cut a plain file for a parts import, from bytes the caller copied to `at` (malloc'd):
  // the file offset of a likely event start, 0 for none.
  function("likelyEventStart", optional_override([](double at, size_t size, double window_offset) {
             std::string_view w(reinterpret_cast<const char*>(static_cast<uintptr_t>(at)), size);
             return static_cast<double>(tw::likely_event_start(w, static_cast<uint64_t>(std::max(0.0, window_offset))));
           }));
  function("startsAsObject", optional_override([](double at, size_t size) {
             return tw::starts_as_object(
                 std::string_view(reinterpret_cast<const char*>(static_cast<uintptr_t>(at)), size));
           }));

  // The job over several files' summaries (a JSON array of file summaries): core/summary/job_summary.h.
  // With the files' rank records (a JSON array of tracewise.rank/1, "" for none) also the job analysis.
  function("jobSummary", optional_override([](std::string files_json, std::string records_json) {
             return tw::job_summary_json(files_json, records_json);
           }));

  // The comparison of two summary documents (docs/diff-schema.md): the tracewise.diff/1 JSON, or
  // {"error": sentence} when a side is not a summary or an option is bad. Options as JSON, with the
  // sides' labels: {"fail_above_pct", "metric", "confidence_pct", "min_impact_pct", "base_label", "cand_label"}.
  function("diffSummaries", optional_override([](std::string base_doc, std::string cand_doc, std::string options_json) {
             return tw::diff_summaries_json(base_doc, cand_doc, std::string_view(options_json));
           }));
  // Its Markdown ("" when the text is not a diff document): the same bytes as `tracewise diff --format markdown`.
  function("diffMarkdown", optional_override([](std::string diff_json) { return tw::diff_markdown_text(diff_json); }));
  // A gzip file's inflated size for the size hint (core/inflate/gzip_size.h); sizes as doubles
  // (exact below 2^53). inflated = 0: the first guess.
  function("gzipSizeGuess", optional_override([](double isize, double compressed, double inflated, double used) {
             for (double x : {isize, compressed, inflated, used})
               if (!(x >= 0 && x < 0x1p53)) return 0.0;  // NaN, negative or past exact: no guess
             return double(tw::inflate::gzip_size_guess(uint64_t(isize), uint64_t(compressed), uint64_t(inflated),
                                                        uint64_t(used)));
           }));
  emscripten::constant("gzipRefineHintAt", double(tw::inflate::kRefineGzipHintAt));

  // A gzip file inflated as its bytes arrive (core/inflate/gzip_inflater.h): copy compressed bytes
  // to inputSpace() (at most inputRoom()), commitInput(n), then inflate() until its view is empty;
  // endInput() after the last byte, then inflate() to the end. damageJson(): GzipDamage[] as JSON.
  emscripten::class_<GzipInflater>("Inflater")
      .constructor<>()
      .function("inputSpace", optional_override([](GzipInflater& g) { return address(g.input_space().data()); }))
      .function("inputRoom", optional_override([](GzipInflater& g) { return double(g.input_space().size()); }))
      .function("commitInput", optional_override([](GzipInflater& g, double n) { g.commit_input(size_t(n)); }))
      .function("endInput", &GzipInflater::end_input)
      .function("inflate", optional_override([](GzipInflater& g) { return view(g.inflate()); }))
      .function("finished", &GzipInflater::finished)
      .function("inputUsed", optional_override([](GzipInflater& g) { return double(g.input_used()); }))
      .function("damageJson", &damage_json);

  emscripten::class_<LoadSession>("Session")
      .constructor<std::string>()
      // --- input
      .function("stagingBuffer", optional_override([](LoadSession& s, size_t n) { return address(s.input_buffer(n)); }))
      .function("pushStaged", &LoadSession::push_input)
      .function("setSizeHint",
                optional_override([](LoadSession& s, double n) { s.set_size_hint(n > 0 ? uint64_t(n) : 0); }))
      .function("setFileBytes",
                optional_override([](LoadSession& s, double n) { s.session().set_file_bytes(uint64_t(n)); }))
      .function("finish", &LoadSession::finish)
      .function("failed", optional_override([](LoadSession& s) { return s.session().failed(); }))
      .function("error", optional_override([](LoadSession& s) { return s.session().error(); }))
      .function("eventsSoFar", optional_override([](LoadSession& s) { return double(s.session().stats().events); }))
      .function("modelBytes",
                optional_override([](LoadSession& s) { return double(s.session().model().memory_bytes()); }))
      // --- a file in parts
      .function("endInput", optional_override([](LoadSession& s) { s.session().importer().end_input(); }))
      .function("beginLaterPart", optional_override([](LoadSession& s, double offset, bool object_form) {
                  s.session().importer().begin_later_part(uint64_t(std::max(0.0, offset)), object_form);
                }))
      .function("partHeader", optional_override([](LoadSession& s) { return view(s.part_header()); }))
      .function("partColumns", optional_override([](LoadSession& s) {
                  val out = val::array();
                  for (auto [p, n] : s.part_columns())
                    out.call<void>("push", view(std::span(static_cast<const uint8_t*>(p), n)));
                  return out;
                }))
      .function("partBuffer", optional_override([](LoadSession& s, size_t n) { return address(s.part_buffer(n)); }))
      .function("loadPart", optional_override([](LoadSession& s, size_t n) {
                  std::vector<size_t> sizes = s.load_part(n);
                  if (sizes.empty()) return val::null();
                  val out = val::array();
                  for (size_t size : sizes) out.call<void>("push", double(size));
                  return out;
                }))
      .function("partColumnAddress",
                optional_override([](LoadSession& s, size_t i) { return address(s.part_column_address(i)); }))
      .function("absorbPart", &LoadSession::absorb_part)
      .function("dropPart", &LoadSession::drop_part)
      // --- the summary
      .function("summaryJson", optional_override([](LoadSession& s, bool hta_compat) {
                  tw::SummaryOptions opts;
                  opts.hta_compat = hta_compat;
                  return s.session().summary_json(opts);
                }))
      // What this file contributes to a job of several ranks (core/job/rank_record_json.h).
      // The call tree for the flame graph (core/calltree/call_tree_json.h): fromNs < 0 = the whole trace.
      .function("callTreeJson", optional_override([](LoadSession& s, double from_ns, double to_ns, bool bottom_up) {
                  return s.session().call_tree_json(static_cast<int64_t>(from_ns), static_cast<int64_t>(to_ns),
                                                    bottom_up);
                }))
      .function("rankJson", optional_override([](LoadSession& s, bool hta_compat) {
                  tw::SummaryOptions opts;
                  opts.hta_compat = hta_compat;
                  return s.session().rank_json(opts);
                }))
      // --- the timeline (core/timeline_session.h)
      .function("timelineTracks", optional_override([](LoadSession& s) { return s.timeline().tracks_json(); }))
      .function("timelineTrackHead", optional_override([](LoadSession& s) { return s.timeline().track_head_json(); }))
      // The track list's columns as views (core/timeline/track_columns.h); {} before a trace is there.
      .function("timelineTrackColumns", optional_override([](LoadSession& s) {
                  val out = val::object();
                  if (const tw::TrackColumns* c = s.timeline().track_columns())
                    tw::for_each_track_column(
                        *c, [&out](const char* name, const auto& column) { out.set(name, view(column)); });
                  return out;
                }))
      .function("timelineTrackNames",
                optional_override([](LoadSession& s, bool groups, double first, double count, double max_bytes) {
                  return s.timeline().track_names_json(groups, first, count, max_bytes);
                }))
      // The window's columns as views (core/timeline/window_columns.h); {} before a trace is there.
      .function("timelineWindow",
                optional_override([](LoadSession& s, val lanes, double t0, double t1, double px, bool search) {
                  val out = val::object();
                  if (const tw::WindowResult* w = s.timeline().window(numbers(lanes), t0, t1, px, search))
                    tw::for_each_window_column(
                        *w, [&out](const char* name, const auto& column) { out.set(name, view(column)); });
                  return out;
                }))
      .function("stringAt", optional_override([](LoadSession& s, double id) { return s.timeline().string_at(id); }))
      .function("stringPrefix", optional_override([](LoadSession& s, double id, double max_bytes) {
                  return s.timeline().string_prefix(id, max_bytes);
                }))
      .function("timelineEvent",
                optional_override([](LoadSession& s, double id) { return s.timeline().event_json(id); }))
      .function("timelineInstant",
                optional_override([](LoadSession& s, double id) { return s.timeline().instant_json(id); }))
      .function("argsBuffer",
                optional_override([](LoadSession& s, size_t n) { return address(s.timeline().args_buffer(n)); }))
      .function("eventArgs",
                optional_override([](LoadSession& s, size_t n) { return s.timeline().event_args_json(n); }))
      .function("timelineSearchQuery", optional_override([](LoadSession& s, std::string text, bool regex, bool cs) {
                  return s.timeline().search_json(std::move(text), regex, cs);
                }))
      .function("timelineSearchPage", optional_override([](LoadSession& s, double offset, double limit) {
                  return s.timeline().search_page_json(offset, limit);
                }))
      .function("timelineSearchClear", optional_override([](LoadSession& s) { s.timeline().search_clear(); }))
      .function("timelineSearchStep", optional_override([](LoadSession& s, double from_ns, double from_id, int dir) {
                  return s.timeline().search_step_json(from_ns, from_id, dir);
                }))
      // The lane of each model track (UINT32_MAX: none) as a view, for the call tree's tracks; null before a trace.
      .function("timelineLanesOfTracks", optional_override([](LoadSession& s) {
                  const std::vector<uint32_t>* v = s.timeline().lanes_of_tracks();
                  return v ? view(*v) : val::null();
                }))
      .function("timelineAggregate", optional_override([](LoadSession& s, val lanes, double t0, double t1) {
                  return s.timeline().aggregate_json(numbers(lanes), t0, t1);
                }));
}
