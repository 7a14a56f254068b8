// EventDecoder: decodes one trace event object into a RawEvent with simdjson On-Demand.
// Timestamps are converted from their decimal text (never via double). Invalid UTF-8 is replaced
// and counted rather than losing the event.
#pragma once
#include <string>

#include "core/import/raw_event.h"
#include "simdjson.h"

namespace tw {

enum class DecodeResult { kOk, kInvalidUtf8Fixed, kNotObject, kJsonError, kTooDeep };

class EventDecoder {
 public:
  // `data` must have at least simdjson::SIMDJSON_PADDING readable bytes after `size`.
  DecodeResult decode(const char* data, size_t size, size_t capacity, RawEvent& out);

 private:
  DecodeResult decode_once(const char* data, size_t size, size_t capacity, RawEvent& out);
  static DecodeResult decode_fields(simdjson::ondemand::object& obj, RawEvent& e);
  simdjson::ondemand::parser parser_;
  std::string fixed_;  // UTF-8-repaired copy of an event
};

}  // namespace tw
