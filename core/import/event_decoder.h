// EventDecoder: decodes one trace event object into a RawEvent with simdjson On-Demand.
// Timestamps are converted from their decimal text (never via double). Invalid UTF-8 is replaced
// and counted rather than losing the event.
#pragma once
#include <string>
#include <vector>

#include "core/import/event_splitter.h"
#include "core/import/raw_event.h"
#include "simdjson.h"

namespace tw {

enum class DecodeResult { kOk, kInvalidUtf8Fixed, kNotObject, kJsonError, kTooDeep };

class EventDecoder {
 public:
  // `data` must have at least simdjson::SIMDJSON_PADDING readable bytes after `size`.
  // `ts_shift` is the power of ten that turns the file's time unit into ns (3 for microseconds).
  DecodeResult decode(const char* data, size_t size, size_t capacity, RawEvent& out);

  // Batch mode: the batch's events (see EventBatch: one JSON array) are parsed as On-Demand
  // documents of up to kWindowBytes of events each, so simdjson's stage 1 runs once per window
  // instead of once per ~240-byte event. next_in_batch() decodes the next event and returns true
  // only if it decoded without any error and ended exactly where its EventRef says: then the
  // RawEvent equals what decode() gives. At the first false the caller decodes that event and the
  // rest of the batch with decode(), so problem counts and offsets stay those of the per-event
  // path. decode() abandons the window's document (one parser serves both).
  void start_batch(const EventBatch& batch);
  bool next_in_batch(RawEvent& out);

 private:
  DecodeResult decode_once(const char* data, size_t size, size_t capacity, RawEvent& out);
  static void reset(RawEvent& e);
  bool open_window();
  static DecodeResult decode_fields(simdjson::ondemand::object& obj, RawEvent& e);
  simdjson::ondemand::parser parser_;
  std::string fixed_;  // UTF-8-repaired copy of an event
  static constexpr size_t kWindowBytes = size_t(64) << 10;
  const EventBatch* batch_ = nullptr;
  size_t batch_next_ = 0;
  size_t window_begin_ = 0, window_end_ = 0;  // events [begin, end) of the batch are in window_
  std::vector<char> window_;
  bool batch_live_ = false;
  simdjson::ondemand::document batch_doc_;
  simdjson::ondemand::array batch_array_;
  simdjson::ondemand::array_iterator batch_it_, batch_end_;
};

// Replaces every byte that is not part of a valid UTF-8 sequence with '?'.
void repair_utf8(std::string& s);

}  // namespace tw
