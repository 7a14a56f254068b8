// TraceImporter: the streaming importer. push() bytes in chunks of any size, then finish().
// Memory grows with the model only, never with the raw file: complete events are decoded batch by
// batch and turned into rows (see EventSplitter for what input is accepted).
#pragma once
#include <cstdint>
#include <memory>
#include <string_view>

#include "core/model/import_stats.h"
#include "core/model/trace_model.h"

namespace tw {

class ImportState;

class TraceImporter {
 public:
  TraceImporter();
  ~TraceImporter();
  TraceImporter(const TraceImporter&) = delete;
  TraceImporter& operator=(const TraceImporter&) = delete;

  // Optional, before the first push: the expected total input bytes (uncompressed). The model's
  // tables then grow to their projected size instead of doubling (less peak memory).
  void set_size_hint(uint64_t bytes);
  // The one-pass decoder for clean events is on by default; off leaves every event to simdjson
  // (the reference; for tests and benchmarks).
  void set_fast_decode(bool on);
  void push(const void* data, size_t size);
  // The input is complete (finish() implies it): the last batch is flushed.
  void end_input();
  // Importing one file in parts, e.g. on several threads (import_parts.h). This importer takes a
  // later part: bytes from `offset` (an event's '{' in the events array) on; the file is in the
  // object form ({"traceEvents": [...]}) or not ([...]).
  void begin_later_part(uint64_t offset, bool object_form);
  // Appends `later`, the part that began where this importer's input ends, as if its bytes had
  // been pushed here (same model, problems and stats); false, with nothing changed, when that
  // cannot be known (then push its bytes here instead). On success `later` is left empty.
  bool absorb(TraceImporter& later);
  // The importer's state, for moving a later part between heaps (encode/decode in part_codec.cc).
  ImportState& state() { return *state_; }
  // Ends the import: closes open slices, sorts and indexes the model, links launches to kernels.
  void finish();

  const ImportStats& stats() const;
  // Valid after finish(). Moving it out leaves the importer empty.
  TraceModel& model();

 private:
  std::unique_ptr<ImportState> state_;
};

}  // namespace tw
