// BatchDecoder: the decode worker's side of deferred decoding (event_records.h). A batch that a
// session handed out (TraceImporter::next_outgoing) is copied in with stage(), decoded by the fast
// decoder, and returned as records for the session to apply in order.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/import/event_splitter.h"

namespace tw {

class BatchDecoder {
 public:
  // Room for a batch of `data_size` bytes and `ref_count` refs; returns where the data goes (the
  // refs go to refs()). The padding after the data is set, as the splitter's batches have it.
  char* stage(size_t data_size, size_t ref_count);
  EventRef* refs() { return refs_.data(); }
  // Decodes the staged batch; its records, valid until the next call. The refs came from another
  // worker: any that do not fit the data end the batch there.
  std::span<const uint8_t> decode();

 private:
  std::vector<char> data_;
  std::vector<EventRef> refs_;
  std::vector<uint8_t> out_;
};

}  // namespace tw
