// RawEvent: one trace event as decoded from JSON, before it becomes rows in the model. String views
// point into the decoder's buffers and are valid only until the next event is decoded.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "core/base/same_bytes.h"
#include "core/import/known_args.h"

namespace tw {

enum class ArgType : uint8_t { kNumber, kString, kBool, kNull, kObject, kArray };

struct RawArg {
  std::string_view key;
  ArgType type;
  std::string_view text;  // number text, unescaped string, "true"/"false"; empty for containers
  // For small arrays of numbers (Kineto grid/block): up to 3 values.
  uint8_t n_ints = 0;
  int64_t ints[3] = {0, 0, 0};
  // A number the decoder already parsed as an integer (= parse_int64(text)); false: parse the text.
  bool has_int = false;
  int64_t int_value = 0;
};

// A pid/tid/id as written: a number or a string.
struct RawId {
  bool present = false;
  bool is_string = false;
  bool numeric = false;  // value holds the number (also for strings that are integers)
  int64_t value = 0;
  std::string_view text;
};

constexpr int kMaxArgs = 48;

struct RawEvent {
  std::string_view ph, name, cat, scope, bp;
  bool has_ph = false, has_name = false;
  bool has_ts = false, ts_ok = false;
  int64_t ts_ns = 0;
  bool has_dur = false, dur_ok = false;
  int64_t dur_ns = 0;
  RawId pid, tid, id, bind_id;
  bool flow_in = false, flow_out = false;
  bool has_args = false;
  int n_args = 0;
  bool args_overflow = false;
  bool duplicate_key = false;
  // Values read although JSON does not allow them (json_oddities.h).
  bool lone_surrogate = false, non_json_number = false;
  // Per KnownArg, the index + 1 in args of the first arg with its key (0: none), as arg(key) finds
  // it: set by note_known_arg as each arg is added.
  uint8_t known[kKnownArgs] = {};
  // Keep args last: the decoder resets only the fields before it (args[0..n_args) are always
  // written before they are read), which saves clearing 3 KB per event.
  RawArg args[kMaxArgs];

  const RawArg* arg(std::string_view key) const {
    for (int i = 0; i < n_args; ++i)
      if (same_bytes(args[i].key, key)) return &args[i];
    return nullptr;
  }
  const RawArg* arg(KnownArg k) const { return known[k] ? &args[known[k] - 1] : nullptr; }
};

static_assert(kMaxArgs < 256, "RawEvent::known holds an index + 1 in a byte");

// Notes that args[n_args], about to be added, has the key of `k` (a KnownArg or kNotKnown).
inline void note_known_arg(RawEvent& e, uint8_t k) {
  if (k < kKnownArgs && e.known[k] == 0) e.known[k] = static_cast<uint8_t>(e.n_args + 1);
}

// Resets every field before args to its default, as each decoder does before filling an event
// (args[0..n_args) are written before they are read, so the 3 KB of args are left alone).
inline void reset_before_args(RawEvent& e) {
  static const RawEvent kEmpty{};
  static_assert(offsetof(RawEvent, args) + sizeof(RawEvent::args) == sizeof(RawEvent), "args must stay last");
  std::memcpy(static_cast<void*>(&e), &kEmpty, offsetof(RawEvent, args));
}

}  // namespace tw
