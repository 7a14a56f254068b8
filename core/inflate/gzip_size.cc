#include "core/inflate/gzip_size.h"

#include <algorithm>
#include <cmath>

namespace tw::inflate {

namespace {
constexpr uint64_t kModulus = uint64_t(1) << 32;
}  // namespace

uint64_t gzip_size_guess(uint64_t isize, uint64_t compressed, uint64_t inflated, uint64_t used) {
  if (compressed == 0 || isize >= kModulus) return 0;
  if (inflated == 0) {
    const uint64_t k = compressed > isize ? (compressed - isize + kModulus - 1) / kModulus : 0;
    return isize + k * kModulus;
  }
  if (used == 0 || used > compressed) return 0;
  const double estimate = double(compressed) * double(inflated) / double(used);
  const double k = std::max(0.0, std::round((estimate - double(isize)) / double(kModulus)));
  uint64_t guess = isize + uint64_t(k) * kModulus;
  while (guess <= inflated) guess += kModulus;
  return guess;
}

}  // namespace tw::inflate
