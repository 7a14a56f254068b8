#pragma once
// The bits both event decoders (event_decoder.cc, fast_event_decoder.cc) use to find a key that an
// event has twice among the keys they read: one bit per key, so the two agree on what a duplicate is.
#include <cstdint>

namespace tw::duplicate_keys {

enum : uint32_t {
  kKPh = 1,
  kKName = 2,
  kKCat = 4,
  kKTs = 8,
  kKDur = 16,
  kKPid = 32,
  kKTid = 64,
  kKId = 128,
  kKArgs = 256,
  kKS = 512,
  kKBp = 1024,
  kKBind = 2048,
};

}  // namespace tw::duplicate_keys
