// For the inflater's tests: zlib as the oracle (the CLI's gzip reading before core/inflate, with
// the same damage rules), zlib as the compressor of test streams, and core/inflate driven with
// input chunks of chosen sizes.
#pragma once
#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "core/inflate/gzip_inflater.h"

namespace tw::test {

using Bytes = std::vector<uint8_t>;
using tw::inflate::GzipDamage;

struct Inflated {
  std::string out;
  std::vector<GzipDamage> damage;
  bool operator==(const Inflated& o) const {
    if (out != o.out || damage.size() != o.damage.size()) return false;
    for (size_t i = 0; i < damage.size(); ++i)
      if (damage[i].kind != o.damage[i].kind ||
          (damage[i].kind == GzipDamage::Kind::kTrailer && damage[i].member != o.damage[i].member))
        return false;
    return true;
  }
};

inline std::string describe(const Inflated& r) {
  std::string s = std::to_string(r.out.size()) + " bytes;";
  for (const GzipDamage& d : r.damage)
    s += d.kind == GzipDamage::Kind::kTrailer     ? " trailer@" + std::to_string(d.member)
         : d.kind == GzipDamage::Kind::kTruncated ? " truncated"
                                                  : " corrupt";
  return s;
}

// zlib with the rules the CLI had (every member; a wrong trailer: all data kept, the next member
// read; corrupt: stop; the input ending inside a member: truncated), fed `chunk` bytes at a time.
inline Inflated zlib_inflate(const Bytes& in, size_t chunk = 1 << 16) {
  Inflated r;
  z_stream z{};
  inflateInit2(&z, 15 + 16);
  std::vector<uint8_t> out(1 << 16);
  int member = 1;
  bool ended = false, broken = false;
  size_t skip = 0;
  for (size_t at = 0; at < in.size() && !broken; at += chunk) {
    const size_t n = std::min(chunk, in.size() - at);
    const size_t skipped = std::min(skip, n);
    skip -= skipped;
    z.next_in = const_cast<Bytef*>(in.data() + at + skipped);
    z.avail_in = static_cast<uInt>(n - skipped);
    while (z.avail_in > 0) {
      if (ended) {
        inflateReset(&z);
        ended = false;
        ++member;
      }
      z.next_out = out.data();
      z.avail_out = static_cast<uInt>(out.size());
      const int rc = ::inflate(&z, Z_NO_FLUSH);
      const size_t produced = out.size() - z.avail_out;
      r.out.append(reinterpret_cast<const char*>(out.data()), produced);
      if (rc == Z_STREAM_END) {
        ended = true;
        continue;
      }
      if (rc == Z_DATA_ERROR && z.msg &&
          (!std::strcmp(z.msg, "incorrect data check") || !std::strcmp(z.msg, "incorrect length check"))) {
        r.damage.push_back({GzipDamage::Kind::kTrailer, member});
        const uInt rest = std::strcmp(z.msg, "incorrect data check") == 0 ? 4 : 0;
        const uInt now = std::min(rest, z.avail_in);
        z.next_in += now;
        z.avail_in -= now;
        skip = rest - now;
        ended = true;
        continue;
      }
      if (rc != Z_OK && rc != Z_BUF_ERROR) {
        r.damage.push_back({GzipDamage::Kind::kCorrupt, member});
        broken = true;
        break;
      }
      if (rc == Z_BUF_ERROR && produced == 0) break;
    }
  }
  inflateEnd(&z);
  if (!ended && !broken) r.damage.push_back({GzipDamage::Kind::kTruncated, member});
  return r;
}

// core/inflate fed chunks whose sizes `next_chunk` picks, into an output room of `output_bytes`.
inline Inflated own_inflate(const Bytes& in, const std::function<size_t()>& next_chunk,
                            size_t output_bytes = size_t(1) << 20) {
  Inflated r;
  tw::inflate::GzipInflater inf(size_t(1) << 16, output_bytes);
  auto drain = [&] {
    for (;;) {
      const auto s = inf.inflate();
      if (s.empty()) return;
      r.out.append(reinterpret_cast<const char*>(s.data()), s.size());
    }
  };
  for (size_t at = 0; at < in.size();) {
    const size_t end = std::min(in.size(), at + std::max<size_t>(1, next_chunk()));
    while (at < end) {
      at += inf.push(in.data() + at, end - at);
      drain();
    }
  }
  inf.end_input();
  drain();
  r.damage = inf.damage();
  return r;
}

inline Inflated own_inflate(const Bytes& in, size_t chunk = size_t(1) << 20) {
  return own_inflate(in, [chunk] { return chunk; });
}

// gzip (one member) of `data` by zlib at `level` with `strategy`; flushes of `flush` kind every
// `flush_every` input bytes (0: none).
inline Bytes zlib_gzip(const Bytes& data, int level, int strategy = Z_DEFAULT_STRATEGY, int flush = Z_NO_FLUSH,
                       size_t flush_every = 0) {
  z_stream z{};
  deflateInit2(&z, level, Z_DEFLATED, 15 + 16, 8, strategy);
  Bytes out(deflateBound(&z, data.size()) + 64 + (flush_every ? 16 * (data.size() / flush_every + 1) : 0));
  z.next_out = out.data();
  z.avail_out = static_cast<uInt>(out.size());
  const size_t step = flush_every ? flush_every : std::max<size_t>(data.size(), 1);
  for (size_t at = 0; at < data.size(); at += step) {
    z.next_in = const_cast<Bytef*>(data.data() + at);
    z.avail_in = static_cast<uInt>(std::min(step, data.size() - at));
    deflate(&z, flush_every ? flush : Z_NO_FLUSH);
  }
  z.avail_in = 0;
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

// Test data of `n` bytes: 0 random, 1 text-like (words from a small vocabulary: long matches),
// 2 runs (short distances, 1 to 7 back), 3 a mix of all three.
inline Bytes test_data(std::mt19937& rng, size_t n, int kind) {
  static const char* const kWords[] = {
      "{\"ph\": \"X\", ", "\"name\": ", "\"aten::mm\"",        "\"ts\": ", "12345", "\"dur\": ",
      "\"args\": {",      "}, ",        "\"cat\": \"kernel\"", "\n"};
  Bytes out;
  out.reserve(n + 64);
  while (out.size() < n) {
    const int k = kind == 3 ? static_cast<int>(rng() % 3) : kind;
    if (k == 0) {
      for (int i = 0; i < 64; ++i) out.push_back(static_cast<uint8_t>(rng()));
    } else if (k == 1) {
      const char* w = kWords[rng() % 10];
      out.insert(out.end(), w, w + std::strlen(w));
      if (rng() % 4 == 0) out.push_back(static_cast<uint8_t>('0' + rng() % 10));
    } else {
      const size_t period = 1 + rng() % 7, len = 8 + rng() % 300;
      uint8_t pattern[7];
      for (auto& b : pattern) b = static_cast<uint8_t>(rng());
      for (size_t i = 0; i < len; ++i) out.push_back(pattern[i % period]);
    }
  }
  out.resize(n);
  return out;
}

inline std::string as_string(const Bytes& b) { return std::string(b.begin(), b.end()); }

}  // namespace tw::test
