#include "cli/diff_command.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "cli/file_reader.h"
#include "cli/input_check.h"
#include "cli/load_trace.h"
#include "cli/trace_paths.h"
#include "cli/two_threads.h"
#include "core/diff/diff_json.h"
#include "core/diff/diff_markdown.h"
#include "core/session.h"

namespace tw {
namespace {

constexpr int kRegression = 3;
constexpr uint64_t kMaxSummaryBytes = uint64_t(1) << 30;

int usage() {
  std::fprintf(stderr,
               "usage: tracewise diff BASE CAND [--fail-above PCT] [--metric NAME] [--format json|markdown]\n"
               "                      [--confidence PCT] [--min-impact PCT] [--hta-compat] [--jobs N]\n"
               "BASE, CAND: a trace, a folder of rank traces, or a summary JSON from `tracewise summarize`.\n"
               "Exit codes: 0 no regression beyond the gate, 3 a regression beyond it, 1 unreadable input, 2 usage.\n");
  return 2;
}

bool parse_pct(const char* s, double& out) {
  char* end = nullptr;
  out = std::strtod(s, &end);
  return end != s && *end == '\0' && out >= 0 && out < 1e9;
}

// The first key of a JSON object in `head`, or "" (a trace's is "traceEvents", "schemaVersion"...;
// a summary's, keys sorted, is "files").
std::string first_key(const std::string& head) {
  size_t i = 0;
  auto ws = [&] {
    while (i < head.size() && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t')) ++i;
  };
  if (head.compare(0, 3, "\xEF\xBB\xBF") == 0) i = 3;
  ws();
  if (i >= head.size() || head[i] != '{') return "";
  ++i;
  ws();
  if (i >= head.size() || head[i] != '"') return "";
  const size_t end = head.find('"', i + 1);
  return end == std::string::npos ? "" : head.substr(i + 1, end - i - 1);
}

// The first bytes of a file (inflated), enough to tell a summary from a trace.
std::string head_of(const std::string& path) {
  std::string head;
  ReadLimits limits;
  limits.stop = [&] { return head.size() >= 4096; };
  stream_file(
      path, [&](const char* p, size_t n) { head.append(p, std::min(n, size_t(65536))); }, limits);
  return head;
}

struct SideInput {
  std::string text;  // a summary document
  std::string label;
};

// One side as a summary document: read as is, or summarized from its trace(s).
bool side_document(const std::string& arg, const SummaryOptions& opts, unsigned jobs, SideInput& out) {
  // Named as the page names a side: the file's or the folder's name.
  out.label = std::filesystem::path(arg).lexically_normal().filename().string();
  if (out.label.empty()) out.label = std::filesystem::path(arg).lexically_normal().parent_path().filename().string();
  if (out.label.empty()) out.label = arg;
  std::error_code ec;
  if (!std::filesystem::is_directory(arg, ec) && arg != "-") {
    const std::string key = first_key(head_of(arg));
    if (key == "files" || key == "schema") {
      std::string error;
      if (!read_capped_text(arg, kMaxSummaryBytes, out.text, error)) {
        std::fprintf(stderr, "tracewise: %s\n", error.c_str());
        return false;
      }
      return true;
    }
  }
  std::vector<std::string> files;
  std::string error;
  if (!expand_trace_paths({arg}, &files, &error)) {
    std::fprintf(stderr, "tracewise: %s\n", error.c_str());
    return false;
  }
  std::vector<nlohmann::json> summaries;
  std::vector<RankRecord> records;
  for (const std::string& f : files) {
    auto s = load_trace(f, jobs, kDefaultStreamCapBytes);
    if (!s) return false;
    summaries.push_back(s->file_summary(opts));
    if (files.size() >= 2) records.push_back(s->rank_record(opts));
  }
  out.text = dump_json(summary_document(summaries, &records));
  return true;
}

}  // namespace

int diff_command(int argc, char** argv) {
  std::vector<std::string> sides;
  DiffOptions options;
  SummaryOptions summary;
  bool markdown = false;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    const bool has_value = i + 1 < argc;
    double v = 0;
    if (a == "--fail-above") {
      if (!has_value || !parse_pct(argv[++i], v)) return usage();
      options.fail_above_pct = v;
    } else if (a == "--confidence") {
      if (!has_value || !parse_pct(argv[++i], v)) return usage();
      options.confidence_pct = v;
    } else if (a == "--min-impact") {
      if (!has_value || !parse_pct(argv[++i], v)) return usage();
      options.min_impact_pct = v;
    } else if (a == "--metric") {
      if (!has_value) return usage();
      options.metric = argv[++i];
    } else if (a == "--format") {
      if (!has_value) return usage();
      const std::string f = argv[++i];
      if (f != "json" && f != "markdown") return usage();
      markdown = f == "markdown";
    } else if (a == "--hta-compat") {
      summary.hta_compat = true;
    } else if (a == "--jobs") {
      if (!has_value || std::atoi(argv[i + 1]) < 1) return usage();
      jobs = static_cast<unsigned>(std::atoi(argv[++i]));
    } else if (a.size() > 1 && a[0] == '-') {
      return usage();
    } else {
      sides.push_back(a);
    }
  }
  if (sides.size() != 2) return usage();
  SideInput base, cand;
  use_threads(summary, jobs);
  if (!side_document(sides[0], summary, jobs, base) || !side_document(sides[1], summary, jobs, cand)) return 1;
  const DiffText d = diff_summaries(base.text, cand.text, options, base.label, cand.label);
  if (!d.usage_error.empty()) {
    std::fprintf(stderr, "tracewise: %s\n", d.usage_error.c_str());
    return 2;
  }
  if (!d.error.empty()) {
    std::fprintf(stderr, "tracewise: %s\n", d.error.c_str());
    return 1;
  }
  const std::string out = markdown ? diff_markdown_text(d.json) : d.json + "\n";
  std::fwrite(out.data(), 1, out.size(), stdout);
  return d.regression ? kRegression : 0;
}

}  // namespace tw
