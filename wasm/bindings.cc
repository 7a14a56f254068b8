// Embind bindings: the wasm face of core/session.h. Only plain values, strings and typed-array
// views cross the boundary; the trace itself stays in the wasm heap.
#include <algorithm>
#include <cstdlib>
#include <emscripten/bind.h>
#include <emscripten/em_js.h>
#include <emscripten/heap.h>
#include <emscripten/val.h>
#include <unistd.h>

#include <memory>
#include <new>
#include <string>
#include <vector>

#include "core/import/event_records.h"
#include "core/import/import_parts.h"
#include "core/import/import_state.h"
#include "core/model/prefault.h"
#include "core/session.h"
#include "core/timeline/area_aggregate.h"
#include "core/timeline/event_details.h"
#include "core/timeline/lod_query.h"
#include "core/timeline/name_match.h"
#include "core/timeline/search.h"
#include "core/timeline/track_list.h"

// A C++ allocation that fails (the heap could not grow: the browser refused, or the 4 GB ceiling)
// ends in abort() either way, as there are no exceptions; first it marks the module, so that the
// worker reports running out of memory instead of a bare "Aborted()" (web/worker/worker.ts).
EM_JS(void, tw_mark_out_of_memory, (), { Module['outOfMemory'] = true; });

namespace {

using emscripten::val;

[[noreturn]] void out_of_memory() {
  tw_mark_out_of_memory();
  std::abort();
}
[[maybe_unused]] const bool kNewHandlerSet = (std::set_new_handler(out_of_memory), true);

std::string dump(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

template <typename T>
val view(const std::vector<T>& v) {
  return val(emscripten::typed_memory_view(v.size(), v.data()));
}

// Heap above the allocator's break is written ahead (one zero per page, so its faults are taken
// before they are needed) by a spare's prefaultHeapAhead and by a session waiting for input. One
// mark for both, as there is one heap: a page is written once, never again by the other.
uintptr_t g_touched_above = 0;

// Writes the pages from the break (or the mark, if higher) up to `end` (at most the heap's size),
// at most `max_pages` of them; returns how many.
size_t touch_above_break_to(uint64_t end, size_t max_pages) {
  g_touched_above = std::max(reinterpret_cast<uintptr_t>(sbrk(0)), g_touched_above);
  end = std::min<uint64_t>(end, emscripten_get_heap_size());
  if (g_touched_above >= end) return 0;
  return tw::touch_pages(g_touched_above, end, max_pages);
}

// A Session plus a staging buffer that JS fills through HEAPU8 before calling pushStaged(), so a
// chunk is copied once into the heap and never kept.
class WasmSession {
 public:
  explicit WasmSession(std::string name) : session_(std::move(name)) {}

  // Returns the heap address of a buffer of at least `size` bytes (valid until the next call).
  uintptr_t stagingBuffer(size_t size) {
    if (staging_.size() < size) staging_.resize(size);
    return reinterpret_cast<uintptr_t>(staging_.data());
  }
  void pushStaged(size_t size) { session_.push(staging_.data(), size); }
  // Optional, before the first push: expected uncompressed bytes (File.size, or the gzip trailer).
  void setSizeHint(double n) {
    size_hint_ = n > 0 ? static_cast<uint64_t>(n) : 0;
    session_.set_size_hint(size_hint_);
  }
  void finish() {
    session_.finish();
    finished_ = true;
    std::vector<char>().swap(staging_);
    std::vector<uint8_t>().swap(records_);
  }
  void setFileBytes(double n) { session_.set_file_bytes(static_cast<uint64_t>(n)); }
  // While the worker waits for input: pages of the model written ahead (core/model/prefault.h),
  // then of the heap above the allocator's break, where later allocations come from (1 GB in
  // node, all touched after 64 MB: the rest of the import took 10.2 k page faults with the model
  // only, 4.3 k with both). 0 once none are left.
  double prefault(double max_pages) {
    if (finished_) return 0;
    const size_t budget = static_cast<size_t>(std::max(0.0, max_pages));
    size_t n = session_.importer().prefault(budget);
    if (n == 0) n = touch_above_break(budget);
    return static_cast<double>(n);
  }

  // While the worker waits for input, before prefault(): one step of sorting the flow points ahead
  // of finish() (core/model/flow_presort.h). False when there is nothing to do.
  bool presortStep() { return !finished_ && session_.importer().presort_step(); }

  // --- decoding in a decode worker (core/import/event_records.h) ---------------------------------
  void setDeferredDecode(bool on) { session_.importer().set_deferred_decode(on); }
  void endInput() { session_.importer().end_input(); }
  double deferredBatches() { return static_cast<double>(session_.importer().deferred_batches()); }
  // The next kept batch as views {data, refs (4 uint32 per EventRef)} to copy at once, or null.
  val nextOutgoing() {
    const tw::DeferredBatch* b = session_.importer().next_outgoing();
    if (!b) return val::null();
    val out = val::object();
    out.set("data", val(emscripten::typed_memory_view(b->size, reinterpret_cast<const uint8_t*>(b->data.data()))));
    out.set("refs", val(emscripten::typed_memory_view(b->refs.size() * sizeof(tw::EventRef) / 4,
                                                      reinterpret_cast<const uint32_t*>(b->refs.data()))));
    return out;
  }
  // Records for the oldest kept batch are copied to recordsBuffer(size), then applyRecords(size);
  // applyLocal() decodes the oldest kept batch here instead.
  uintptr_t recordsBuffer(size_t size) {
    if (records_.size() < size) records_.resize(size);
    return reinterpret_cast<uintptr_t>(records_.data());
  }
  void applyRecords(size_t size) {
    size = std::min(size, records_.size());
    session_.importer().apply_deferred(records_.data(), size);
  }
  void applyLocal() { session_.importer().apply_deferred(nullptr, 0); }
  bool failed() const { return session_.failed(); }
  std::string error() const { return session_.error(); }
  double eventsSoFar() const { return static_cast<double>(session_.stats().events); }
  double bytesSoFar() const { return static_cast<double>(session_.stats().bytes); }
  std::string summaryJson(bool hta_compat) {
    tw::SummaryOptions opts;
    opts.hta_compat = hta_compat;
    return session_.summary_json(opts);
  }
  // The same document; meanwhile `on_part` is called with the JSON text of each group of sections
  // as soon as it is final (SummaryOptions::on_part), so the page can lay them out early.
  std::string summaryJsonWithParts(bool hta_compat, val on_part) {
    tw::SummaryOptions opts;
    opts.hta_compat = hta_compat;
    opts.on_part = [&on_part](const nlohmann::json& part) { on_part(tw::dump_json(part)); };
    return session_.summary_json(opts);
  }
  double modelBytes() { return static_cast<double>(session_.model().memory_bytes()); }

  // --- importing one file in parts (core/import/import_parts.h, part_codec.cc) -----------------
  // In a part worker, before the first push: this session imports the file from `offset` on.
  void beginLaterPart(double offset, bool object_form) {
    session_.importer().begin_later_part(static_cast<uint64_t>(std::max(0.0, offset)), object_form);
  }
  // In a part worker once its input ended: the part's header and then its columns, as views to
  // copy at once (the heap may grow).
  val partHeader() {
    part_header_ = session_.importer().state().encode_part_header();
    return view(part_header_);
  }
  val partColumns() {
    val out = val::array();
    for (auto [p, n] : session_.importer().state().part_columns())
      out.call<void>("push", val(emscripten::typed_memory_view(n, static_cast<const uint8_t*>(p))));
    return out;
  }
  // In the absorbing worker: the header is copied to partBuffer(size); loadPart(size) returns the
  // byte lengths of the columns (null: refused), each copied to partColumnAddress(i); absorbPart()
  // then appends the part (false: it was refused, and the caller pushes the part's bytes instead),
  // or dropPart() lets it go.
  uintptr_t partBuffer(size_t size) {
    part_header_.resize(size);
    return reinterpret_cast<uintptr_t>(part_header_.data());
  }
  val loadPart(size_t size) {
    pending_ = std::make_unique<tw::TraceImporter>();
    bool ok = size <= part_header_.size() && pending_->state().decode_part_header(part_header_.data(), size);
    std::vector<uint8_t>().swap(part_header_);
    if (!ok) {
      pending_.reset();
      return val::null();
    }
    // Where the part's columns go: its table rows straight to the end of this session's tables.
    pending_columns_ = session_.importer().state().open_part(pending_->state());
    if (pending_columns_.empty()) {
      pending_.reset();
      return val::null();
    }
    val out = val::array();
    for (auto [p, n] : pending_columns_) out.call<void>("push", val(static_cast<double>(n)));
    return out;
  }
  uintptr_t partColumnAddress(size_t i) {
    return i < pending_columns_.size() ? reinterpret_cast<uintptr_t>(pending_columns_[i].first) : 0;
  }
  void dropPart() { closePart(false); }
  bool absorbPart() { return closePart(true); }

  // --- timeline (core/timeline). Times are float64 ns relative to the trace origin. ------------
  std::string timelineTracks() { return index() ? dump(tw::tracks_json(*index_)) : "{\"error\":\"no trace\"}"; }
  double timelineIndexBytes() { return index() ? static_cast<double>(index_->memory_bytes()) : 0; }
  // The window as typed-array VIEWS into the wasm heap: the caller must copy them before calling
  // into wasm again (memory growth detaches them).
  val timelineWindow(val lanes, double t0_ns, double t1_ns, double px, bool with_search) {
    val out = val::object();
    if (!index()) return out;
    tw::WindowQuery q;
    q.lanes = emscripten::convertJSArrayToNumberVector<uint32_t>(lanes);
    q.t0_ns = t0_ns;
    q.t1_ns = t1_ns;
    q.px = px >= 1 && px < 65536 ? static_cast<uint32_t>(px) : 1000;
    q.search = with_search && search_.active() ? &search_ : nullptr;
    tw::query_window(*index_, q, window_);
    const tw::WindowResult& w = window_;
    out.set("itemOffset", view(w.item_offset));
    out.set("start", view(w.start_ns));
    out.set("dur", view(w.dur_ns));
    out.set("depth", view(w.depth));
    out.set("name", view(w.name));
    out.set("cls", view(w.cls));
    out.set("id", view(w.id));
    out.set("count", view(w.count));
    out.set("flags", view(w.flags));
    out.set("pointOffset", view(w.point_offset));
    out.set("pointTs", view(w.point_ns));
    out.set("pointMin", view(w.point_min));
    out.set("pointMax", view(w.point_max));
    out.set("pointLast", view(w.point_last));
    out.set("matchOffset", view(w.match_offset));
    out.set("matchStart", view(w.match_start_ns));
    out.set("matchDur", view(w.match_dur_ns));
    out.set("matchDepth", view(w.match_depth));
    out.set("matchId", view(w.match_id));
    out.set("instantOffset", view(w.instant_offset));
    out.set("instantTs", view(w.instant_ns));
    out.set("instantId", view(w.instant_id));
    out.set("instantName", view(w.instant_name));
    out.set("instantCount", view(w.instant_count));
    out.set("markGroup", view(w.mark_group));
    out.set("markTs", view(w.mark_ns));
    out.set("markId", view(w.mark_id));
    out.set("markName", view(w.mark_name));
    out.set("markCount", view(w.mark_count));
    return out;
  }
  std::string stringAt(double id) {
    const tw::StringPool& p = session_.model().strings;
    return id >= 0 && id < p.size() ? std::string(p.get(static_cast<uint32_t>(id))) : std::string();
  }
  double stringCount() { return static_cast<double>(session_.model().strings.size()); }
  std::string timelineEvent(double id) {
    if (!index() || !(id >= 0 && id < 4294967295.0)) return "{\"error\":\"no such event\"}";
    return dump(tw::event_details(*index_, static_cast<uint32_t>(id)));
  }
  std::string timelineInstant(double id) {
    if (!index() || !(id >= 0 && id < 4294967295.0)) return "{\"error\":\"no such instant\"}";
    return dump(tw::instant_details(*index_, static_cast<uint32_t>(id)));
  }
  // Args of the event whose bytes were copied into stagingBuffer(size).
  std::string eventArgsStaged(size_t size) {
    if (size > staging_.size()) return "{\"error\":\"bad size\"}";
    return dump(tw::event_args(staging_.data(), size));
  }
  // Runs a name search in the core: {"count": matching slices, "names": matching names}, or
  // {"error": ...} for a refused query (the previous search is then cleared).
  std::string timelineSearchQuery(std::string text, bool regex, bool case_sensitive) {
    if (!index()) return "{\"error\":\"no trace\"}";
    std::vector<uint32_t> ids;
    std::string error;
    if (!tw::match_names(session_.model().strings, {std::move(text), regex, case_sensitive}, &ids, &error)) {
      search_.clear();
      return dump({{"error", error}});
    }
    search_.run(*index_, ids);
    return dump({{"count", search_.count()}, {"names", ids.size()}});
  }
  // Matches [offset, offset + limit) in time order (see tw::search_page).
  std::string timelineSearchPage(double offset, double limit) {
    if (!index()) return "{\"error\":\"no trace\"}";
    size_t o = offset >= 0 && offset < 4294967295.0 ? static_cast<size_t>(offset) : 0;
    size_t n = limit >= 0 && limit < 4294967295.0 ? static_cast<size_t>(limit) : 0;
    return dump(tw::search_page(*index_, search_, o, n));
  }
  void timelineSearchClear() { search_.clear(); }
  // {"index": k, "count": n, "event": {...}} for the next (dir > 0) / previous match from a time or
  // from the current match id (-1 = none); index -1 when there are no matches.
  std::string timelineSearchStep(double from_ns, double from_id, int dir) {
    nlohmann::json j = {{"index", -1}, {"count", search_.count()}};
    if (!index() || !search_.active()) return dump(j);
    uint32_t id = from_id >= 0 && from_id < 4294967295.0 ? static_cast<uint32_t>(from_id) : UINT32_MAX;
    size_t k = search_.step(*index_, tw::to_abs_ns(*index_, from_ns), id, dir);
    if (k == SIZE_MAX) return dump(j);
    j["index"] = k;
    j["event"] = tw::event_details(*index_, search_.match(k));
    return dump(j);
  }
  std::string timelineAggregate(val lanes, double t0_ns, double t1_ns) {
    if (!index()) return "{\"error\":\"no trace\"}";
    return dump(tw::area_aggregate(*index_, emscripten::convertJSArrayToNumberVector<uint32_t>(lanes),
                                   tw::to_abs_ns(*index_, t0_ns), tw::to_abs_ns(*index_, t1_ns)));
  }

 private:
  // Built on the first timeline call after a successful import.
  tw::TimelineIndex* index() {
    if (!index_ && finished_ && !session_.failed()) index_ = std::make_unique<tw::TimelineIndex>(session_.model());
    return index_.get();
  }

  bool closePart(bool absorb) {
    bool ok = pending_ && session_.importer().state().close_part(pending_->state(), absorb);
    pending_.reset();
    pending_columns_.clear();
    return ok;
  }

  tw::Session session_;
  std::vector<char> staging_;
  std::vector<uint8_t> part_header_;
  std::unique_ptr<tw::TraceImporter> pending_;  // a later part being copied in
  std::vector<std::pair<void*, size_t>> pending_columns_;
  std::vector<uint8_t> records_;
  bool finished_ = false;
  uint64_t size_hint_ = 0;

  // Memory past the break belongs to no allocation yet (the heap grows in steps, so there is
  // slack); the allocator hands it out when it extends, already paged in. Only as far as this
  // import may still allocate: its columns are reserved early (growth_plan.h), and what comes
  // later (finish(), the summary) needs a small window past the break, sized by the size hint. A
  // heap grown ahead for larger files (web/worker/heap_ahead.ts: up to 512 MB) is not written on: a
  // small load that came before the spare finished would otherwise fault in the whole of it while
  // loading.
  size_t touch_above_break(size_t max_pages) {
    const uint64_t ahead = std::max<uint64_t>(16u << 20, size_hint_ / 8);
    return touch_above_break_to(uint64_t(reinterpret_cast<uintptr_t>(sbrk(0))) + ahead, max_pages);
  }
  std::unique_ptr<tw::TimelineIndex> index_;
  tw::SearchState search_;
  tw::WindowResult window_;
};

// Where to cut a plain file for a parts import (core/import/import_parts.h), from bytes the
// caller copied to `address` (malloc'd): the file offset of a likely event start, 0 for none.
double likelyEventStart(uintptr_t address, size_t size, double window_offset) {
  std::string_view w(reinterpret_cast<const char*>(address), size);
  return static_cast<double>(tw::likely_event_start(w, static_cast<uint64_t>(std::max(0.0, window_offset))));
}
bool startsAsObject(uintptr_t address, size_t size) {
  return tw::starts_as_object(std::string_view(reinterpret_cast<const char*>(address), size));
}

// A spare worker, idle before any file (web/worker/heap_ahead.ts): grows the heap to `target_bytes`
// once and writes one zero per page above the allocator's break, at most `max_pages` per call, so
// the next import's heap growth finds its pages already faulted in. Returns the pages touched, 0 once
// none are left (or the heap cannot grow).
double prefaultHeapAhead(double target_bytes, double max_pages) {
  const size_t target = static_cast<size_t>(std::max(0.0, target_bytes));
  if (emscripten_get_heap_size() < target && !emscripten_resize_heap(target)) return 0;
  return static_cast<double>(touch_above_break_to(emscripten_get_heap_size(), static_cast<size_t>(std::max(0.0, max_pages))));
}

// The allocator's break: the heap the module's allocations have claimed so far (it never gives any
// back). Unlike the heap's size, it does not count memory grown and faulted in ahead, so it is what
// the files opened so far needed (web/app/heap_hint.ts).
double heapBreak() { return static_cast<double>(reinterpret_cast<uintptr_t>(sbrk(0))); }

// The decode worker's side: batches handed out by a Session (nextOutgoing) are copied in with
// stage(), decoded by the fast decoder and returned as records (event_records.h).
class BatchDecoder {
 public:
  // Makes room for a batch of `data_size` bytes and `ref_count` refs; returns the data's address
  // (the refs' is refsAddress()). Padding after the data is set, as the splitter's batches have.
  uintptr_t stage(size_t data_size, size_t ref_count) {
    // The caller overwrites the data at once: only the padding is set here (resize keeps what the
    // buffer held and zero-fills only growth, which is rare once it has reached a batch's size).
    data_.resize(data_size + tw::kBatchPadding);
    std::fill(data_.begin() + data_size, data_.end(), ' ');
    refs_.resize(ref_count);
    return reinterpret_cast<uintptr_t>(data_.data());
  }
  uintptr_t refsAddress() { return reinterpret_cast<uintptr_t>(refs_.data()); }
  // Decodes the staged batch; returns a view of its records, valid until the next call.
  val decode() {
    size_t data_size = data_.size() - tw::kBatchPadding;
    // The refs came from another worker: any that do not fit the data end the batch there.
    size_t n = 0;
    while (n < refs_.size() && refs_[n].begin <= data_size && refs_[n].length <= data_size - refs_[n].begin) ++n;
    size_t used = tw::encode_batch_records(data_.data(), refs_.data(), n, out_);
    return val(emscripten::typed_memory_view(used, out_.data()));
  }

 private:
  std::vector<char> data_;
  std::vector<tw::EventRef> refs_;
  std::vector<uint8_t> out_;
};

}  // namespace

EMSCRIPTEN_BINDINGS(tracewise) {
  emscripten::class_<BatchDecoder>("BatchDecoder")
      .constructor<>()
      .function("stage", &BatchDecoder::stage)
      .function("refsAddress", &BatchDecoder::refsAddress)
      .function("decode", &BatchDecoder::decode);
  emscripten::function("likelyEventStart", &likelyEventStart);
  emscripten::function("startsAsObject", &startsAsObject);
  emscripten::function("prefaultHeapAhead", &prefaultHeapAhead);
  emscripten::function("heapBreak", &heapBreak);
  emscripten::class_<WasmSession>("Session")
      .constructor<std::string>()
      .function("stagingBuffer", &WasmSession::stagingBuffer)
      .function("pushStaged", &WasmSession::pushStaged)
      .function("setSizeHint", &WasmSession::setSizeHint)
      .function("finish", &WasmSession::finish)
      .function("setFileBytes", &WasmSession::setFileBytes)
      .function("prefault", &WasmSession::prefault)
      .function("presortStep", &WasmSession::presortStep)
      .function("setDeferredDecode", &WasmSession::setDeferredDecode)
      .function("beginLaterPart", &WasmSession::beginLaterPart)
      .function("partHeader", &WasmSession::partHeader)
      .function("partColumns", &WasmSession::partColumns)
      .function("partBuffer", &WasmSession::partBuffer)
      .function("loadPart", &WasmSession::loadPart)
      .function("partColumnAddress", &WasmSession::partColumnAddress)
      .function("absorbPart", &WasmSession::absorbPart)
      .function("dropPart", &WasmSession::dropPart)
      .function("endInput", &WasmSession::endInput)
      .function("deferredBatches", &WasmSession::deferredBatches)
      .function("nextOutgoing", &WasmSession::nextOutgoing)
      .function("recordsBuffer", &WasmSession::recordsBuffer)
      .function("applyRecords", &WasmSession::applyRecords)
      .function("applyLocal", &WasmSession::applyLocal)
      .function("failed", &WasmSession::failed)
      .function("error", &WasmSession::error)
      .function("eventsSoFar", &WasmSession::eventsSoFar)
      .function("bytesSoFar", &WasmSession::bytesSoFar)
      .function("summaryJson", &WasmSession::summaryJson)
      .function("summaryJsonWithParts", &WasmSession::summaryJsonWithParts)
      .function("modelBytes", &WasmSession::modelBytes)
      .function("timelineTracks", &WasmSession::timelineTracks)
      .function("timelineIndexBytes", &WasmSession::timelineIndexBytes)
      .function("timelineWindow", &WasmSession::timelineWindow)
      .function("stringAt", &WasmSession::stringAt)
      .function("stringCount", &WasmSession::stringCount)
      .function("timelineEvent", &WasmSession::timelineEvent)
      .function("timelineInstant", &WasmSession::timelineInstant)
      .function("eventArgsStaged", &WasmSession::eventArgsStaged)
      .function("timelineSearchQuery", &WasmSession::timelineSearchQuery)
      .function("timelineSearchPage", &WasmSession::timelineSearchPage)
      .function("timelineSearchClear", &WasmSession::timelineSearchClear)
      .function("timelineSearchStep", &WasmSession::timelineSearchStep)
      .function("timelineAggregate", &WasmSession::timelineAggregate);
}
