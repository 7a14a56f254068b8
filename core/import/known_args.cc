#include "core/import/known_args.h"

#include "core/base/same_bytes.h"

namespace tw {

namespace {
constexpr std::string_view kKeys[kKnownArgs] = {
    "correlation",        "External id",   "device",         "stream",     "bytes",
    "Collective name",    "In msg nelems", "Out msg nelems", "Group size", "dtype",
    "Process Group Name", "Seq",           "grid",           "block",      "Total Allocated",
    "Total Reserved",     "Bytes",         "Device Id",      "name",       "labels",
    "sort_index",
};
}  // namespace

std::string_view known_arg_key(KnownArg k) { return k < kKnownArgs ? kKeys[k] : std::string_view(); }

// Called once per arg by the slow decoders and once per learned separator by the fast one: a scan
// is cheap enough (the length check rejects nearly every key at once).
uint8_t known_arg_of(std::string_view key) {
  for (uint8_t k = 0; k < kKnownArgs; ++k)
    if (same_bytes(kKeys[k], key)) return k;
  return kNotKnown;
}

}  // namespace tw
