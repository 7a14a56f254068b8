// EventSplitter: finds whole trace events in a byte stream pushed in chunks of any size.
//
// Scope: the JSON Trace Event Format (object form {"traceEvents": [...], ...} with other top-level
// keys before or after the events, or the bare array form [...]), as written by Chrome, Kineto and
// hand-written tools. Spec: https://docs.google.com/document/d/1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU
// It never holds the whole document: complete event objects are copied into a batch (a few MB) that
// is handed to the sink, partial ones are carried to the next push; a sink that decodes events in
// place is offered each event in the pushed bytes first (then only the declined ones are copied). Other top-level values are kept
// (up to a cap) for the metadata parser. Truncated input, trailing commas and stray whitespace are
// tolerated; everything else unusual is counted as a problem in ImportStats.
// Damage inside the events array (a stray byte, an event cut short, anything that stops being JSON)
// does not end the import: the splitter skips to the next event start and goes on, and reports the
// skipped spans (ImportStats::recovered). An event found damaged is read again from its second byte,
// so an event that began inside it (an event cut short and the next one written after it) is found.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/byte_codec.h"
#include "core/import/object_check.h"
#include "core/model/import_stats.h"

namespace tw {

struct EventRef {
  uint32_t begin;  // offset in the batch buffer
  uint32_t length;
  uint64_t offset;  // offset in the input stream
};

// `data` holds the batch's events back to back (each event's text unchanged, located by its
// EventRef); `size` ends after the last one, and at least kBatchPadding readable bytes follow it
// (simdjson reads ahead).
struct EventBatch {
  const char* data = nullptr;
  size_t size = 0;
  const std::vector<EventRef>* events = nullptr;
};

constexpr size_t kBatchPadding = 64;
constexpr size_t kMaxEventBytes = size_t(64) << 20;  // larger events are skipped and counted
constexpr size_t kMaxTopLevelValueBytes = size_t(16) << 20;

class EventSplitterSink {
 public:
  virtual ~EventSplitterSink() = default;
  virtual void on_batch(const EventBatch& batch) = 0;
  // A top-level key other than traceEvents, with its raw JSON value.
  virtual void on_top_level_value(std::string_view key, std::string_view raw_value, uint64_t offset) = 0;
  // Whether events may be handed over where they arrive (asked once per push): then each event
  // object is first offered to decode_in_place() with the rest of the chunk, and only the ones it
  // declines take the batch (flushed before the next offer, so events are handled in order).
  virtual bool decodes_in_place() const { return false; }
  // p[0] is an event's '{', n the bytes available from there in this chunk. Returns the event's
  // length once it is handled, or 0 to decline it (incomplete here, unusual, not valid).
  virtual size_t decode_in_place(const char* /*p*/, size_t /*n*/, uint64_t /*offset*/) { return 0; }
};

class EventSplitter {
 public:
  EventSplitter(EventSplitterSink* sink, ImportStats* stats);
  void push(const char* data, size_t size);
  void finish();
  bool saw_events_array() const { return saw_events_array_; }
  bool is_object_form() const { return object_form_; }
  bool stopped() const { return state_ == State::kStopped; }

  // Parts of one file imported separately (import_parts.h). A later part starts at an event's
  // '{' in the events array, `offset` bytes into the file: the splitter starts there as if it had
  // read everything before (in the object form or the bare array form, as guessed).
  void start_in_events_array(uint64_t offset, bool object_form);
  // Whether the input so far ends between two elements of the events array: exactly the state a
  // later part starts in, so the rest of the file would be split the same way.
  // (Not after a non-object element still waiting for its ',': what follows decides whether it is
  // read again, damaged_skip().)
  bool between_events() const { return state_ == State::kArray && !after_skip_ && !damage_open_; }
  uint64_t offset() const { return base_; }
  // Hands the events found so far to the sink, if the input ends between events.
  void flush_between_events() {
    if (state_ == State::kArray) flush_batch();
  }
  // Takes over the state of the splitter of the later part that followed this one's input, with
  // any event it still holds (this splitter's own batch is empty: it ended between events).
  void continue_from(EventSplitter&& later);
  // Its whole state as bytes, for moving a later part to another heap (part_codec.cc).
  void encode_state(ByteWriter& w) const;
  bool decode_state(ByteReader& r);

 private:
  enum class State : uint8_t {
    kStart,         // before the first byte of the document
    kObjExpectKey,  // inside the top-level object, before a key, ',' or '}'
    kObjKey,        // inside a top-level key string
    kObjColon,      // after a key, before ':'
    kObjValue,      // before a top-level value
    kTopValue,      // inside a top-level value other than traceEvents
    kArray,         // inside the events array, between elements
    kElement,       // inside an event object
    kArrayElement,  // after a '[' in the events array, before its first element
    kSkipElement,   // inside a non-object element of the events array
    kResync,        // in a damaged span of the events array: skipping to the next '{' or ']'
    kDone,          // after the end of the document
    kStopped,       // after a syntax error or fatal problem; input is ignored
  };

  // Scans a JSON value from data[i]; returns the index after the consumed bytes. Sets
  // value_done_ when the value ended (scalars end before their delimiter, which is not consumed).
  size_t scan_value(const char* data, size_t i, size_t n);
  void begin_value(char first);
  void fail(const std::string& message, uint64_t offset);
  void syntax_problem(uint64_t offset);
  // One step of the state machine over data[i, n) (stream offset `base` at data[0]).
  size_t step(const char* data, size_t n, size_t i, uint64_t base, bool in_place);
  // Damage in the events array: a skipped span opens at `offset` (if none is open) and the splitter
  // skips to the next event start. damaged_element() also queues the damaged event's bytes after
  // its '{' to be read again (replay_).
  void damage(uint64_t offset);
  void damaged_element();
  void damaged_skip();
  void replay_after_first(const char* p, size_t n, uint64_t offset);
  // An event or the array's end was found at `offset`: the open span, if any, ends there.
  void end_damage(uint64_t offset);
  void run_replay(bool in_place);
  void flush_batch();
  void append_element(const char* p, size_t len);
  void end_element();

  EventSplitterSink* sink_;
  ImportStats* stats_;
  State state_ = State::kStart;
  uint64_t base_ = 0;  // stream offset of the current chunk's first byte

  // value scanner
  int64_t depth_ = 0;
  bool in_string_ = false;
  bool escape_ = false;
  bool scalar_ = false;
  bool value_done_ = false;

  bool object_form_ = false;
  bool saw_events_array_ = false;
  bool saw_nodes_array_ = false;  // a top-level "nodes" array: an Execution Trace, not a profiler trace
  bool events_done_ = false;
  uint64_t events_end_ = 0;  // where the events array was closed
  bool any_event_ = false;

  std::string key_;
  bool key_escape_ = false;
  std::string top_value_;
  bool top_value_oversize_ = false;
  uint64_t top_value_offset_ = 0;

  ObjectCheck check_;  // the event being read byte by byte (one the sink did not decode in place)
  bool damage_open_ = false;
  uint64_t damage_start_ = 0;
  std::string replay_;  // bytes to read again before the rest of the chunk, from stream offset replay_base_
  uint64_t replay_base_ = 0;
  uint64_t last_damage_start_ = 0, last_damage_end_ = 0;  // the last span ended
  uint64_t replayed_ = 0;  // bounds the re-reading: damage cannot make the import quadratic
  // The last non-object element of the events array, held until a ',' follows it (damaged_skip()).
  bool after_skip_ = false;
  bool skip_oversize_ = false;
  uint64_t skip_offset_ = 0;
  std::string skip_bytes_;

  uint64_t element_offset_ = 0;
  size_t element_begin_ = 0;  // in batch_
  bool element_oversize_ = false;
  std::vector<char> batch_;
  std::vector<EventRef> refs_;
};

}  // namespace tw
