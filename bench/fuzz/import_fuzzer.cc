// libFuzzer harness for the importer (bench/fuzz/README.md; `make fuzz`). Each input is a trace file
// as the CLI or the page would receive it, and goes through the whole pipeline three ways:
//  1. pushed in chunks whose sizes come from the input (the page's slices and the CLI's reads fall
//     anywhere), finished and summarised: no crash or undefined behaviour (the sanitizers), and the
//     summary is valid JSON;
//  2. pushed whole: the model, problems and stats are those of (1), byte for byte (the streaming
//     importer must not depend on where chunks end; tests/core/import_test_util.h);
//  3. imported in two or three parts cut at points taken from the input, the later parts absorbed
//     (import_parts.h): again the model of (1), because a wrong cut may cost time, never change the
//     model (tests/core/import_parts_fuzz_test.cc states the same rule on random mutations).
// A broken invariant aborts with both fingerprints' first difference, so libFuzzer saves the input.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "core/session.h"
#include "tests/core/import_fingerprint.h"
#include "tests/core/import_parts_util.h"

namespace {

// A small deterministic generator seeded from the input, so that a saved crash reproduces.
struct InputRng {
  uint64_t state;
  explicit InputRng(std::string_view text) : state(0x9E3779B97F4A7C15ull ^ text.size()) {
    // FNV-1a over at most 64 bytes at each end: enough to vary with the mutations, cheap on 256 KB.
    size_t n = text.size() < 128 ? text.size() : 64;
    for (size_t i = 0; i < n; ++i) state = (state ^ uint8_t(text[i])) * 0x100000001B3ull;
    for (size_t i = text.size() - n; i < text.size() && text.size() >= 128; ++i)
      state = (state ^ uint8_t(text[i])) * 0x100000001B3ull;
  }
  uint64_t next() {  // splitmix64
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
};

[[noreturn]] void fail(const char* what, const std::string& expected, const std::string& got) {
  std::fprintf(stderr, "import_fuzzer: %s\n%s\n", what, tw::test::first_difference(expected, got).c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  InputRng rng(text);

  // 1. Chunked, the whole pipeline. Small chunks on small inputs, up to 64 KB on large ones.
  const size_t max_chunk = size_t(1) << (rng.next() % 17);
  tw::Session session("fuzz");
  for (size_t pos = 0; pos < size;) {
    size_t n = std::min<size_t>(1 + rng.next() % max_chunk, size - pos);
    std::vector<char> chunk(text.begin() + pos, text.begin() + pos + n);  // exactly sized, for ASan
    session.push(chunk.data(), n);
    pos += n;
  }
  session.finish();
  const std::string chunked = tw::test::fingerprint(session.importer());
  if (!session.failed()) {
    const std::string summary = session.summary_json();
    if (!nlohmann::json::accept(summary)) fail("the summary is not valid JSON", "", summary.substr(0, 200));
  }

  // 2. Whole.
  const std::string whole = tw::test::fingerprint(*tw::test::import_whole(text));
  if (whole != chunked) fail("chunked import differs from the whole import", whole, chunked);

  // 3. In parts: at likely event starts (where the page and the CLI cut) or anywhere.
  if (size < 2) return 0;
  std::vector<uint64_t> starts;
  const int parts = 2 + static_cast<int>(rng.next() % 2);
  if (rng.next() % 2) {
    starts = tw::test::likely_starts(text, parts);
  } else {
    for (int k = 1; k < parts; ++k) starts.push_back(1 + rng.next() % (size - 1));
    std::sort(starts.begin(), starts.end());
    starts.erase(std::unique(starts.begin(), starts.end()), starts.end());
  }
  if (starts.empty()) return 0;
  const bool through_bytes = rng.next() % 2;
  tw::test::PartsImport r =
      tw::test::import_in_parts(text, starts, static_cast<uint32_t>(rng.next()), max_chunk, through_bytes);
  const std::string in_parts = tw::test::fingerprint(*r.importer);
  if (in_parts != chunked) fail("the parts import differs from the whole import", chunked, in_parts);
  return 0;
}
