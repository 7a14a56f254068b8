// tracewise CLI: `tracewise summarize [--hta-compat] [--kernel-rules RULES.json] FILE|DIR...` prints the summary
// JSON (a folder: every trace in it, one per rank); `tracewise info FILE|DIR...` prints a human-readable overview
// (of the job, with several files). Exit codes: 0 ok, 1 unreadable input, 2 usage.
// `--jobs N` (default: the machine's hardware threads) imports a large plain file on up to N threads.
// FILE "-" is standard input; a pipe, FIFO or stdin is read up to `--max-bytes N` (default 4G), a
// device is refused (cli/input_check.h).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "cli/diff_command.h"
#include "cli/file_reader.h"
#include "cli/info.h"
#include "cli/input_check.h"
#include "cli/job_info.h"
#include "cli/load_trace.h"
#include "cli/merge_command.h"
#include "cli/parts_reader.h"
#include "cli/trace_paths.h"
#include "cli/two_threads.h"
#include "core/session.h"
#include "core/summary/digest.h"
#include "core/summary/summary_rules.h"

namespace {

int usage() {
  std::fprintf(stderr,
               "usage: tracewise summarize [--hta-compat] [--kernel-rules RULES.json] [--jobs N] FILE|DIR...\n"
               "       tracewise summarize --digest [--hta-compat] FILE   (a per-rank digest for merge)\n"
               "       tracewise merge [--digest] DIGEST...   (the job summary of the digests' traces)\n"
               "       tracewise info [--jobs N] FILE|DIR...\n"
               "       tracewise diff BASE CAND [--fail-above PCT] [--metric NAME] [--format json|markdown] ...\n"
               "       tracewise flame [--measure cpu|gpu] [--from NS --to NS] FILE   (collapsed stacks)\n"
               "       tracewise stats [--jobs N] FILE   (import only: counts and model size, for benchmarks)\n"
               "FILE - is standard input. --max-bytes N[K|M|G] caps what is read from a pipe, FIFO or standard\n"
               "input (default 4G); a device (/dev/zero) is not read.\n");
  return 2;
}

bool read_text_file(const char* path, std::string& out) {
  FILE* f = std::fopen(path, "rb");
  if (!f) return false;
  char buf[65536];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0 && out.size() < (size_t(16) << 20)) out.append(buf, n);
  std::fclose(f);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage();
  std::string cmd = argv[1];
  if (cmd == "diff") return tw::diff_command(argc, argv);
  tw::SummaryOptions opts;
  std::vector<std::string> files;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  uint64_t max_stream_bytes = tw::kDefaultStreamCapBytes;
  bool gpu_measure = false;
  bool digest = false;
  int64_t from_ns = -1, to_ns = -1;
  auto ns_arg = [](const char* s, int64_t& out) {
    char* end = nullptr;
    const long long v = std::strtoll(s, &end, 10);
    out = v;
    return end != s && *end == '\0' && v >= 0;
  };
  for (int i = 2; i < argc; ++i) {
    if (std::strcmp(argv[i], "--digest") == 0) {
      digest = true;
    } else if (std::strcmp(argv[i], "--measure") == 0) {
      if (++i >= argc || (std::strcmp(argv[i], "cpu") != 0 && std::strcmp(argv[i], "gpu") != 0)) return usage();
      gpu_measure = std::strcmp(argv[i], "gpu") == 0;
    } else if (std::strcmp(argv[i], "--from") == 0) {
      if (++i >= argc || !ns_arg(argv[i], from_ns)) return usage();
    } else if (std::strcmp(argv[i], "--to") == 0) {
      if (++i >= argc || !ns_arg(argv[i], to_ns)) return usage();
    } else if (std::strcmp(argv[i], "--hta-compat") == 0) {
      opts.hta_compat = true;
    } else if (std::strcmp(argv[i], "--kernel-rules") == 0) {
      if (++i >= argc) return usage();
      if (!read_text_file(argv[i], opts.kernel_rules_json)) {
        std::fprintf(stderr, "tracewise: cannot read kernel rules %s\n", argv[i]);
        return 1;
      }
    } else if (std::strcmp(argv[i], "--jobs") == 0) {
      if (++i >= argc || std::atoi(argv[i]) < 1) return usage();
      jobs = static_cast<unsigned>(std::atoi(argv[i]));
    } else if (std::strcmp(argv[i], "--max-bytes") == 0) {
      if (++i >= argc || !tw::parse_byte_count(argv[i], max_stream_bytes)) return usage();
    } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
      return usage();
    } else {
      files.push_back(argv[i]);
    }
  }
  if (files.empty()) return usage();
  tw::use_threads(opts, jobs);
  if (cmd == "merge") return tw::merge_command(files, digest);
  if (digest && cmd != "summarize") return usage();
  if (!opts.kernel_rules_json.empty()) {
    std::string err = tw::check_user_kernel_rules(opts.kernel_rules_json, opts.hta_compat);
    if (!err.empty()) {
      std::fprintf(stderr, "tracewise: invalid kernel rules: %s\n", err.c_str());
      return 2;
    }
  }
  {
    std::vector<std::string> named = std::move(files);
    files.clear();
    std::string error;
    if (!tw::expand_trace_paths(named, &files, &error)) {
      std::fprintf(stderr, "tracewise: %s\n", error.c_str());
      return 1;
    }
  }
  // One file at a time: only its summary and rank record outlive its model.
  auto summarize = [&](std::vector<nlohmann::json>& summaries, std::vector<tw::RankRecord>& records) {
    for (const std::string& f : files) {
      auto s = tw::load_trace(f, jobs, max_stream_bytes);
      if (!s) return false;
      summaries.push_back(s->file_summary(opts));
      if (files.size() >= 2) records.push_back(s->rank_record(opts));
    }
    return true;
  };
  if (cmd == "summarize" && digest) {
    // One rank's digest (core/summary/digest.h): its summary and its rank record, for `merge`.
    if (files.size() != 1) return usage();
    auto s = tw::load_trace(files[0], jobs, max_stream_bytes);
    if (!s) return 1;
    tw::Digest d;
    d.hta_compat = opts.hta_compat;
    d.kernel_rules = opts.kernel_rules_json;
    d.files.push_back(s->file_summary(opts));
    d.records.push_back(s->rank_record(opts));
    const std::string out = tw::digest_json(d);
    std::fwrite(out.data(), 1, out.size(), stdout);
    std::fputc('\n', stdout);
    return 0;
  }
  if (cmd == "summarize") {
    std::vector<nlohmann::json> summaries;
    std::vector<tw::RankRecord> records;
    if (!summarize(summaries, records)) return 1;
    std::string out = tw::dump_json(tw::summary_document(summaries, &records));
    std::fwrite(out.data(), 1, out.size(), stdout);
    std::fputc('\n', stdout);
    return 0;
  }
  if (cmd == "info" && files.size() >= 2) {
    std::vector<nlohmann::json> summaries;
    std::vector<tw::RankRecord> records;
    if (!summarize(summaries, records)) return 1;
    std::string text = tw::job_info_text(tw::summary_document(summaries, &records));
    std::fwrite(text.data(), 1, text.size(), stdout);
    return 0;
  }
  if (cmd == "flame") {
    // Collapsed stacks of the CPU call tree (core/calltree/README.md): CPU self or attributed GPU time.
    if (files.size() != 1 || (from_ns >= 0) != (to_ns >= 0) || (from_ns >= 0 && to_ns < from_ns)) return usage();
    auto s = tw::load_trace(files[0], jobs, max_stream_bytes);
    if (!s) return 1;
    const std::string text = s->collapsed_stacks(from_ns, to_ns, gpu_measure);
    std::fwrite(text.data(), 1, text.size(), stdout);
    return 0;
  }
  if (cmd == "stats") {
    if (files.size() != 1) return usage();
    auto s = tw::load_trace(files[0], jobs, max_stream_bytes);
    if (!s) return 1;
    std::printf("events %llu\nbytes %llu\nslices %zu\nmodel_bytes %zu\n",
                static_cast<unsigned long long>(s->stats().events), static_cast<unsigned long long>(s->stats().bytes),
                s->model().slices.size(), s->model().memory_bytes());
    for (const tw::TableBytes& t : s->model().memory_by_table()) std::printf("model_bytes.%s %zu\n", t.table, t.bytes);
    return 0;
  }
  if (cmd == "info") {
    if (files.size() != 1) return usage();
    auto s = tw::load_trace(files[0], jobs, max_stream_bytes);
    if (!s) return 1;
    std::string text = tw::info_text(*s);
    std::fwrite(text.data(), 1, text.size(), stdout);
    return 0;
  }
  return usage();
}
