#include "core/import/event_records.h"

#include <cstring>

#include "core/import/fast_event_decoder.h"

namespace tw {

namespace {

// Record layout (fixed-width fields, little-endian, unaligned; varints cost more to read in wasm
// than the bytes they save cost to copy):
//   u32 flags    bits 0-10 the RawEvent booleans, 11-14 which ids follow (pid, tid, id, bind_id),
//                15-19 which of ph, name, cat, scope, bp have data, 20-27 n_args
//   views        (u32 offset, u32 length) into the event text, for each present one of the five
//   i64 ts_ns, i64 dur_ns
//   ids          for each present one: u32 (is_string | numeric << 1 | has text << 2), i64 value,
//                and its text view if it has one
//   args         for each: u32 (type | n_ints << 8 | key has data << 16 | text has data << 17),
//                the key and text views that have data, then n_ints i64
constexpr size_t kMaxRecordBytes = 4 + 5 * 8 + 16 + 4 * (4 + 8 + 8) + kMaxArgs * (4 + 8 + 8 + 3 * 8);

template <typename T>
void put(uint8_t*& w, T v) {
  std::memcpy(w, &v, sizeof v);
  w += sizeof v;
}

struct Writer {
  uint8_t* w;
  const char* text;
  size_t n;
  bool ok = true;

  // A view with data (the caller checked); views outside the event text are declined.
  void view(std::string_view v) {
    if (v.data() < text || v.size() > n || size_t(v.data() - text) > n - v.size()) ok = false;
    put<uint32_t>(w, static_cast<uint32_t>(v.data() - text));
    put<uint32_t>(w, static_cast<uint32_t>(v.size()));
  }
};

size_t write_record(uint8_t* out, const RawEvent& e, const char* text, size_t n, bool* ok) {
  Writer wr{out, text, n};
  const std::string_view views[] = {e.ph, e.name, e.cat, e.scope, e.bp};
  const RawId* ids[] = {&e.pid, &e.tid, &e.id, &e.bind_id};
  uint32_t f = uint32_t(e.has_ph) | uint32_t(e.has_name) << 1 | uint32_t(e.has_ts) << 2 | uint32_t(e.ts_ok) << 3 |
               uint32_t(e.has_dur) << 4 | uint32_t(e.dur_ok) << 5 | uint32_t(e.flow_in) << 6 |
               uint32_t(e.flow_out) << 7 | uint32_t(e.has_args) << 8 | uint32_t(e.args_overflow) << 9 |
               uint32_t(e.duplicate_key) << 10;
  for (int i = 0; i < 4; ++i) f |= uint32_t(ids[i]->present) << (11 + i);
  for (int i = 0; i < 5; ++i) f |= uint32_t(views[i].data() != nullptr) << (15 + i);
  f |= static_cast<uint32_t>(e.n_args) << 20;
  put(wr.w, f);
  for (std::string_view v : views)
    if (v.data()) wr.view(v);
  put<int64_t>(wr.w, e.ts_ns);
  put<int64_t>(wr.w, e.dur_ns);
  for (const RawId* r : ids) {
    if (!r->present) {
      // An absent id must be the decoders' reset value, or the record could not restore it.
      if (r->is_string || r->numeric || r->value != 0 || r->text.data()) wr.ok = false;
      continue;
    }
    put<uint32_t>(wr.w, uint32_t(r->is_string) | uint32_t(r->numeric) << 1 | uint32_t(r->text.data() != nullptr) << 2);
    put<int64_t>(wr.w, r->value);
    if (r->text.data()) wr.view(r->text);
  }
  for (int i = 0; i < e.n_args; ++i) {
    const RawArg& a = e.args[i];
    put<uint32_t>(wr.w, uint32_t(a.type) | uint32_t(a.n_ints) << 8 | uint32_t(a.key.data() != nullptr) << 16 |
                            uint32_t(a.text.data() != nullptr) << 17);
    if (a.key.data()) wr.view(a.key);
    if (a.text.data()) wr.view(a.text);
    for (int k = 0; k < a.n_ints; ++k) put<int64_t>(wr.w, a.ints[k]);
  }
  *ok = wr.ok;
  return static_cast<size_t>(wr.w - out);
}

struct Reader {
  const uint8_t* p;
  const uint8_t* end;
  const char* text;
  size_t n;
  bool ok = true;

  template <typename T>
  T get() {
    T v{};
    if (size_t(end - p) < sizeof v) {
      ok = false;
      return v;
    }
    std::memcpy(&v, p, sizeof v);
    p += sizeof v;
    return v;
  }
  std::string_view view() {
    uint32_t off = get<uint32_t>(), len = get<uint32_t>();
    if (!ok || off > n || len > n - off) {
      ok = false;
      return {};
    }
    return {text + off, len};
  }
};

}  // namespace

size_t encode_batch_records(const char* data, const EventRef* refs, size_t n, std::vector<uint8_t>& out) {
  static RawEvent ev;                // 3 KB of args: not on the stack, and not cleared per event (see RawEvent)
  static SeparatorCache separators;  // kept from batch to batch (one decode worker per thread)
  size_t used = 0;
  for (size_t i = 0; i < n; ++i) {
    // Grown rarely and never shrunk: resizing zero-fills, which must not happen per batch.
    if (out.size() < used + 1 + kMaxRecordBytes) out.resize(std::max(out.size() * 2, used + 1 + kMaxRecordBytes));
    const char* text = data + refs[i].begin;
    bool ok = false;
    size_t len = 0;
    if (fast_decode_event(text, refs[i].length, ev, separators))
      len = write_record(out.data() + used + 1, ev, text, refs[i].length, &ok);
    out[used] = ok ? 1 : 0;
    used += ok ? 1 + len : 1;
  }
  return used;
}

RecordRead read_event_record(const uint8_t** cur, const uint8_t* end, const char* text, size_t n, RawEvent& e) {
  if (*cur >= end) return RecordRead::kNone;
  uint8_t status = *(*cur)++;
  if (status == 0) return RecordRead::kDeclined;
  if (status != 1) {
    *cur = end;
    return RecordRead::kNone;
  }
  Reader r{*cur, end, text, n};
  reset_before_args(e);
  uint32_t f = r.get<uint32_t>();
  e.has_ph = f & 1;
  e.has_name = f & 2;
  e.has_ts = f & 4;
  e.ts_ok = f & 8;
  e.has_dur = f & 16;
  e.dur_ok = f & 32;
  e.flow_in = f & 64;
  e.flow_out = f & 128;
  e.has_args = f & 256;
  e.args_overflow = f & 512;
  e.duplicate_key = f & 1024;
  std::string_view* views[] = {&e.ph, &e.name, &e.cat, &e.scope, &e.bp};
  for (int i = 0; i < 5; ++i)
    if (f >> (15 + i) & 1) *views[i] = r.view();
  e.ts_ns = r.get<int64_t>();
  e.dur_ns = r.get<int64_t>();
  RawId* ids[] = {&e.pid, &e.tid, &e.id, &e.bind_id};
  for (int i = 0; i < 4; ++i) {
    if (!(f >> (11 + i) & 1)) continue;
    RawId& id = *ids[i];
    uint32_t bits = r.get<uint32_t>();
    id.present = true;
    id.is_string = bits & 1;
    id.numeric = bits & 2;
    id.value = r.get<int64_t>();
    if (bits & 4) id.text = r.view();
  }
  uint32_t n_args = f >> 20;
  if (n_args > kMaxArgs) r.ok = false;
  for (uint32_t i = 0; r.ok && i < n_args; ++i) {
    RawArg& a = e.args[i];
    uint32_t bits = r.get<uint32_t>();
    uint32_t type = bits & 0xff, n_ints = bits >> 8 & 0xff;
    if (type > static_cast<uint32_t>(ArgType::kArray) || n_ints > 3) r.ok = false;
    a.type = static_cast<ArgType>(type);
    a.n_ints = static_cast<uint8_t>(n_ints);
    a.has_int = false;  // not carried: the text is parsed where needed
    a.key = bits & (1u << 16) ? r.view() : std::string_view();
    a.text = bits & (1u << 17) ? r.view() : std::string_view();
    for (uint32_t k = 0; k < 3; ++k) a.ints[k] = k < n_ints ? r.get<int64_t>() : 0;
  }
  for (uint32_t i = 0; r.ok && i < n_args; ++i) {  // (n_args is 0 from reset_before_args)
    note_known_arg(e, known_arg_of(e.args[i].key));
    ++e.n_args;
  }
  // A malformed record leaves the position of the next ones unknown: the rest are decoded locally.
  *cur = r.ok ? r.p : end;
  return r.ok ? RecordRead::kDecoded : RecordRead::kNone;
}

}  // namespace tw
