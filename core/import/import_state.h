// ImportState: everything the streaming importer keeps between events. Split over a few files:
// import_state.cc (event dispatch by phase), kineto_fields.cc (PyTorch args), top_level.cc
// (metadata outside the events array), and core/model/finalize.cc (sorting and linking).
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/import/event_decoder.h"
#include "core/import/event_splitter.h"
#include "core/import/fast_event_decoder.h"
#include "core/import/growth_plan.h"
#include "core/model/finalize.h"
#include "core/model/import_stats.h"
#include "core/model/trace_model.h"

// Benchmarks build with -DTW_FAST_DECODE_DEFAULT=0 to measure the importer without the fast path.
#ifndef TW_FAST_DECODE_DEFAULT
#define TW_FAST_DECODE_DEFAULT 1
#endif

namespace tw {

// A pid, tid or id as the importer keys it (id_bits in import_state.cc): the number, or
// 1 << 63 | the interned text's string id. (A negative number in [INT64_MIN, INT64_MIN + 2^32)
// looks like a string id: such ids are not seen in traces.)
inline bool is_string_id(uint64_t bits) { return (bits >> 32) == 0x80000000u; }
inline uint64_t string_id_bits(uint32_t id) { return (uint64_t(1) << 63) | id; }

struct IdKey {
  uint64_t a;
  uint64_t b;
  bool operator==(const IdKey& o) const { return a == o.a && b == o.b; }
};
struct IdKeyHash {
  size_t operator()(const IdKey& k) const { return std::hash<uint64_t>()(k.a * 0x9E3779B97F4A7C15ULL ^ k.b); }
};

// A later part's E with no B open on its track in that part: its B, if any, is still open at the
// end of the earlier parts. A placeholder row keeps the slice's place until absorb() pairs them.
struct OrphanEnd {
  uint32_t slice;  // the placeholder row
  uint32_t track;
  int64_t ts_ns;
  uint64_t offset;
  size_t v2_marks;  // flow v2 marks before it: the pair's marks go there
};

// A top-level value a later part found after the events array, handled in order once absorbed.
struct LaterValue {
  std::string key, raw;
  uint64_t offset;
};

// An open B (or async b) waiting for its E.
struct OpenSlice {
  int64_t ts_ns;
  StringId name, cat;
  int64_t correlation, external_id;
  uint64_t src_offset;
  uint32_t src_length;
  // Flow v2 on a B event: marks the slice once its E arrives.
  StringId bind_id = 0;
  bool flow_in = false, flow_out = false;
};

// An orphan E paired at the absorb with the B open at the end of the earlier parts on its track.
struct PairedEnd {
  uint32_t row;  // the placeholder row, in the absorbing state
  OpenSlice b;
  const OrphanEnd* end;
};

class ImportState : public EventSplitterSink {
 public:
  ImportState();
  void on_batch(const EventBatch& batch) override;
  void on_top_level_value(std::string_view key, std::string_view raw_value, uint64_t offset) override;
  bool decodes_in_place() const override { return fast_decode_; }
  size_t decode_in_place(const char* p, size_t n, uint64_t offset) override;
  // Counts the decoded event's lone surrogates and non-JSON numbers, with an excerpt of `event`.
  void note_invalid_values(std::string_view event, uint64_t offset);
  void finish();
  // Expected total input bytes (uncompressed), when known: lets tables grow to their projected
  // size instead of doubling. Optional; 0 means unknown.
  void set_size_hint(uint64_t bytes) { growth_.size_hint = bytes; }
  // The one-pass decoder for clean events (fast_event_decoder.h), on by default. Off leaves every
  // event to simdjson (the reference it must match).
  void set_fast_decode(bool on) { fast_decode_ = on; }

  // The input is complete: flushes the last batch. finish() calls it if needed.
  void end_input();
  // Importing one file in parts (import_parts.h). This state imports a later part, from `offset`
  // (an event's '{' in the events array) on, as if it had read everything before; the file is in
  // the object form or the bare array form.
  void begin_later_part(uint64_t offset, bool object_form);
  // Appends `later`, a part that began where this state's input ends, as if its input had been
  // pushed here: the model, problems and stats are the same. False, with both states unchanged,
  // when that cannot be known (this input does not end between events at later's start, or the
  // later part met an async end whose begin may be in this one); the caller then pushes the later
  // part's bytes here instead. `later` is left empty.
  bool absorb(ImportState& later);
  // A later part moved to another heap (part_codec.cc), e.g. from the worker that imported it to
  // the one that absorbs it: everything but its big columns as bytes (encode_part_header), and the
  // big columns copied byte for byte from the addresses part_columns() lists. The receiving side
  // decodes the header into a fresh state (`part`), then open_part(part) checks that this state can
  // absorb it and makes room at the end of its own tables: it returns where each column goes, in
  // part_columns() order (empty: refused). Once they are copied, close_part(part, true) checks
  // every index in the copied rows and absorbs the part (false: refused), or close_part(part,
  // false) gives the room back; either way this state is then as if the part had never come. The
  // table rows go straight to their place: no second copy of them is ever made.
  std::vector<uint8_t> encode_part_header() const;
  bool decode_part_header(const uint8_t* p, size_t n);
  std::vector<std::pair<void*, size_t>> part_columns();
  std::vector<std::pair<void*, size_t>> open_part(ImportState& part);
  bool close_part(ImportState& part, bool absorb);

  TraceModel model;
  ImportStats stats;
  EventSplitter splitter;
  // The v1 flow endpoints until finish() pairs them (a part's travel with its table rows).
  const PodBuffer<FlowPoint>& flow_points() const { return links_.flows_v1.points; }
  const FlowTimes& flow_times() const { return links_.flows_v1.times; }

 private:
  // Rows of the tables a later part's rows are appended to in place (open_part): the four of the
  // model and the v1 flow points (the largest buffer of an import but the slices').
  struct TableRows {
    size_t slices = 0, gpu_ops = 0, instants = 0, memory = 0, flow_points = 0;
  };
  TableRows table_rows() const;
  bool absorbable(const ImportState& later) const;
  bool part_is_consistent(const ImportState& later) const;
  void truncate_tables(const TableRows& rows);
  // absorb() in steps (absorb_part.cc), each for the tables of one kind; the later part's rows of
  // the tables of TableRows are already at their end, from open_base_ on.
  struct PartMaps;
  void join_part(ImportState& later);
  void absorb_tracks(ImportState& later, PartMaps& maps);
  void absorb_slices(ImportState& later, PartMaps& maps);
  void set_paired_rows(const std::vector<PairedEnd>& pairs);
  void absorb_other_tables(ImportState& later, const PartMaps& maps);
  void absorb_open_slices(ImportState& later, const PartMaps& maps);
  void absorb_stats(ImportState& later);
  void add_orphan_end(uint32_t track, uint64_t off);
  template <class F>
  void for_each_part_column(F f);
  template <class F>
  void for_each_side_column(F f);
  void handle_top_level(std::string_view key, std::string_view raw_value, uint64_t offset);
  void handle_event(uint64_t offset, uint32_t length);
  void on_complete(uint64_t off, uint32_t len);
  void on_begin(uint64_t off, uint32_t len);
  void on_end(uint64_t off);
  void on_instant(uint64_t off, uint32_t len);
  void on_counter(uint64_t off);
  void on_metadata(uint64_t off);
  void on_flow_v1(uint64_t off);
  void on_async(uint64_t off, uint32_t len);
  void note_flow_v2(uint32_t slice);
  void note_flow_v2(uint32_t slice, const OpenSlice& b);
  void add_gpu_op(uint32_t slice, uint32_t track);
  void add_memory_sample(uint64_t off);

  uint32_t process_for(const RawId& pid);
  uint32_t thread_track(uint32_t process, const RawId& tid);
  uint32_t async_track(uint32_t process, StringId name);
  EventKind kind_of(StringId cat);
  uint32_t add_slice(uint32_t track, int64_t ts, int64_t dur, StringId name, StringId cat, uint8_t flags, int64_t corr,
                     int64_t ext, uint64_t off, uint32_t len);
  void note_time(int64_t ts);
  bool require_ts(uint64_t off);

  EventDecoder decoder_;
  SeparatorCache separators_;  // the fast decoder's
  RawEvent ev_;
  std::unordered_map<int64_t, uint32_t> pid_num_;
  std::unordered_map<StringId, uint32_t> pid_str_;
  std::unordered_map<IdKey, uint32_t, IdKeyHash> threads_;
  std::unordered_map<IdKey, uint32_t, IdKeyHash> async_tracks_;
  std::vector<std::vector<OpenSlice>> open_b_;  // per track
  std::unordered_map<IdKey, std::vector<OpenSlice>, IdKeyHash> open_async_;
  std::unordered_map<IdKey, uint32_t, IdKeyHash> counter_series_;
  GpuConfigIndex gpu_configs_;    // of model.gpu_ops.configs
  std::vector<bool> kind_known_;  // model.slices.cat_kinds[cat] is computed
  int64_t last_pid_ = 0;          // one-entry caches of process_for / thread_track
  uint32_t last_pid_index_ = UINT32_MAX;
  IdKey last_thread_{0, 0};
  uint32_t last_thread_index_ = UINT32_MAX;
  PendingLinks links_;
  bool any_time_ = false;
  GrowthPlan growth_;
  bool fast_decode_ = TW_FAST_DECODE_DEFAULT;
  uint64_t phase_counts_[256] = {};  // per one-letter phase, merged into stats.phases by finish()
  bool input_ended_ = false;
  // A later part's own state (begin_later_part); see absorb().
  bool later_part_ = false;
  bool part_conflict_ = false;  // an async end without its begin, a flow endpoint skipped: absorb() refuses the part
  std::vector<OrphanEnd> orphan_ends_;
  std::vector<LaterValue> later_values_;
  // Which metadata fields this state's M events set (bits below), so a later part's values
  // replace the earlier parts' only where it set them (also when it set them to "").
  enum : uint8_t { kSetName = 1, kSetLabels = 2, kSetSort = 4 };
  std::vector<uint8_t> process_set_, track_set_;
  // A part decoded from bytes: its rows in the four tables (held by the absorbing state, not here).
  std::optional<TableRows> part_rows_;
  bool part_open_ = false;  // open_part() made room at open_base_
  TableRows open_base_;
};

}  // namespace tw
