// The event args that the importer reads by key (Kineto's ids and GPU fields, memory samples,
// metadata). Each decoder notes where such an arg sits as it adds it (RawEvent::known), so reading
// one is a load instead of a scan comparing keys: ~13 lookups per kernel over its ~12 args.
#pragma once
#include <cstdint>
#include <string_view>

namespace tw {

enum KnownArg : uint8_t {
  kArgCorrelation,
  kArgExternalId,
  kArgDevice,
  kArgStream,
  kArgBytes,
  kArgCollectiveName,
  kArgInMsgNelems,
  kArgOutMsgNelems,
  kArgGroupSize,
  kArgDtype,
  kArgProcessGroupName,
  kArgSeq,  // a collective's sequence number in its process group
  kArgGrid,
  kArgBlock,
  kArgTotalAllocated,
  kArgTotalReserved,
  kArgMemoryBytes,  // "Bytes" of a [memory] instant ("bytes" is a memcpy's)
  kArgDeviceId,
  kArgName,
  kArgLabels,
  kArgSortIndex,
  kKnownArgs,
  kNotKnown = 0xFF,
};

// The arg's key as written, e.g. "External id".
std::string_view known_arg_key(KnownArg k);
// The KnownArg whose key is exactly `key`, or kNotKnown.
uint8_t known_arg_of(std::string_view key);

}  // namespace tw
