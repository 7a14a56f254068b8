// Decoding on another thread (event_records.h, ImportState::set_deferred_decode): batches are kept,
// decoded into records elsewhere and handed back in order. Whatever records come back (all, none,
// some, cut short, corrupt), the model and the problems must be those of the ordinary import.
#include <doctest/doctest.h>

#include <deque>
#include <random>
#include <string>
#include <vector>

#include "core/import/event_records.h"
#include "core/import/import_state.h"
#include "tests/core/import_modes_util.h"
#include "tests/core/test_data.h"

using namespace tw;
using namespace tw::test;

namespace {

enum class Records { kAll, kNone, kMixed };

// Imports `text` in random chunks with deferred decoding. After each push, each new batch is encoded
// as the decode worker would; the oldest batches are applied when more than a random number (0..3)
// wait, as the worker's replies would arrive. kMixed sometimes applies a batch without records or
// with its records cut short (a failed worker). Records are not checksummed: they come from our own
// worker, so a flipped byte is not a case to recover from, only one to survive (last test case).
ImporterPtr import_deferred(std::string_view text, uint32_t seed, size_t max_chunk, Records mode) {
  auto imp = std::make_unique<TraceImporter>();
  imp->set_deferred_decode(true);
  std::mt19937 rng(seed);
  std::uniform_int_distribution<size_t> chunk(1, max_chunk);
  std::deque<std::vector<uint8_t>> replies;
  auto hand_out = [&] {
    while (const DeferredBatch* b = imp->next_outgoing()) {
      std::vector<uint8_t> rec;
      rec.resize(encode_batch_records(b->data.data(), b->refs.data(), b->refs.size(), rec));
      replies.push_back(std::move(rec));
    }
  };
  auto apply_one = [&] {
    std::vector<uint8_t> rec = std::move(replies.front());
    replies.pop_front();
    int how = mode == Records::kAll ? 0 : mode == Records::kNone ? 1 : static_cast<int>(rng() % 4);
    if (how == 2 && !rec.empty()) rec.resize(rng() % rec.size());
    if (how == 1) imp->apply_deferred(nullptr, 0);
    else imp->apply_deferred(rec.data(), rec.size());
  };
  for (size_t pos = 0; pos < text.size();) {
    size_t n = std::min(chunk(rng), text.size() - pos);
    std::vector<char> part(text.begin() + pos, text.begin() + pos + n);
    imp->push(part.data(), n);
    pos += n;
    hand_out();
    size_t keep = rng() % 4;
    while (replies.size() > keep) apply_one();
  }
  imp->end_input();
  hand_out();
  CHECK(imp->deferred_batches() == replies.size());
  while (!replies.empty()) apply_one();
  imp->finish();
  return imp;
}

void check_same(const std::string& label, std::string_view text, uint32_t seed) {
  const std::string expected = fingerprint(*import_mode(text, true, seed, 1 << 20));
  const Records modes[] = {Records::kAll, Records::kNone, Records::kMixed};
  for (Records mode : modes) {
    size_t max_chunk = seed % 2 ? 4099 : (size_t(1) << 20);
    std::string got = fingerprint(*import_deferred(text, seed++, max_chunk, mode));
    CHECK_MESSAGE(got == expected, label, " mode ", int(mode), "\n", first_difference(expected, got));
  }
}

}  // namespace

TEST_CASE("deferred decode: real traces give the ordinary import's model and problems" *
          doctest::test_suite("corpus")) {
  std::vector<std::string> files = data_json_traces();
  std::mt19937 pick(11);
  std::vector<std::string> chosen = {kNccl, data_path("deepseek_profile_data/train.json")};
  for (int i = 0; i < 6; ++i) chosen.push_back(files[pick() % files.size()]);
  uint32_t seed = 1;
  for (const std::string& f : chosen) {
    check_same(f, read_trace(f), seed);
    seed += 3;
  }
}

TEST_CASE("deferred decode: odd events and top-level values between batches keep their order") {
  // Large enough for several 2 MB batches, with metadata before and after the events and odd events
  // (escapes, bad UTF-8, duplicates, B/E pairs across batches) that only the local decoder takes.
  std::string text = R"({"schemaVersion":1,"deviceProperties":[{"id":0,"name":"GPU"}],"traceEvents":[)";
  for (int i = 0; i < 30000; ++i) {
    if (i % 997 == 5) text += R"({"ph":"X","name":"esc\"aped","ts":2,"dur":1,"pid":1,"tid":1},)";
    else if (i % 991 == 7) text += "{\"ph\":\"X\",\"name\":\"bad\xff utf8\",\"ts\":1,\"dur\":1,\"pid\":1,\"tid\":1},";
    else if (i % 983 == 9) text += R"({"ph":"X","name":"dup","ph":"X","ts":1,"dur":1,"pid":1,"tid":1},)";
    else if (i % 1000 == 11)
      text += R"({"ph":"B","name":"outer","ts":)" + std::to_string(i * 10) + R"(,"pid":1,"tid":2},)";
    else if (i % 1000 == 12) text += R"({"ph":"E","ts":)" + std::to_string(i * 10 + 5000) + R"(,"pid":1,"tid":2},)";
    else
      text += R"({"ph":"X","cat":"kernel","name":"k)" + std::to_string(i % 13) + R"(","pid":0,"tid":7,"ts":)" +
              std::to_string(1000 + i * 10) + R"(.125,"dur":5,"args":{"correlation":)" + std::to_string(i) +
              R"(,"grid":[1,2,3],"stream":7,"note":"some text to make batches fill"}},)";
  }
  text += R"({}],"distributedInfo":{"rank":3,"world_size":8,"backend":"nccl"},"displayTimeUnit":"ns","traceName":"t"})";
  check_same("synthetic", text, 5);
  check_same("synthetic, cut", text.substr(0, text.size() * 2 / 3), 8);
}

TEST_CASE("event records: nearly every event of a Kineto trace travels as a record") {
  std::string text = read_trace(kNccl);
  TraceImporter imp;
  imp.set_deferred_decode(true);
  imp.push(text.data(), text.size());
  imp.end_input();
  size_t events = 0, records = 0, known_ok = 0;
  static RawEvent e;
  while (const DeferredBatch* b = imp.next_outgoing()) {
    std::vector<uint8_t> rec;
    rec.resize(encode_batch_records(b->data.data(), b->refs.data(), b->refs.size(), rec));
    const uint8_t* cur = rec.data();
    for (const EventRef& r : b->refs) {
      events++;
      if (read_event_record(&cur, rec.data() + rec.size(), b->data.data() + r.begin, r.length, e) !=
          RecordRead::kDecoded)
        continue;
      records++;
      known_ok += known_args_agree(e);
    }
    CHECK(cur == rec.data() + rec.size());
  }
  CHECK(events > 10000);
  CHECK(records > events * 99 / 100);
  CHECK(known_ok == records);  // the record's args indexed by key as the decoders index them
}

TEST_CASE("event records: malformed or hostile records are declined, never read out of bounds") {
  const std::string ev = R"({"ph":"X","name":"k","ts":1.5,"dur":2,"pid":1,"tid":2,"args":{"grid":[1,2,3],"s":"x"}})";
  std::vector<char> text(ev.begin(), ev.end());
  EventRef ref{0, static_cast<uint32_t>(text.size()), 0};
  std::vector<uint8_t> rec;
  rec.resize(encode_batch_records(text.data(), &ref, 1, rec));
  REQUIRE(rec.size() > 1);
  CHECK(rec[0] == 1);
  static RawEvent e;
  const uint8_t* cur = rec.data();
  REQUIRE(read_event_record(&cur, rec.data() + rec.size(), text.data(), text.size(), e) == RecordRead::kDecoded);
  CHECK(cur == rec.data() + rec.size());
  CHECK(e.name == "k");
  CHECK(e.ts_ns == 1500);
  CHECK(e.n_args == 2);
  CHECK(e.arg(kArgGrid) == &e.args[0]);
  CHECK(e.arg(kArgCorrelation) == nullptr);
  CHECK(e.args[0].n_ints == 3);
  CHECK(e.args[1].text == "x");
  // The same record read against a shorter text: its views no longer fit and it is declined.
  cur = rec.data();
  CHECK(read_event_record(&cur, rec.data() + rec.size(), text.data(), 10, e) == RecordRead::kNone);
  CHECK(cur == rec.data() + rec.size());
  // An event the fast decoder declines (an escaped string) travels as status 0 only.
  const std::string odd = R"({"ph":"X","name":"esc\"aped","ts":1,"pid":1,"tid":1})";
  std::vector<char> odd_text(odd.begin(), odd.end());
  EventRef odd_ref{0, static_cast<uint32_t>(odd_text.size()), 0};
  std::vector<uint8_t> odd_rec;
  odd_rec.resize(encode_batch_records(odd_text.data(), &odd_ref, 1, odd_rec));
  REQUIRE(odd_rec.size() == 1);
  cur = odd_rec.data();
  CHECK(read_event_record(&cur, odd_rec.data() + 1, odd_text.data(), odd_text.size(), e) == RecordRead::kDeclined);
  CHECK(read_event_record(&cur, odd_rec.data() + 1, odd_text.data(), odd_text.size(), e) == RecordRead::kNone);
  // Random bytes: declined or read within bounds (ASan checks the latter).
  std::mt19937 rng(3);
  for (int i = 0; i < 20000; ++i) {
    std::vector<uint8_t> junk(1 + rng() % 160);
    for (uint8_t& b : junk) b = static_cast<uint8_t>(rng());
    junk[0] = 1;
    cur = junk.data();
    if (read_event_record(&cur, junk.data() + junk.size(), text.data(), text.size(), e) == RecordRead::kDecoded) {
      for (std::string_view v : {e.ph, e.name, e.cat, e.scope, e.bp})
        CHECK((v.data() == nullptr || (v.data() >= text.data() && v.data() + v.size() <= text.data() + text.size())));
      CHECK(known_args_agree(e));
    }
    CHECK(cur <= junk.data() + junk.size());
  }
}
