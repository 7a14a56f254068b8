// The one-pass decoder (fast_event_decoder.h) must, whenever it accepts an event, give exactly the
// RawEvent of EventDecoder::decode() with result kOk; everything else it must leave to simdjson.
// Checked on every event of every test trace, on hand-written odd events, on a mutation fuzz of
// real events, and on whole imports (model and problems) with the fast path on and off.
#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

#include "cli/file_reader.h"
#include "core/base/decimal.h"
#include "core/import/event_decoder.h"
#include "core/import/event_splitter.h"
#include "core/import/fast_event_decoder.h"
#include "tests/core/import_modes_util.h"

using namespace tw;
using namespace tw::test;

namespace {

std::string id_text(const RawId& id) {
  return std::to_string(id.present) + std::to_string(id.is_string) + std::to_string(id.numeric) + " " +
         std::to_string(id.value) + " '" + std::string(id.text) + "'";
}

// Every field of a RawEvent as text (string views by content; ints only up to n_ints).
std::string describe(const RawEvent& e) {
  std::string s = "ph '" + std::string(e.ph) + "' name '" + std::string(e.name) + "' cat '" + std::string(e.cat) +
                  "' s '" + std::string(e.scope) + "' bp '" + std::string(e.bp) + "'";
  s += " flags " + std::to_string(e.has_ph) + std::to_string(e.has_name) + std::to_string(e.has_ts) +
       std::to_string(e.ts_ok) + std::to_string(e.has_dur) + std::to_string(e.dur_ok) + std::to_string(e.flow_in) +
       std::to_string(e.flow_out) + std::to_string(e.has_args) + std::to_string(e.args_overflow) +
       std::to_string(e.duplicate_key);
  s += " ts " + std::to_string(e.ts_ns) + " dur " + std::to_string(e.dur_ns);
  s += "\n pid " + id_text(e.pid) + "\n tid " + id_text(e.tid) + "\n id " + id_text(e.id) + "\n bind " +
       id_text(e.bind_id) + "\n args " + std::to_string(e.n_args);
  for (int i = 0; i < e.n_args; ++i) {
    const RawArg& a = e.args[i];
    s += "\n  '" + std::string(a.key) + "' " + std::to_string(int(a.type)) + " '" + std::string(a.text) + "' [";
    for (int k = 0; k < a.n_ints; ++k) s += std::to_string(a.ints[k]) + ",";
    s += "]";
    // The integer readers take (kineto_fields.cc: int_value when has_int, else the text parsed):
    // a decoder may parse it ahead or not, but never to another value.
    int64_t v = a.int_value;
    if (a.has_int || (a.type == ArgType::kNumber && parse_int64(a.text, v))) s += " int " + std::to_string(v);
  }
  return s;
}

struct Outcome {
  bool fast = false;  // the fast path accepted
  bool equal = true;  // ... and decode() gave kOk with an equal RawEvent (known args too)
  std::string fast_text, ref_text;
};

// Decodes `text` both ways, each from its own copy (so views cannot alias by accident); simdjson's
// copy is padded as it requires.
Outcome compare(std::string_view text) {
  static EventDecoder decoder;
  static RawEvent fast_ev, ref_ev;
  static SeparatorCache separators;  // warmed by every event compared before, as in an import
  Outcome o;
  std::vector<char> a(text.begin(), text.end());  // exact size: ASan catches any read past the event
  std::string b(text);
  b.append(simdjson::SIMDJSON_PADDING, ' ');
  o.fast = fast_decode_event(a.data(), a.size(), fast_ev, separators);
  if (!o.fast) return o;
  DecodeResult r = decoder.decode(b.data(), text.size(), b.size(), ref_ev);
  o.fast_text = describe(fast_ev);
  o.ref_text = r == DecodeResult::kOk ? describe(ref_ev) : "decode() result " + std::to_string(int(r));
  o.equal = o.fast_text == o.ref_text && known_args_agree(fast_ev) && known_args_agree(ref_ev);
  return o;
}

// Collects the text of every event of a trace, as the splitter cuts them.
struct EventCollector : EventSplitterSink {
  std::vector<std::string> events;
  void on_batch(const EventBatch& batch) override {
    for (const EventRef& r : *batch.events) events.emplace_back(batch.data + r.begin, r.length);
  }
  void on_top_level_value(std::string_view, std::string_view, uint64_t) override {}
};

std::vector<std::string> events_of(const std::string& text) {
  EventCollector sink;
  ImportStats stats;
  EventSplitter splitter(&sink, &stats);
  splitter.push(text.data(), text.size());
  splitter.finish();
  return std::move(sink.events);
}

}  // namespace

TEST_CASE("fast decode: every event of every test trace is equal to decode() or left to it" *
          doctest::test_suite("corpus")) {
  std::vector<std::string> files = data_json_traces();
  REQUIRE(files.size() > 100);
  size_t total = 0, accepted = 0, mismatches = 0;
  for (const std::string& f : files) {
    for (const std::string& ev : events_of(read_trace(f))) {
      Outcome o = compare(ev);
      ++total;
      accepted += o.fast;
      if (!o.equal && ++mismatches <= 5)
        CHECK_MESSAGE(o.equal, f, "\n", ev, "\nfast: ", o.fast_text, "\nref:  ", o.ref_text);
    }
  }
  CHECK(mismatches == 0);
  MESSAGE("fast path accepted ", accepted, " of ", total, " events");
  CHECK(accepted * 10 > total * 9);
}

TEST_CASE("fast decode: accepts the vast majority of a Kineto trace's events") {
  std::vector<std::string> events = events_of(read_trace(kNccl));
  REQUIRE(events.size() > 40000);
  size_t accepted = 0;
  for (const std::string& ev : events) accepted += compare(ev).fast;
  MESSAGE("nccl_data: ", accepted, " of ", events.size());
  CHECK(accepted * 100 > events.size() * 95);
}

const char kNulByte[] = "{\"ph\":\"X\",\"name\":\"nul\0byte\"}";

TEST_CASE("fast decode: odd events are rejected or decoded exactly like decode()") {
  std::string many_args = R"({"ph":"X","args":{)";
  for (int i = 0; i < 50; ++i)
    many_args += (i ? "," : "") + std::string("\"a") + std::to_string(i) + "\":" + std::to_string(i);
  many_args += "},\"name\":\"many\",\"args\":{\"late\":1}}";
  // Clean events the fast path must accept (and decode like simdjson).
  const std::vector<std::string> clean = {
      R"({"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":1000.125,"dur":5,"args":{"grid":[1,2,3],"block":[128,1,1]}})",
      " \n\t{ \"ph\" : \"X\" ,\r\n \"name\"\t:\"ws\" , \"ts\" : 1.5e3 , \"args\" : { \"a\" : [ 1 , 2 ] } } \n ",
      R"({"ph":"X","name":"dup","ph":"B","ts":1,"ts":2,"pid":1,"pid":"p"})",
      R"({"ph":"b","id2":{"local":"0x1f","x":[1,{"y":null}]},"name":"a","cat":"c","ts":3,"pid":1,"tid":1})",
      R"({"ph":"b","id2":{"global":12},"name":"a","ts":3})",
      R"({"ph":"b","id2":{"global":{"deep":1}},"id":7,"name":"a","ts":3})",
      R"({"ph":"b","id2":{},"name":"a","ts":3,"bind_id":[1],"id":true})",
      R"({"ph":"f","bp":"e","s":"t","bind_id":"0x10","flow_in":true,"flow_out":false,"ts":1})",
      R"({"ph":"X","flow_in":1,"flow_out":"true","ts":1})",
      R"({"ph":"C","args":{"t":true,"f":false,"n":null,"o":{"a":[]},"s":"x","e":[],"neg":-0.5E-2}})",
      R"({"ph":"X","args":{"a":[1,2,3,4],"b":[1,"x",3],"c":[-9223372036854775808,99999999999999999999,2],"d":[1.5,2],"e":[[1],2]}})",
      R"({"ph":"X","ts":"12.5","dur":"x","pid":"12","tid":-3,"name":7,"cat":null,"s":{},"bp":[1]})",
      R"({"ph":"X","ts":1e400,"dur":-1,"pid":123456789012345678901234567890})",
      R"({"ph":"X","name":"unicode é ✓ 😀","args":{"k":"ü"}})",
      R"({"":1,"longer_than_8":{"a":[1,2]},"ph":"i","argsxx":5,"args":5})",
      R"({"ph":"X","args":{},"args":{"x":1}})",
      // Keys read a word at a time (<= 6 plain bytes, colon right after) and the ones that are not.
      R"({"ph":"X","abcdef":1,"abcdefg":2,"é":3,"a b":4,"x" :5,"":6,"s":"t","args":{"device":1,"stream":2,"streams":3}})",
      "{}",
      many_args,
  };
  for (const std::string& ev : clean) {
    Outcome o = compare(ev);
    CHECK_MESSAGE(o.fast, ev);
    CHECK_MESSAGE(o.equal, ev, "\nfast: ", o.fast_text, "\nref:  ", o.ref_text);
  }
  // Events the fast path must leave to simdjson (unusual or invalid).
  const std::vector<std::string> rejected = {
      R"({"ph":"X","name":"esc\"aped"})",
      R"({"p\u0068":"X"})",
      R"({"ph":"X","args":{"s":"\n"}})",
      "{\"ph\":\"X\",\"name\":\"tab\tin string\"}",
      "{\"ph\":\"X\",\"a\tb\":1}",
      "{\"ph\":\"X\",\"ab\x01\":1}",
      "{\"ph\":\"X\",\"name\":\"bad\xff utf8\"}",
      "{\"ph\":\"X\",\"name\":\"overlong \xc0\xaf\"}",
      "{\"ph\":\"X\",\"name\":\"surrogate \xed\xa0\x80\"}",
      "{\"ph\":\"X\",\"name\":\"cut \xe2\x9c\"}",
      R"({"ph":"X","ts":01})",
      R"({"ph":"X","ts":1.})",
      R"({"ph":"X","ts":-})",
      R"({"ph":"X","ts":.5})",
      R"({"ph":"X","ts":1e})",
      R"({"ph":"X","ts":+1})",
      R"({"ph":"X","x":tru})",
      R"({"ph":"X","x":nul,"y":1})",
      R"({"ph":"X","x":truex})",
      R"({"ph":"X","x":NaN})",
      R"({"ph":"X",})",
      R"({"ph":"X" "name":"a"})",
      R"({"ph" "X"})",
      R"({"ph":"X","a":[1,2}})",
      R"({"ph":"X","a":[1,]})",
      R"({"ph":"X","a":{"k":1,}})",
      R"({"ph":"X","a":{1:2}})",
      R"({"ph":"X"}})",
      R"({"ph":"X"} x)",
      R"({"ph":"X")",
      R"({"ph":"X)",
      R"("not an object")",
      R"([{"ph":"X"}])",
      "",
      R"({"ph":"X","args":{"a":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}})",
      std::string(kNulByte, sizeof(kNulByte) - 1),
  };
  for (const std::string& ev : rejected) CHECK_MESSAGE(!compare(ev).fast, ev);
}

TEST_CASE("fast decode: numbers in every time and id field give decode()'s values") {
  // The times and integer ids are parsed while they are scanned (plain forms) or by core/base's
  // parsers (the rest); both must give decode()'s values: rounding below the nanosecond, digit
  // counts at the plain forms' limits, signs, zeros, fractions and exponents.
  const char* valid[] = {"0",
                         "-0",
                         "7",
                         "-7",
                         "1.5",
                         "0.0004",
                         "0.0005",
                         "-0.0005",
                         "-0.0015",
                         "12.3456789",
                         "4458680428983.396",
                         "4458680428983.3965",
                         "999999999999999.9995",
                         "-999999999999999.9995",
                         "999999999999999",
                         "1000000000000000",
                         "1234567890123456.5",
                         "123456789012345678",
                         "1234567890123456789",
                         "9223372036854775807",
                         "-9223372036854775808",
                         "9223372036854775808",
                         "1e3",
                         "1.5E-3",
                         "-2.25e+2",
                         "0.1e1",
                         "3.999999",
                         "0.9999995"};
  for (const char* v : valid)
    for (const char* field : {"ts", "dur", "pid", "tid", "id", "bind_id"}) {
      std::string ev = std::string(R"({"ph":"X","name":"n",")") + field + "\":" + v + R"(,"cat":"c"})";
      Outcome o = compare(ev);
      CHECK_MESSAGE(o.fast, ev);
      CHECK_MESSAGE(o.equal, ev, "\nfast: ", o.fast_text, "\nref:  ", o.ref_text);
    }
  // As an arg, and in an int array: an integer parsed while scanning equals parse_int64 of its text.
  for (const char* v : valid) {
    std::string ev = std::string(R"({"ph":"X","args":{"v":)") + v + R"(,"grid":[)" + v + "," + v + "]}}";
    Outcome o = compare(ev);
    CHECK_MESSAGE((o.fast && o.equal), ev, "\nfast: ", o.fast_text, "\nref:  ", o.ref_text);
    RawEvent e;
    SeparatorCache separators;
    REQUIRE(fast_decode_event(ev.data(), ev.size(), e, separators));
    const RawArg* a = e.arg("v");
    REQUIRE(a != nullptr);
    int64_t x = 0;
    bool parsed = parse_int64(a->text, x);
    size_t digits = a->text.size() - (a->text[0] == '-');
    bool plain = std::string_view(v).find_first_of(".eE") == std::string_view::npos && digits <= 18;
    CHECK_MESSAGE(a->has_int == plain, v);
    if (a->has_int) CHECK_MESSAGE((parsed && x == a->int_value), v);
  }
  for (const char* v : {"00", "-01", "1.", "-", "1.e5", "1e", "--1", "0x10", ".5", "1.5.5"}) {
    std::string ev = std::string(R"({"ph":"X","ts":)") + v + R"(,"pid":)" + v + "}";
    CHECK_MESSAGE(!compare(ev).fast, ev);
  }
}

TEST_CASE("fast decode: numbers with 16 bytes or more after them (read a word at a time) give decode()'s values") {
  // The plain forms' digit runs are measured and summed 8 bytes at a time when 16 bytes follow;
  // every run length around the words' edges and the forms' limits (15 integer digits for times,
  // 18 for integers), with and without a sign, a leading zero or a fraction, random digits.
  std::mt19937_64 rng(17);
  const std::string tail = R"(,"cat":"a category long enough to read past"})";
  for (size_t n = 1; n <= 20; ++n)
    for (int frac : {-1, 0, 1, 3, 4, 9, 17})
      for (const char* sign : {"", "-"})
        for (int lead : {0, 1}) {
          std::string v = sign;
          for (size_t k = 0; k < n; ++k) v += char('0' + (k == 0 && !lead ? 1 + rng() % 9 : k == 0 ? 0 : rng() % 10));
          if (frac >= 0) v += ".";
          for (int k = 0; k < frac; ++k) v += char('0' + rng() % 10);
          for (const char* field : {"ts", "dur", "pid", "id"}) {
            std::string ev = std::string(R"({"ph":"X","name":"n",")") + field + "\":" + v + tail;
            Outcome o = compare(ev);
            CHECK_MESSAGE(o.fast == ((n == 1 || lead == 0) && frac != 0), ev);  // every valid number
            CHECK_MESSAGE(o.equal, ev, "\nfast: ", o.fast_text, "\nref:  ", o.ref_text);
          }
          std::string ev = std::string(R"({"ph":"X","args":{"v":)") + v + "}" + tail;
          RawEvent e;
          SeparatorCache separators;
          if (!fast_decode_event(ev.data(), ev.size(), e, separators)) continue;  // (the invalid forms)
          const RawArg* a = e.arg("v");
          REQUIRE(a != nullptr);
          int64_t x = 0;
          if (a->has_int) CHECK_MESSAGE((parse_int64(a->text, x) && x == a->int_value), v);
          CHECK_MESSAGE(a->has_int == (frac < 0 && n <= 18 && (n == 1 || lead == 0)), v);
        }
}

TEST_CASE("fast decode: mutated real events are rejected or decoded exactly like decode()") {
  std::vector<std::string> events = events_of(read_trace(kNccl));
  REQUIRE(events.size() > 1000);
  std::mt19937 rng(20261130);
  const char kBytes[] = "{}[]\":,\\ 0123456789.eE+-tfnulx\t\n\xc3\xa9\xff";
  size_t accepted = 0, cases = 6000;
  for (size_t c = 0; c < cases; ++c) {
    std::string ev = events[rng() % events.size()];
    for (int m = 1 + int(rng() % 3); m > 0 && !ev.empty(); --m) {
      size_t at = rng() % ev.size();
      char b = kBytes[rng() % (sizeof(kBytes) - 1)];
      switch (rng() % 3) {
        case 0: ev[at] = b; break;
        case 1: ev.insert(ev.begin() + at, b); break;
        default: ev.erase(at, 1); break;
      }
    }
    Outcome o = compare(ev);
    accepted += o.fast;
    CHECK_MESSAGE(o.equal, ev, "\nfast: ", o.fast_text, "\nref:  ", o.ref_text);
  }
  MESSAGE("mutations accepted by the fast path: ", accepted, " of ", cases);
  CHECK(accepted > cases / 10);  // mutations inside string contents stay clean
  CHECK(accepted < cases);
}

TEST_CASE("fast decode: whole imports are identical with the fast path on and off" * doctest::test_suite("corpus")) {
  std::vector<std::string> files = data_json_traces();
  std::mt19937 pick(7);
  std::vector<std::string> chosen = {kNccl};
  for (int i = 0; i < 6; ++i) chosen.push_back(files[pick() % files.size()]);
  uint32_t seed = 1;
  for (const std::string& f : chosen) {
    std::string text = read_trace(f);
    const std::string expected = fingerprint(*import_mode(text, false, seed, 1 << 20));
    for (int round = 0; round < 2; ++round) {
      ++seed;
      size_t max_chunk = seed % 2 ? 4099 : (size_t(1) << 20);
      std::string got = fingerprint(*import_mode(text, true, seed, max_chunk));
      CHECK_MESSAGE(got == expected, f, " chunks <= ", max_chunk, "\n", first_difference(expected, got));
    }
  }
}

TEST_CASE("fast decode: odd events among clean ones give the simdjson path's model and problems") {
  std::string text = "[";
  const char* odd[] = {
      R"({"ph":"X","name":"dup","ph":"X","ts":1,"dur":1,"pid":1,"tid":1})",
      "{\"ph\":\"X\",\"name\":\"bad\xff utf8\",\"ts\":1,\"dur\":1,\"pid\":1,\"tid\":1}",
      R"({"ph":"X","name":"esc\"aped","ts":2,"dur":1,"pid":1,"tid":1,"args":{"correl\u0061tion":5}})",
      R"({"ph":"X","name":"bad number","x":01,"ts":3,"dur":1,"pid":1,"tid":1})",
      R"({"ph":"X","name":"trailing","ts":3,"dur":1,"pid":1,"tid":1,})",
      R"({"ph":"s","id2":{"local":"0x1"},"cat":"f","name":"fl","ts":4,"pid":1,"tid":1})",
      R"({"ph":"f","id2":{"local":"0x1"},"cat":"f","name":"fl","bp":"e","ts":5,"pid":1,"tid":1})",
  };
  for (int i = 0; i < 300; ++i) {
    text += i % 5 == 2 ? odd[(i / 5) % 7]
                       : R"({"ph":"X","cat":"kernel","name":"k)" + std::to_string(i % 7) +
                             R"(","pid":0,"tid":7,"ts":)" + std::to_string(1000 + i * 10) +
                             R"(.125,"dur":5,"args":{"correlation":)" + std::to_string(i) + R"(,"grid":[1,2,3]}})";
    text += ",";
  }
  text += "{}]";
  const std::string expected = fingerprint(*import_mode(text, false, 1, text.size() + 1));
  for (uint32_t seed = 1; seed <= 3; ++seed) {
    std::string got = fingerprint(*import_mode(text, true, seed, seed == 1 ? text.size() + 1 : 97));
    CHECK_MESSAGE(got == expected, "seed ", seed, "\n", first_difference(expected, got));
  }
}

TEST_CASE("fast decode: strings and numbers of every length around the 8- and 16-byte steps") {
  for (size_t len = 0; len <= 40; ++len) {
    std::string name(len, 'a');
    for (size_t k = 0; k < len; ++k) name[k] = char('a' + k % 26);
    std::string digits(len + 1, '7');
    Outcome o = compare(R"({"ph":"X","name":")" + name + R"(","ts":)" + digits + "." + digits + "}");
    CHECK_MESSAGE(o.fast, len);
    CHECK_MESSAGE(o.equal, len, "\nfast: ", o.fast_text, "\nref:  ", o.ref_text);
    for (size_t at = 0; at < len; ++at) {
      for (const char* bad : {"\\\\", "\t", "\x7f\xff", "\xc3\xa9"}) {
        std::string n2 = name.substr(0, at) + bad + name.substr(at);
        Outcome b = compare(R"({"ph":"X","name":")" + n2 + R"("})");
        bool clean = std::string_view(bad) == "\xc3\xa9";  // valid UTF-8
        CHECK_MESSAGE(b.fast == clean, len, " at ", at, " ", n2);
        CHECK_MESSAGE(b.equal, n2, "\nfast: ", b.fast_text, "\nref:  ", b.ref_text);
      }
      std::string d2 = digits.substr(0, at) + "x" + digits.substr(at);
      CHECK_MESSAGE(!compare(R"({"ph":"X","ts":)" + d2 + "}").fast, d2);
    }
  }
}

TEST_CASE("fast decode: an object in place ends at its closing brace, and only when it is complete") {
  // The splitter offers each event with the rest of its chunk: the object's length must be exact
  // whatever follows it, and a cut anywhere inside must be declined (0), never read past.
  const std::string ev =
      R"({"ph": "X", "cat": "kernel", "name": "k{[\u00e9", "pid": 1, "tid": "s", "ts": 5.5, "args": {"grid": [1, 2], "o": {"a": [{}]}}})";
  const std::string clean = R"({"ph": "X", "name": "k}]", "ts": 1.25, "args": {"x": [[1]], "y": {"z": "}"}}})";
  RawEvent e, whole;
  SeparatorCache separators;
  CHECK(fast_decode_object(ev.data(), ev.size(), e, separators) == 0);  // an escape: left to simdjson
  REQUIRE(fast_decode_event(clean.data(), clean.size(), whole, separators));
  const std::string expected = describe(whole);
  for (const char* after : {"", ",", " ,{\"ph\":\"E\"}", "]}", "}}}", "garbage"}) {
    std::string text = clean + after;
    std::vector<char> exact(text.begin(), text.end());
    REQUIRE(fast_decode_object(exact.data(), exact.size(), e, separators) == clean.size());
    CHECK(describe(e) == expected);
  }
  for (size_t cut = 0; cut < clean.size(); ++cut) {
    std::vector<char> part(clean.begin(), clean.begin() + cut);  // exact size: ASan sees any overread
    CHECK_MESSAGE(fast_decode_object(part.data(), part.size(), e, separators) == 0, "cut at ", cut);
  }
  std::string spaced = "  " + clean;
  CHECK(fast_decode_object(spaced.data(), spaced.size(), e, separators) == 0);  // must start at the '{'
}

TEST_CASE("fast decode: remembered separators never change a result, whatever the layouts in a row") {
  // One SeparatorCache across thousands of events of random layout: keys of the event and of args
  // in random order and spacing (also separators longer than the 32 bytes remembered, keys that
  // prefix each other, the same bytes at event and args level, more successors than a node keeps,
  // more distinct separators than the cache holds). Each event is decoded in place with bytes after
  // it, so the remembered separators apply up to its end, and compared with simdjson's decode().
  // Some objects are invalid by a comma right after their '{' (a remembered `, "key": ` must not
  // match there), and some args are not objects, so the same node is followed by both kinds.
  std::mt19937 rng(42);
  auto pick = [&](std::initializer_list<const char*> l) { return *(l.begin() + rng() % l.size()); };
  auto space = [&]() -> std::string {
    switch (rng() % 6) {
      case 0: return "";
      case 1: return " ";
      case 2: return "\n    ";
      case 3: return std::string(rng() % 40, ' ');
      default: return rng() % 2 ? " " : "";
    }
  };
  auto value = [&]() -> std::string {
    return pick({"1", "-2.5", "\"s\"", "\"X\"", "true", "null", "[1,2,3]", "{\"a\":{\"ts\":1}}", "17.125", "{}"});
  };
  static EventDecoder decoder;
  static RawEvent fast_ev, ref_ev;
  SeparatorCache separators;
  int accepted = 0;
  const int kEvents = 20000;
  for (int i = 0; i < kEvents; ++i) {
    std::string ev = "{";
    int fields = int(rng() % 9);
    bool valid = true;
    auto comma = [&](bool first) {
      if (!first) {
        ev += space() + ",";
      } else if (rng() % 40 == 0) {
        ev += space() + ",";
        valid = false;
      }
    };
    for (int f = 0; f < fields; ++f) {
      comma(f == 0);
      std::string key = pick({"ph", "pid", "tid", "ts", "tss", "t", "dur", "name", "cat", "id", "args", "s", "bp",
                              "bind_id", "flow_in", "flow_out", "External id", "x"});
      if (rng() % 50 == 0) key = "k" + std::to_string(rng() % 600);  // many distinct separators
      ev += space() + "\"" + key + "\"" + space() + ":" + space();
      if (key == "args" && rng() % 4) {
        ev += "{";
        int n = int(rng() % 7);
        for (int a = 0; a < n; ++a) {
          comma(a == 0);
          ev += space() + "\"" + pick({"ts", "correlation", "External id", "grid", "a", "stream", "device"}) + "\"" +
                space() + ":" + space() + value();
        }
        ev += space() + "}";
      } else if (key == "ph") {
        ev += pick({"\"X\"", "\"B\"", "\"i\""});
      } else {
        ev += value();
      }
    }
    ev += space() + "}";
    std::string buf = ev + ", " + std::string(40, ' ');
    size_t len = fast_decode_object(buf.data(), buf.size(), fast_ev, separators);
    if (len == 0) continue;
    REQUIRE_MESSAGE(valid, "accepted an invalid event: " << ev);
    ++accepted;
    REQUIRE_MESSAGE(len == ev.size(), ev);
    std::string padded = ev + std::string(simdjson::SIMDJSON_PADDING, ' ');
    DecodeResult r = decoder.decode(padded.data(), ev.size(), padded.size(), ref_ev);
    REQUIRE_MESSAGE(r == DecodeResult::kOk, ev);
    CHECK_MESSAGE(describe(fast_ev) == describe(ref_ev), ev);
  }
  CHECK(accepted > kEvents / 2);
}

TEST_CASE("fast decode: a remembered separator with a comma never opens an object") {
  // After "args" a non-object value is followed by `,"ts":`; the same bytes right after an args
  // object's '{' are invalid JSON and must not be taken for that separator.
  SeparatorCache separators;
  RawEvent e;
  std::string first = R"({"ph":"X","args":5,"ts":1})" + std::string(40, ' ');
  REQUIRE(fast_decode_object(first.data(), first.size(), e, separators) > 0);
  for (const char* bad : {R"({"ph":"X","args":{,"ts":1}})", R"({"ph":"X","args":{,"ts":1},"ts":1})"}) {
    std::string text = std::string(bad) + std::string(40, ' ');
    CHECK_MESSAGE(fast_decode_object(text.data(), text.size(), e, separators) == 0, bad);
  }
}
