// core/inflate against zlib: real gzip files, zlib's streams at every level and strategy with flush
// points, fed in chunks of every size down to one byte; multi-member files and each kind of damage
// with the damage zlib's rules give; and a mutation fuzz whose every case must inflate exactly as
// zlib does (bytes and damage), without a crash (it runs under ASan + UBSan too).
#include <doctest/doctest.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "core/inflate/crc32.h"
#include "tests/core/fuzz_util.h"
#include "tests/core/inflate_util.h"

namespace tw::test {

namespace {

Bytes read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(f), {});
}

Bytes concat(std::initializer_list<Bytes> parts) {
  Bytes out;
  for (const Bytes& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

// A gzip member of `data` with the header fields the flags ask for (FEXTRA, FNAME, FCOMMENT, FHCRC).
Bytes member_with_fields(const Bytes& data, uint8_t flags, bool good_header_crc = true) {
  Bytes head = {0x1f, 0x8b, 8, flags, 1, 2, 3, 4, 0, 3};
  if (flags & 0x04) head.insert(head.end(), {5, 0, 'a', 'b', 'c', 'd', 'e'});
  if (flags & 0x08) head.insert(head.end(), {'n', 'a', 'm', 'e', 0});
  if (flags & 0x10) head.insert(head.end(), {'a', ' ', 'c', 'o', 'm', 'm', 'e', 'n', 't', 0});
  if (flags & 0x02) {
    const uint32_t crc =
        static_cast<uint32_t>(::crc32(0, head.data(), static_cast<uInt>(head.size()))) ^ (good_header_crc ? 0 : 1);
    head.push_back(static_cast<uint8_t>(crc));
    head.push_back(static_cast<uint8_t>(crc >> 8));
  }
  const Bytes whole = zlib_gzip(data, 6);
  head.insert(head.end(), whole.begin() + 10, whole.end());
  return head;
}

}  // namespace

TEST_CASE("crc32 equals zlib's at every length and alignment") {
  std::mt19937 rng(7);
  const Bytes data = test_data(rng, 4096, 0);
  for (size_t from = 0; from < 17; ++from)
    for (size_t n : {0, 1, 15, 16, 17, 31, 33, 1000, 4000}) {
      if (from + n > data.size()) continue;
      const uint32_t want = static_cast<uint32_t>(::crc32(0, data.data() + from, static_cast<uInt>(n)));
      CHECK(tw::inflate::crc32(0, data.data() + from, n) == want);
      // In two pieces, as the inflater runs it.
      CHECK(tw::inflate::crc32(tw::inflate::crc32(0, data.data() + from, n / 3), data.data() + from + n / 3,
                               n - n / 3) == want);
    }
}

TEST_CASE("every .gz of the test data inflates as zlib inflates it") {
  int files = 0;
  std::mt19937 rng(11);
  for (const auto& e : std::filesystem::recursive_directory_iterator(data_dir())) {
    if (!e.is_regular_file() || e.path().extension() != ".gz") continue;
    const Bytes gz = read_file(e.path().string());
    const Inflated want = zlib_inflate(gz);
    INFO(e.path().string());
    CHECK(want.damage.empty());
    CHECK(own_inflate(gz) == want);
    CHECK(own_inflate(
              gz, [&] { return 1 + rng() % 70000; }, 8192) == want);
    ++files;
  }
  CHECK(files >= 10);
}

TEST_CASE("zlib's streams at every level and strategy, with flush points, in chunks down to one byte") {
  std::mt19937 rng(3);
  int cases = 0;
  for (int kind = 0; kind < 4; ++kind)
    for (int level : {0, 1, 6, 9})
      for (int strategy : {Z_DEFAULT_STRATEGY, Z_FIXED, Z_HUFFMAN_ONLY, Z_RLE})
        for (int flush : {Z_NO_FLUSH, Z_SYNC_FLUSH, Z_FULL_FLUSH}) {
          const size_t n = 1 + rng() % 150000;
          const Bytes data = test_data(rng, n, kind);
          const Bytes gz = zlib_gzip(data, level, strategy, flush, flush == Z_NO_FLUSH ? 0 : 1 + rng() % 20000);
          INFO("kind " << kind << " level " << level << " strategy " << strategy << " flush " << flush);
          const std::string want = as_string(data);
          const Inflated whole = own_inflate(gz);
          CHECK(whole.out == want);
          CHECK(whole.damage.empty());
          const Inflated random_chunks = own_inflate(
              gz, [&] { return 1 + rng() % 3000; }, 4096);
          CHECK(random_chunks.out == want);
          CHECK(random_chunks.damage.empty());
          if (cases++ % 8 == 0) {
            const Inflated bytewise = own_inflate(
                gz, [] { return 1; }, 4096);
            CHECK(bytewise.out == want);
            CHECK(bytewise.damage.empty());
          }
        }
}

TEST_CASE("a stream longer than the output room and the window, with distances across refills") {
  std::mt19937 rng(5);
  const Bytes data = test_data(rng, 3 << 20, 3);
  const Bytes gz = zlib_gzip(data, 9);
  CHECK(own_inflate(gz).out == as_string(data));
  CHECK(own_inflate(
            gz, [&] { return 1 + rng() % 100000; }, 40000)
            .out == as_string(data));
}

TEST_CASE("input_used: the compressed bytes the output so far came from, all of them at the end") {
  std::mt19937 rng(7);
  const Bytes data = test_data(rng, 4 << 20, 3);
  const Bytes gz = zlib_gzip(data, 6);
  // Output room 64 KB, input fed in 256 KB pieces: after each piece of output, the bytes used are
  // about the ratio's share of it (the inflater reads at most one symbol and a 64-bit buffer ahead),
  // never more than were committed, and never fewer than before.
  tw::inflate::GzipInflater inf(size_t(1) << 18, size_t(1) << 16);
  size_t at = 0, out = 0, checked = 0;
  uint64_t last = 0;
  for (;;) {
    const auto s = inf.inflate();
    if (s.empty()) {
      if (at == gz.size()) break;
      at += inf.push(gz.data() + at, std::min<size_t>(gz.size() - at, 256 << 10));
      if (at == gz.size()) inf.end_input();
      continue;
    }
    out += s.size();
    const uint64_t used = inf.input_used();
    CHECK(used >= last);
    CHECK(used <= at);
    const double share = double(gz.size()) * double(out) / double(data.size());
    CHECK(std::abs(double(used) - share) < 0.02 * double(gz.size()));
    last = used;
    ++checked;
  }
  CHECK(out == data.size());
  CHECK(checked > 50);
  CHECK(inf.input_used() == gz.size());
}

TEST_CASE("multi-member files, header fields, and each kind of damage as zlib's rules say") {
  std::mt19937 rng(9);
  const Bytes a = test_data(rng, 70000, 3), b = test_data(rng, 50000, 1);
  const Bytes ga = zlib_gzip(a, 6), gb = zlib_gzip(b, 1);
  auto flipped = [](Bytes g, size_t from_end) {
    g[g.size() - from_end] ^= 1;
    return g;
  };
  auto check_like_zlib = [&](const Bytes& gz, const std::string& what) {
    INFO(what);
    const Inflated want = zlib_inflate(gz);
    CHECK(own_inflate(gz) == want);
    CHECK(own_inflate(
              gz, [&] { return 1 + rng() % 500; }, 4096) == want);
    return want;
  };
  const Inflated two = check_like_zlib(concat({ga, gb}), "two members");
  CHECK(two.out == as_string(a) + as_string(b));
  CHECK(two.damage.empty());
  const Inflated bad_crc = check_like_zlib(concat({flipped(ga, 8), gb}), "bad CRC-32 in member 1");
  CHECK(bad_crc.out == as_string(a) + as_string(b));
  REQUIRE(bad_crc.damage.size() == 1);
  CHECK(bad_crc.damage[0].kind == GzipDamage::Kind::kTrailer);
  CHECK(bad_crc.damage[0].member == 1);
  const Inflated bad_size = check_like_zlib(concat({ga, flipped(gb, 1)}), "bad size in member 2");
  REQUIRE(bad_size.damage.size() == 1);
  CHECK(bad_size.damage[0].member == 2);
  const Inflated junk = check_like_zlib(concat({ga, Bytes{'j', 'u', 'n', 'k'}, gb}), "junk between members");
  CHECK(junk.out == as_string(a));
  REQUIRE(junk.damage.size() == 1);
  CHECK(junk.damage[0].kind == GzipDamage::Kind::kCorrupt);
  check_like_zlib(concat({ga, Bytes{0x1f}}), "one stray byte");
  check_like_zlib(concat({ga, Bytes{0x1f, 0x8b, 8, 0}}), "a header cut short");
  check_like_zlib(concat({ga, Bytes{0x1f, 0x8b, 9, 0}}), "method 9");
  check_like_zlib(concat({ga, Bytes{0x1f, 0x8b, 8, 0x20, 0, 0, 0, 0, 0, 0}}), "a reserved flag");
  check_like_zlib(Bytes{}, "empty");
  for (uint8_t flags : {0x02, 0x04, 0x08, 0x10, 0x1e, 0x1f}) {
    const Inflated fields = check_like_zlib(concat({member_with_fields(a, flags), gb}), "flags");
    CHECK(fields.out == as_string(a) + as_string(b));
    CHECK(fields.damage.empty());
  }
  const Inflated bad_hcrc = check_like_zlib(member_with_fields(a, 0x1e, false), "wrong header CRC");
  CHECK(bad_hcrc.out.empty());
  REQUIRE(bad_hcrc.damage.size() == 1);
  CHECK(bad_hcrc.damage[0].kind == GzipDamage::Kind::kCorrupt);
  // Cut at every length: a prefix of the output, truncated, as zlib gives it.
  const Bytes small = zlib_gzip(test_data(rng, 3000, 3), 6);
  const Bytes both = concat({small, small});
  for (size_t cut = 0; cut <= both.size(); ++cut) {
    const Bytes part(both.begin(), both.begin() + cut);
    INFO("cut at " << cut);
    const Inflated want = zlib_inflate(part);
    CHECK(own_inflate(part) == want);
    CHECK(own_inflate(
              part, [] { return 7; }, 4096) == want);
  }
}

TEST_CASE("crafted deflate data: stored lengths, incomplete and over-subscribed codes, far distances") {
  auto gzip_of_raw = [](const Bytes& raw) {
    Bytes g = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3};
    g.insert(g.end(), raw.begin(), raw.end());
    g.insert(g.end(), 8, 0);
    return g;
  };
  const std::vector<Bytes> raws = {
      {0x01, 0x03, 0x00, 0xfc, 0xff, 'a', 'b', 'c'},  // stored, right lengths
      {0x01, 0x03, 0x00, 0xfc, 0xfe, 'a', 'b', 'c'},  // stored, NLEN wrong
      {0x07},                                         // block type 3
      {0x03, 0x00},                                   // fixed, empty
      {0x63, 0x00, 0x02, 0x00},                       // fixed: a literal and a match before any output
      {0x05, 0xe0, 0xff, 0xff, 0xff, 0xff},           // dynamic, mostly ones
      {0x05, 0x00, 0x00, 0x00, 0x00, 0x00},           // dynamic, zeros
      {0x04, 0x00, 0x00, 0x00},
  };
  for (const Bytes& raw : raws) {
    const Bytes gz = gzip_of_raw(raw);
    const Inflated want = zlib_inflate(gz);
    INFO(describe(want));
    CHECK(own_inflate(gz) == want);
    CHECK(own_inflate(
              gz, [] { return 1; }, 4096) == want);
  }
}

TEST_CASE("mutated gzip files inflate exactly as zlib inflates them") {
  std::mt19937 rng(fuzz_seed(20261205));
  std::vector<Bytes> seeds;
  for (int kind = 0; kind < 4; ++kind)
    for (int level : {1, 6, 9}) seeds.push_back(zlib_gzip(test_data(rng, 200 + rng() % 4000, kind), level));
  seeds.push_back(zlib_gzip(test_data(rng, 3000, 1), 6, Z_FIXED));
  seeds.push_back(zlib_gzip(test_data(rng, 3000, 2), 0));
  seeds.push_back(concat({seeds[1], seeds[5]}));
  const int rounds = fuzz_rounds(3000);
  int full = 0;
  for (int round = 0; round < rounds; ++round) {
    Bytes gz = seeds[rng() % seeds.size()];
    const int mutations = 1 + static_cast<int>(rng() % 4);
    for (int m = 0; m < mutations && !gz.empty(); ++m) {
      const size_t at = rng() % gz.size();
      switch (rng() % 5) {
        case 0: gz[at] ^= static_cast<uint8_t>(1u << (rng() % 8)); break;
        case 1: gz[at] = static_cast<uint8_t>(rng()); break;
        case 2: gz.erase(gz.begin() + at, gz.begin() + std::min(gz.size(), at + 1 + rng() % 16)); break;
        case 3: gz.insert(gz.begin() + at, static_cast<uint8_t>(rng())); break;
        case 4: gz.resize(at); break;
      }
    }
    const Inflated want = zlib_inflate(gz);
    full += want.damage.empty();
    INFO("round " << round << ": zlib " << describe(want));
    const Inflated whole = own_inflate(gz);
    CHECK_MESSAGE(whole == want, describe(whole));
    if (round % 4 == 0) {
      const Inflated chunked = own_inflate(
          gz, [&] { return 1 + rng() % 64; }, 4096);
      CHECK_MESSAGE(chunked == want, describe(chunked));
    }
  }
  CHECK(full > 0);
}

}  // namespace tw::test
