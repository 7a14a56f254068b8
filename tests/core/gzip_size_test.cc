// The inflated size of a gzip file for the importer's size hint (core/inflate/gzip_size.h), as the
// CLI uses it (cli/load_trace.cc); the page's, through wasm, on real trailers:
// tests/wasm/gzip_size.test.mjs.
#include <doctest/doctest.h>

#include <cmath>
#include <initializer_list>

#include "core/inflate/gzip_size.h"

using tw::inflate::gzip_size_guess;
using tw::inflate::kRefineGzipHintAt;

namespace {
constexpr uint64_t G = uint64_t(1) << 32;
}

TEST_CASE("gzip size: below 4 GiB the trailer is the size, first and refined") {
  const uint64_t size = 300'000'000, compressed = 30'000'000;
  CHECK(gzip_size_guess(size, compressed) == size);
  CHECK(gzip_size_guess(size, compressed, kRefineGzipHintAt, kRefineGzipHintAt / 10) == size);
  CHECK(gzip_size_guess(size, compressed, size - 1, compressed) == size);
}

TEST_CASE("gzip size: past 4 GiB the ratio picks the size among those the trailer allows") {
  // A 10 GB DeepSeek trace at gzip -1: 925 MB.
  const uint64_t size = (uint64_t(9536) << 20) + 12345, compressed = 925'000'000, isize = size % G;
  CHECK(gzip_size_guess(isize, compressed) == isize);  // all the trailer says: too small
  for (double off : {0.9, 1.0, 1.1}) {
    CAPTURE(off);
    const auto used = static_cast<uint64_t>(std::llround(double(kRefineGzipHintAt) * compressed / double(size) / off));
    CHECK(gzip_size_guess(isize, compressed, kRefineGzipHintAt, used) == size);
  }
  // Far off: still a size the trailer allows, above what came out.
  const uint64_t far = gzip_size_guess(isize, compressed, kRefineGzipHintAt, kRefineGzipHintAt * compressed / size * 2);
  CHECK((far - isize) % G == 0);
  CHECK(far > kRefineGzipHintAt);
}

TEST_CASE("gzip size: a trailer below the compressed size, and sizes that make no sense") {
  CHECK(gzip_size_guess(1000, 5'000'000'000) == 1000 + 2 * G);
  CHECK(gzip_size_guess(1000, 1'000'000, 3'000'000, 100'000) == 1000 + G);  // above what came out
  CHECK(gzip_size_guess(100, 0) == 0);
  CHECK(gzip_size_guess(G, 100) == 0);               // not a 32-bit field
  CHECK(gzip_size_guess(100, 1000, 50, 0) == 0);     // nothing used
  CHECK(gzip_size_guess(100, 1000, 50, 2000) == 0);  // used more than the file
}
