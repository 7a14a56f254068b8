// Event records: a decoded RawEvent in a compact binary form whose string views are offsets into the
// event's own text. They let a second thread (a decode worker in the browser) run the fast decoder
// over a batch of events while the importer's thread splits the next one: the importer, which
// still holds the batch, rebuilds each RawEvent from its record with views into its own copy of the
// text, and handles it exactly as if it had decoded it itself.
//
// A batch's records: for each event in order, one status byte, then the record if the status is 1.
//   status 0: not decoded here (the fast decoder declined it): the importer decodes it itself.
//   status 1: the record (layout in event_records.cc; string views are offsets into the event text).
// Records come from our own worker, but are still read with every bound checked: a bad one only
// makes the importer decode that event itself.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/import/event_splitter.h"
#include "core/import/raw_event.h"

namespace tw {

// Decodes every event of a batch (`refs` into `data`) with the fast decoder and writes the batch's
// records to the start of `out`; returns their size. `out` only grows (keep it between batches).
size_t encode_batch_records(const char* data, const EventRef* refs, size_t n, std::vector<uint8_t>& out);

enum class RecordRead {
  kDecoded,   // `ev` holds the event, its views into the event text
  kDeclined,  // the fast decoder declined this event: only the simdjson path can decode it
  kNone,      // no usable record (none given, the records ended, or a malformed one): decode it here
};

// Reads the next event's status and record at `*cur` (advanced past them). A malformed record also
// ends the batch's records (`*cur` is set to `end`): the position of the next ones is unknown.
RecordRead read_event_record(const uint8_t** cur, const uint8_t* end, const char* text, size_t n, RawEvent& ev);

}  // namespace tw
