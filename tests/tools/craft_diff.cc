// tw_craft_diff: writes a candidate trace with a known change for the run comparison tests
// (tests/core/diff_craft.h):
//   tw_craft_diff BASE.json[.gz] OUT.json [--slow-kernel SUBSTRING --factor F] [--jitter PCT --seed S]
// --slow-kernel: every GPU kernel whose name contains SUBSTRING runs F (>= 1, e.g. 1.2) times longer and
// the time is inserted; --jitter: each ProfilerStep window is stretched by a factor in
// [1 - PCT/100, 1 + PCT/100] drawn from S. OUT is plain JSON. Exit codes: 0 ok, 1 unreadable input or
// nothing to change (no kernel matches, no step to jitter), 2 usage.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>

#include "cli/file_reader.h"
#include "core/base/decimal.h"
#include "tests/core/diff_craft.h"

namespace {

int usage() {
  std::fprintf(stderr, "usage: tw_craft_diff BASE.json[.gz] OUT.json [--slow-kernel SUBSTRING --factor F] "
                       "[--jitter PCT --seed S]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) return usage();
  const std::string base_path = argv[1], out_path = argv[2];
  tw::diff_test::DiffCraft craft;
  bool factor = false, seed = false;
  for (int i = 3; i < argc; ++i) {
    const std::string flag = argv[i];
    if (i + 1 >= argc) return usage();
    const char* v = argv[++i];
    char* end = nullptr;
    bool ok = false;
    if (flag == "--slow-kernel") {
      craft.slow_kernel = v;
      ok = !craft.slow_kernel.empty();
    } else if (flag == "--factor") {
      ok = factor = tw::parse_decimal_scaled(v, 6, craft.factor_ppm) && craft.factor_ppm >= 1000000;
    } else if (flag == "--jitter") {
      ok = tw::parse_decimal_scaled(v, 4, craft.jitter_ppm) && craft.jitter_ppm > 0 && craft.jitter_ppm < 1000000;
    } else if (flag == "--seed") {
      craft.seed = std::strtoull(v, &end, 10);
      ok = seed = *v >= '0' && *v <= '9' && *end == '\0';
    }
    if (!ok) return usage();
  }
  // Each change needs both of its options: a factor alone would silently change nothing.
  if (craft.slow_kernel.empty() == factor || (craft.jitter_ppm > 0) != seed) return usage();
  std::string text;
  const tw::ReadResult read = tw::stream_file(base_path, [&text](const char* p, size_t k) { text.append(p, k); });
  if (!read.ok || read.gzip_truncated) {
    std::fprintf(stderr, "tw_craft_diff: cannot read %s\n", base_path.c_str());
    return 1;
  }
  tw::diff_test::CraftReport report;
  std::string out;
  try {
    out = tw::diff_test::craft_diff(text, craft, &report);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tw_craft_diff: %s: %s\n", base_path.c_str(), e.what());
    return 1;
  }
  if (!craft.slow_kernel.empty() && report.slowed == 0) {
    std::fprintf(stderr, "tw_craft_diff: no kernel name contains \"%s\"\n", craft.slow_kernel.c_str());
    return 1;
  }
  if (craft.jitter_ppm > 0 && report.jittered == 0) {
    std::fprintf(stderr, "tw_craft_diff: no ProfilerStep to jitter in %s\n", base_path.c_str());
    return 1;
  }
  std::ofstream f(out_path, std::ios::binary);
  f.write(out.data(), static_cast<std::streamsize>(out.size()));
  f.close();
  if (!f) {
    std::fprintf(stderr, "tw_craft_diff: cannot write %s\n", out_path.c_str());
    return 1;
  }
  std::printf("slowed %zu kernels (+%lld ns), jittered %zu steps\n", report.slowed,
              static_cast<long long>(report.inserted_ns), report.jittered);
  return 0;
}
