#include "core/import/event_decoder.h"

#include <cstddef>
#include <cstring>

#include "core/base/decimal.h"
#include "core/base/utf8.h"
#include "core/import/duplicate_keys.h"
#include "core/import/json_oddities.h"

namespace tw {

using simdjson::ondemand::json_type;

namespace {

std::string_view trim_token(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\n' || s.back() == '\r' || s.back() == '\t'))
    s.remove_suffix(1);
  return s;
}

// A string's raw text with a \u escape is checked for lone surrogates (get_string(true) puts
// U+FFFD in their place: the event is kept, the problem counted; json_oddities.h).
void check_escapes(std::string_view raw, RawEvent& e) {
  if (raw.find("\\u") != std::string_view::npos && has_lone_surrogate(raw)) e.lone_surrogate = true;
}

// A value simdjson cannot type (+1, .5, NaN, Infinity): counted when it was meant as a number.
void check_untyped(simdjson::ondemand::value& v, RawEvent& e) {
  if (looks_like_number(trim_token(v.raw_json_token()))) e.non_json_number = true;
}

// Reads a string or number field as text (numbers: their literal text; one outside JSON's grammar
// that simdjson still types as a number, such as 00012 or 1., is read as it reads and counted).
bool read_scalar_text(simdjson::ondemand::value& v, json_type t, std::string_view& out, RawEvent& e) {
  if (t == json_type::string) {
    check_escapes(v.raw_json_token(), e);
    auto r = v.get_string(true);
    if (r.error()) return false;
    out = r.value_unsafe();
    return true;
  }
  if (t == json_type::number) {
    out = trim_token(v.raw_json_token());
    if (!is_json_number(out)) e.non_json_number = true;
    return true;
  }
  return false;
}

// ts/dur: numbers or strings holding numbers, in microseconds.
void read_time(simdjson::ondemand::value& v, bool& has, bool& ok, int64_t& out, RawEvent& e) {
  has = true;
  ok = false;
  json_type t;
  if (v.type().get(t)) return check_untyped(v, e);
  std::string_view text;
  if (!read_scalar_text(v, t, text, e)) return;
  ok = parse_us_to_ns(text, out);
}

// False when simdjson reported an error that abandons the document iterator: the caller must stop
// iterating (continuing on an abandoned iterator reads out of bounds).
bool read_id(simdjson::ondemand::value& v, RawId& id, RawEvent& e) {
  id.present = true;
  json_type t;
  if (v.type().get(t)) {
    check_untyped(v, e);
    return true;
  }
  if (t == json_type::object) {
    // Trace-event id2: {"local": ...} or {"global": ...}.
    simdjson::ondemand::object o;
    if (v.get_object().get(o)) return false;
    for (auto f : o) {
      simdjson::ondemand::value fv;
      if (f.value().get(fv)) return false;
      // One level only: recursing into {"local": {"local": ...}} would go as deep as the input.
      if (fv.type().get(t) || t == json_type::object) return true;
      return read_id(fv, id, e);
    }
    return true;
  }
  std::string_view text;
  if (!read_scalar_text(v, t, text, e)) return true;
  id.is_string = t == json_type::string;
  id.text = text;
  id.numeric = parse_int64(text, id.value);
  return true;
}

bool read_bool(simdjson::ondemand::value& v) {
  bool b = false;
  if (!v.get_bool().get(b)) return b;
  return false;
}

// A key as text: the raw bytes when it holds no escape (then they equal the unescaped key), else
// unescaped into the parser's string buffer. Saves copying every key.
bool read_key(simdjson::ondemand::field& f, std::string_view& key, RawEvent& e) {
  std::string_view raw = f.escaped_key();
  bool escaped = false;
  for (char c : raw) escaped |= c == '\\';  // keys are short: cheaper than a memchr call in wasm
  if (!escaped) {
    key = raw;
    return true;
  }
  check_escapes(raw, e);
  return !f.unescaped_key(true).get(key);
}

// False on a malformed args object (e.g. a key that is not a string): the event is invalid and
// the document iterator must not be used any further.
bool read_args(simdjson::ondemand::value& v, RawEvent& e) {
  simdjson::ondemand::object o;
  if (v.get_object().get(o)) return true;  // args that are not an object are ignored
  e.has_args = true;
  for (auto fr : o) {
    simdjson::ondemand::field f;
    if (std::move(fr).get(f)) return false;
    if (e.n_args >= kMaxArgs) {
      e.args_overflow = true;
      continue;
    }
    RawArg& a = e.args[e.n_args];
    if (!read_key(f, a.key, e)) return false;
    simdjson::ondemand::value av = f.value();
    json_type t;
    if (av.type().get(t)) {
      check_untyped(av, e);
      return false;
    }
    a.type = ArgType::kNumber;
    a.n_ints = 0;
    a.text = std::string_view();
    a.has_int = false;
    switch (t) {
      case json_type::number:
        a.type = ArgType::kNumber;
        if (!read_scalar_text(av, t, a.text, e)) return false;
        break;
      case json_type::string:
        a.type = ArgType::kString;
        if (!read_scalar_text(av, t, a.text, e)) return false;
        break;
      case json_type::boolean:
        a.type = ArgType::kBool;
        a.text = read_bool(av) ? "true" : "false";
        break;
      case json_type::null: a.type = ArgType::kNull; break;
      case json_type::object: a.type = ArgType::kObject; break;
      case json_type::array: {
        a.type = ArgType::kArray;
        simdjson::ondemand::array arr;
        if (av.get_array().get(arr)) return false;
        for (auto el : arr) {
          simdjson::ondemand::value ev;
          if (el.get(ev)) return false;
          json_type et;
          if (ev.type().get(et) || et != json_type::number || a.n_ints >= 3) break;
          std::string_view txt;
          int64_t x = 0;
          txt = ev.raw_json_token();
          if (!parse_int64(trim_token(txt), x)) break;
          a.ints[a.n_ints++] = x;
        }
        break;
      }
    }
    note_known_arg(e, known_arg_of(a.key));
    ++e.n_args;
  }
  return true;
}

// Bits for duplicate-key detection (duplicate_keys.h).
using namespace duplicate_keys;

}  // namespace

DecodeResult EventDecoder::decode(const char* data, size_t size, size_t capacity, RawEvent& out) {
  DecodeResult r = decode_once(data, size, capacity, out);
  if (r != DecodeResult::kJsonError || simdjson::validate_utf8(data, size)) return r;
  fixed_.assign(data, size);
  repair_utf8(fixed_);
  size_t used = fixed_.size();
  fixed_.append(simdjson::SIMDJSON_PADDING, ' ');
  r = decode_once(fixed_.data(), used, fixed_.size(), out);
  return r == DecodeResult::kOk ? DecodeResult::kInvalidUtf8Fixed : r;
}

DecodeResult EventDecoder::decode_once(const char* data, size_t size, size_t capacity, RawEvent& e) {
  simdjson::ondemand::document doc;
  auto err = parser_.iterate(data, size, capacity).get(doc);
  if (err) return err == simdjson::DEPTH_ERROR ? DecodeResult::kTooDeep : DecodeResult::kJsonError;
  simdjson::ondemand::object obj;
  if (doc.get_object().get(obj)) return DecodeResult::kNotObject;
  DecodeResult r = decode_fields(obj, e);
  if (r != DecodeResult::kOk) return r;
  // Surface errors hidden in skipped values (e.g. a malformed number we never read).
  // An error inside a value abandons the iterator (is_alive() turns false; at_end() would crash).
  if (!doc.is_alive() || !doc.at_end()) return DecodeResult::kJsonError;
  return DecodeResult::kOk;
}

DecodeResult EventDecoder::decode_fields(simdjson::ondemand::object& obj, RawEvent& e) {
  reset_before_args(e);
  simdjson::error_code err;
  uint32_t seen = 0;
  auto mark = [&](uint32_t bit) {
    if (seen & bit) e.duplicate_key = true;
    seen |= bit;
  };
  for (auto fr : obj) {
    simdjson::ondemand::field f;
    if ((err = std::move(fr).get(f)))
      return err == simdjson::DEPTH_ERROR ? DecodeResult::kTooDeep : DecodeResult::kJsonError;
    std::string_view key;
    if (!read_key(f, key, e)) return DecodeResult::kJsonError;
    simdjson::ondemand::value v = f.value();
    json_type t;
    if (key.empty() || key.size() > 8) {
      continue;
    }
    switch (key[0]) {
      case 'p':
        if (key == "ph") {
          mark(kKPh);
          e.has_ph = true;
          if (v.type().get(t) || !read_scalar_text(v, t, e.ph, e)) e.ph = std::string_view();
        } else if (key == "pid") {
          mark(kKPid);
          if (!read_id(v, e.pid, e)) return DecodeResult::kJsonError;
        }
        break;
      case 'n':
        if (key == "name") {
          mark(kKName);
          e.has_name = true;
          if (v.type().get(t) || !read_scalar_text(v, t, e.name, e)) e.name = std::string_view();
        }
        break;
      case 'c':
        if (key == "cat") {
          mark(kKCat);
          if (v.type().get(t) || !read_scalar_text(v, t, e.cat, e)) e.cat = std::string_view();
        }
        break;
      case 't':
        if (key == "ts") {
          mark(kKTs);
          read_time(v, e.has_ts, e.ts_ok, e.ts_ns, e);
        } else if (key == "tid") {
          mark(kKTid);
          if (!read_id(v, e.tid, e)) return DecodeResult::kJsonError;
        }
        break;
      case 'd':
        if (key == "dur") {
          mark(kKDur);
          read_time(v, e.has_dur, e.dur_ok, e.dur_ns, e);
        }
        break;
      case 'i':
        if (key == "id" || key == "id2") {
          mark(kKId);
          if (!read_id(v, e.id, e)) return DecodeResult::kJsonError;
        }
        break;
      case 'a':
        if (key == "args") {
          mark(kKArgs);
          if (!read_args(v, e)) return DecodeResult::kJsonError;
        }
        break;
      case 's':
        if (key == "s") {
          mark(kKS);
          if (v.type().get(t) || !read_scalar_text(v, t, e.scope, e)) e.scope = std::string_view();
        }
        break;
      case 'b':
        if (key == "bp") {
          mark(kKBp);
          if (v.type().get(t) || !read_scalar_text(v, t, e.bp, e)) e.bp = std::string_view();
        } else if (key == "bind_id") {
          mark(kKBind);
          if (!read_id(v, e.bind_id, e)) return DecodeResult::kJsonError;
        }
        break;
      case 'f':
        if (key == "flow_in") e.flow_in = read_bool(v);
        else if (key == "flow_out") e.flow_out = read_bool(v);
        break;
      default: break;
    }
  }
  return DecodeResult::kOk;
}

}  // namespace tw
