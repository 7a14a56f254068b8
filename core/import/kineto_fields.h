// PyTorch Profiler (Kineto) specifics: categories and the args that analyses need as columns.
// Kineto writes GPU work as X events on pid = device, tid = stream, with args such as
// "correlation" (links to the CPU launch), "External id" (links to the CPU op), "stream", "grid".
#pragma once
#include <cstdint>
#include <string_view>

#include "core/base/string_pool.h"
#include "core/import/raw_event.h"
#include "core/model/trace_model.h"

namespace tw {

EventKind kineto_kind_from_category(std::string_view cat);

inline bool is_gpu_kind(EventKind k) {
  return k == EventKind::kKernel || k == EventKind::kMemcpy || k == EventKind::kMemset;
}

struct KinetoIds {
  int64_t correlation = kNoId;
  int64_t external_id = kNoId;
  bool overflow = false;  // an integer arg beyond int64 (kept as text in the source)
};
KinetoIds read_kineto_ids(const RawEvent& e);

struct GpuFields {
  int32_t device = -1;
  int64_t stream = -1;
  int64_t bytes = -1;
  CollectiveArgs collective;
  uint32_t grid[3] = {0, 0, 0}, block[3] = {0, 0, 0};
};
GpuFields read_gpu_fields(const RawEvent& e, StringPool& pool);

// kSliceStreamArg / kSliceStreamArgNonNeg for the event's own "stream" arg, read as HTA 0.6.1's
// parser reads it (pandas to_numeric with errors="coerce", then astype(int)): a number, a numeric
// string ("3", " 3 ", "1e1") or true / false gives that number truncated toward zero; anything else,
// or no "stream" arg, gives -1. Fractions are compared to 9 decimals.
uint8_t stream_arg_flags(const RawEvent& e);

struct MemorySample {
  int32_t device = -1;
  int64_t total_allocated = 0, total_reserved = 0, bytes = 0;
};
// False when the event lacks the allocator totals.
bool read_memory_fields(const RawEvent& e, MemorySample& out);

}  // namespace tw
