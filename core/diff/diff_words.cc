#include "core/diff/diff_words.h"

#include <cmath>
#include <cstdio>

namespace tw {

std::string printf_double(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

std::string duration_words(double ns) {
  const double a = std::fabs(ns);
  if (a >= 1e9) return printf_double("%.3g s", ns / 1e9);
  if (a >= 1e6) return printf_double("%.3g ms", ns / 1e6);
  if (a >= 1e3) return printf_double("%.3g \xC2\xB5s", ns / 1e3);
  return printf_double("%.0f ns", ns);
}

std::string signed_duration_words(double ns) { return (ns < 0 ? "-" : "+") + duration_words(std::fabs(ns)); }

}  // namespace tw
