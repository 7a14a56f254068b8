// One slice in detail for the details panel: the model's columns (times relative to the origin,
// self time, GPU op fields), its launch / kernel link (model.launches) and flows. The args are not
// kept in the model: the worker re-reads the event's bytes (src_offset / src_length) and
// event_args() decodes them.
#pragma once
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "core/timeline/timeline_index.h"

namespace tw {

// {"error": ...} when `slice` is out of range.
nlohmann::json event_details(const TimelineIndex& index, uint32_t slice);

// One instant (row of model.instants): name, category, scope, time, its thread's lane and the byte
// range to re-read its args. {"error": ...} when out of range.
nlohmann::json instant_details(const TimelineIndex& index, uint32_t instant);

// Every field of one event object given its JSON bytes, for display: {"args": [[key, text], ...],
// "fields": [[key, text], ...]} where text is the string itself for strings and compact JSON
// otherwise (64-bit integers stay exact). {"error": ...} when the bytes are not a JSON object.
nlohmann::json event_args(const char* data, size_t size);

}  // namespace tw
