// Random mutations of real traces for the hostile-input tests: bytes flipped, ranges deleted or
// duplicated, JSON tokens and trace fields inserted, a byte between two events, truncation, swaps. TW_FUZZ_ROUNDS /
// TW_FUZZ_SEED run a longer or different fuzz session by hand.
#pragma once
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "cli/file_reader.h"
#include "tests/core/test_data.h"

namespace tw::test {

inline int fuzz_rounds(int default_rounds) {
  const char* env = std::getenv("TW_FUZZ_ROUNDS");
  return env ? std::atoi(env) : default_rounds;
}

inline uint32_t fuzz_seed(uint32_t default_seed) {
  const char* env = std::getenv("TW_FUZZ_SEED");
  return env ? static_cast<uint32_t>(std::atoi(env)) : default_seed;
}

// The texts of the test traces the import fuzz tests mutate: Kineto (object form, device
// properties before the events), a bare array with B/E and flows, flow v2 marks, and an object form
// with samples. Empty texts for files that could not be read (the tests REQUIRE their size).
inline std::vector<std::string> import_fuzz_seeds() {
  std::vector<std::string> texts;
  for (const char* rel : {"hta/tests/data/call_stack/backward_thread.json", "kineto/docs/traces/before_fix_trace.json",
                          "perfetto/test/trace_processor/diff_tests/parser/parsing/flow_events_json_v2.json",
                          "speedscope/sample/profiles/trace-event/simple-with-samples.json"}) {
    texts.push_back(read_data(rel));
  }
  return texts;
}

// 1-8 mutations of `text`.
inline std::string mutate_trace(std::string text, std::mt19937& rng) {
  static const char* tokens[] = {"{",
                                 "}",
                                 "[",
                                 "]",
                                 "\"",
                                 "\\",
                                 ",",
                                 ":",
                                 "1e400",
                                 "-0",
                                 "NaN",
                                 "\xff",
                                 "\xc3",
                                 "18446744073709551616",
                                 "\"ph\":\"B\"",
                                 "\"ph\":\"E\"",
                                 "\"ph\":\"f\"",
                                 "\"bind_id\":1,",
                                 "\"flow_in\":true,",
                                 "null",
                                 " ",
                                 "\"traceEvents\":[",
                                 "\xEF\xBB\xBF"};
  int mutations = 1 + static_cast<int>(rng() % 8);
  for (int k = 0; k < mutations && !text.empty(); ++k) {
    size_t pos = rng() % text.size();
    switch (rng() % 7) {
      case 0: text[pos] = static_cast<char>(rng()); break;                                // flip a byte
      case 1: text.erase(pos, 1 + rng() % 64); break;                                     // delete a range
      case 2: text.insert(pos, tokens[rng() % (sizeof tokens / sizeof *tokens)]); break;  // insert a token
      case 3: text.resize(pos); break;                                                    // truncate
      case 4: {                                                                           // duplicate a range
        size_t len = std::min<size_t>(1 + rng() % 200, text.size() - pos);
        text.insert(rng() % text.size(), text.substr(pos, len));
        break;
      }
      case 5: {  // a byte between two events: before a '{' that follows a ','
        size_t at = text.find('{', pos);
        while (at != std::string::npos) {
          size_t before = text.find_last_not_of(" \t\r\n", at == 0 ? 0 : at - 1);
          if (at > 0 && before != std::string::npos && text[before] == ',') break;
          at = text.find('{', at + 1);
        }
        if (at != std::string::npos) text.insert(at, 1, static_cast<char>(rng()));
        break;
      }
      default: {  // swap two bytes
        size_t other = rng() % text.size();
        std::swap(text[pos], text[other]);
      }
    }
  }
  return text;
}

}  // namespace tw::test
