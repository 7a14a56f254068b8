// fast_event_decoder: a single-pass decoder for the common, clean trace event object, tried before
// simdjson. In wasm simdjson runs its scalar fallback kernel, whose byte-at-a-time stage 1 plus
// stage 2 cost more than one pass that reads the fields as it validates them.
#pragma once
#include <cstddef>

#include "core/import/raw_event.h"
#include "core/import/separator_cache.h"

namespace tw {

// Decodes the event object in p[0, n). Returns true only when the text is strictly valid JSON of the
// clean kind handled here (an object; no backslash or control byte in any string; valid UTF-8;
// strict numbers and literals; nesting <= 32; nothing but whitespace around the object). Then `e`
// holds exactly what EventDecoder::decode() gives (result kOk), its string views pointing into p.
// On false `e` is garbage and the caller decodes the event with EventDecoder, which decides
// everything unusual (escapes, errors, problems).
bool fast_decode_event(const char* p, size_t n, RawEvent& e, SeparatorCache& cache);

// The same for an event object starting at p[0] ('{') and ending anywhere in p[0, n): returns its
// length (through the closing brace), or 0 where fast_decode_event would return false for it or
// where the object does not end within n bytes. The splitter uses it to decode events where they
// arrive, without finding their end first or copying them into a batch.
size_t fast_decode_object(const char* p, size_t n, RawEvent& e, SeparatorCache& cache);

}  // namespace tw
