// fast_event_decoder: a single-pass decoder for the common, clean trace event object, tried before
// simdjson. In wasm simdjson runs its scalar fallback kernel, whose byte-at-a-time stage 1 plus
// stage 2 cost more than one pass that reads the fields as it validates them.
#pragma once
#include <cstddef>
#include <cstdint>

#include "core/import/raw_event.h"

namespace tw {

// The bytes from the end of one value of an object (or its '{') to the start of the next value,
// e.g. `,\n    "ts": `, with the key they hold: a node of SeparatorCache.
struct Separator {
  static constexpr int kChildren = 4;
  char bytes[32];
  uint8_t len = 0;
  uint8_t key_begin = 0, key_len = 0;
  uint8_t field = 0;  // the event field the key names (fast_event_decoder.cc)
  uint8_t n_children = 0, next_replaced = 0;
  uint8_t children[kChildren] = {};  // nodes that followed this one
};

// Writers lay out events alike (Kineto: per kind of event the same keys, order and indentation), so
// the decoder remembers the separators it parsed, in document order (the event's fields and its
// args), as a tree of the sequences seen: node 0 is an event's '{'. Where the next bytes equal one
// of the current node's children, the key, colon and whitespace need no parsing (equal bytes parse
// to the same key and position). One per decoding thread; results never depend on what it holds.
struct SeparatorCache {
  static constexpr int kNodes = 255;  // indexes fit a byte; when full, the tree starts over
  Separator nodes[kNodes];
  int used = 1;
};

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
