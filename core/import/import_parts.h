// Importing one plain (uncompressed) file in parts, on as many threads or workers as there are
// parts: the file is cut where an event object likely starts, each part is imported by its own
// TraceImporter (the later ones with begin_later_part), and the first absorbs the others in order.
// A wrong guess costs time, never correctness: absorb() checks that the earlier input really ends
// between events where the later part began, and otherwise the later part's bytes are pushed again.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/import/trace_importer.h"

namespace tw {

// Where the events array likely has an event's '{' at or after `from` in `window` (bytes of the
// file starting at file offset `window_offset`): the first `}` `,` `{` `"` with only whitespace
// between them (Kineto writes "},\n  {\n    \"ph\"", Chrome "},{\"pid\""). Returns the file
// offset of that '{', or 0 when the window holds none.
uint64_t likely_event_start(std::string_view window, uint64_t window_offset);

// Whether the document starts with '{' (the object form) rather than '[', judged from its first
// bytes (a byte order mark and whitespace skipped). Later parts need to know before the first
// part has read them.
bool starts_as_object(std::string_view head);

// Up to `parts` - 1 cut points in a file of `size` bytes, near equal shares, each a
// likely_event_start looked for in the `window` bytes `read(offset, window)` returns from about
// `size * k / parts` on. Ascending, each > 0; fewer when a window holds no likely start.
template <class Read>
std::vector<uint64_t> part_starts(uint64_t size, int parts, size_t window, Read read) {
  std::vector<uint64_t> starts;
  for (int k = 1; k < parts; ++k) {
    uint64_t at = size * static_cast<uint64_t>(k) / static_cast<uint64_t>(parts);
    if (!starts.empty() && at <= starts.back()) continue;
    uint64_t s = likely_event_start(read(at, window), at);
    if (s > 0 && s < size && (starts.empty() || s > starts.back())) starts.push_back(s);
  }
  return starts;
}

// The second half of a parts import, in order: `first` imported [0, starts[0]), `later[k]`
// imported [starts[k], starts[k + 1]) (to the end for the last, whose end_input() was called).
// Each later part is absorbed (`absorb(first, part)`: TraceImporter::absorb unless the caller moves
// parts another way), or when that cannot be, its bytes (`bytes(begin, end)` returns them, in
// pieces of any size through the callback) are pushed into `first`. Then `first` holds the whole
// file and only its finish() is left. Returns how many parts were absorbed.
template <class Bytes, class Absorb>
size_t absorb_parts(TraceImporter& first, const std::vector<TraceImporter*>& later, const std::vector<uint64_t>& starts,
                    uint64_t size, Bytes bytes, Absorb absorb) {
  size_t absorbed = 0;
  for (size_t k = 0; k < later.size(); ++k) {
    if (absorb(first, *later[k])) {
      ++absorbed;
      continue;
    }
    uint64_t end = k + 1 < starts.size() ? starts[k + 1] : size;
    bytes(starts[k], end, [&first](const char* p, size_t n) { first.push(p, n); });
    if (k + 1 == later.size()) first.end_input();
  }
  return absorbed;
}

template <class Bytes>
size_t absorb_parts(TraceImporter& first, const std::vector<TraceImporter*>& later, const std::vector<uint64_t>& starts,
                    uint64_t size, Bytes bytes) {
  return absorb_parts(first, later, starts, size, bytes,
                      [](TraceImporter& f, TraceImporter& part) { return f.absorb(part); });
}

}  // namespace tw
