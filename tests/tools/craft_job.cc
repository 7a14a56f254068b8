// tw_craft_job: writes a multi-rank job crafted from one real rank (tests/core/job_craft.h) as files,
// for the browser tests and the job benchmark:
//   tw_craft_job BASE.json[.gz] OUTDIR RANKS [--world W] [--repeat K] [--offset R:NS]... [--delay R:NS]
//                [--drop R:I]
// writes OUTDIR/rank-<R>.json for R in 0..RANKS-1. --repeat K tiles the base's events K times in time
// first (repeat_trace: ids and step numbers unique per copy), so the delays follow every collective of
// the tiled trace: K = 7 makes ~60 MB ranks of HTA's nccl_data.json. Exit codes: 0 ok, 1 unreadable
// input, 2 usage.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "cli/file_reader.h"
#include "tests/core/job_craft.h"

namespace {

int usage() {
  std::fprintf(stderr, "usage: tw_craft_job BASE.json[.gz] OUTDIR RANKS [--world W] [--repeat K] [--offset R:NS]... "
                       "[--delay R:NS] [--drop R:I]\n");
  return 2;
}

// "R:N" -> (R, N); false when malformed.
bool pair_of(const char* s, long long* r, long long* n) {
  char* end = nullptr;
  *r = std::strtoll(s, &end, 10);
  if (*end != ':') return false;
  *n = std::strtoll(end + 1, &end, 10);
  return *end == '\0';
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) return usage();
  const std::string base_path = argv[1], out_dir = argv[2];
  const long long n = std::atoll(argv[3]);
  if (n < 1 || n > 100000) return usage();
  std::vector<tw::job_test::CraftRank> ranks(static_cast<size_t>(n));
  for (long long r = 0; r < n; ++r) ranks[static_cast<size_t>(r)].rank = r;
  long long world = n, repeat = 1;
  for (int i = 4; i < argc; ++i) {
    long long r = 0, v = 0;
    if (std::strcmp(argv[i], "--world") == 0 && i + 1 < argc) {
      world = std::atoll(argv[++i]);
    } else if (std::strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) {
      repeat = std::atoll(argv[++i]);
      if (repeat < 1 || repeat > 10000) return usage();
    } else if (i + 1 < argc && pair_of(argv[i + 1], &r, &v) && r >= 0 && r < n) {
      auto& rank = ranks[static_cast<size_t>(r)];
      if (std::strcmp(argv[i], "--offset") == 0) rank.clock_offset_ns = v;
      else if (std::strcmp(argv[i], "--delay") == 0) rank.delay_ns = v;
      else if (std::strcmp(argv[i], "--drop") == 0) rank.drop_collective = static_cast<int>(v);
      else return usage();
      ++i;
    } else {
      return usage();
    }
  }
  std::string text;
  const tw::ReadResult read = tw::stream_file(base_path, [&text](const char* p, size_t k) { text.append(p, k); });
  if (!read.ok) {
    std::fprintf(stderr, "tw_craft_job: cannot read %s\n", base_path.c_str());
    return 1;
  }
  tw::job_test::Json base = tw::job_test::parse_trace_ns(text);
  text = std::string();
  if (repeat > 1) base = tw::job_test::repeat_trace(base, static_cast<int>(repeat));
  bool ok = true;
  tw::job_test::craft_job_each(base, ranks, world, [&](size_t r, std::string&& trace) {
    const std::string path = out_dir + "/rank-" + std::to_string(r) + ".json";
    std::ofstream f(path, std::ios::binary);
    f.write(trace.data(), static_cast<std::streamsize>(trace.size()));
    if (!f && ok) {
      std::fprintf(stderr, "tw_craft_job: cannot write %s\n", path.c_str());
      ok = false;
    }
  });
  if (!ok) return 1;
  return 0;
}
