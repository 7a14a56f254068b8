// Where a load's memory peaks: the heap the core holds after each phase of a native import of FILE
// (import, finish(), the summary) and the highest it reached during it, counted exactly by this
// program's own operator new/delete (every table the core allocates goes through them). The wasm
// heap follows the same allocations, so the phase that sets this peak sets the page's too.
// Then the summary's steps one by one, each from the state before it (what it holds at its peak
// over what was live when it started, and what it keeps): which of them to make lighter.
//   build/native/tw_heap_phases FILE      (make bench builds it)
#include <malloc.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <new>
#include <string>
#include <vector>

#include "core/analysis/launches.h"
#include "core/analysis/memory.h"
#include "core/analysis/operators.h"
#include "core/analysis/temporal.h"
#include "core/session.h"
#include "core/summary/analysis_context.h"
#include "core/summary/detail_json.h"
#include "core/summary/detail_sections.h"

namespace {
size_t g_live = 0, g_peak = 0;
}  // namespace

void* operator new(size_t n) {
  void* p = std::malloc(n ? n : 1);
  if (!p) throw std::bad_alloc();
  g_live += malloc_usable_size(p);
  if (g_live > g_peak) g_peak = g_live;
  return p;
}
void* operator new[](size_t n) { return operator new(n); }
void operator delete(void* p) noexcept {
  if (!p) return;
  g_live -= malloc_usable_size(p);
  std::free(p);
}
void operator delete[](void* p) noexcept { operator delete(p); }
void operator delete(void* p, size_t) noexcept { operator delete(p); }
void operator delete[](void* p, size_t) noexcept { operator delete(p); }

namespace tw {
namespace {

size_t g_start = 0;
void begin() { g_start = g_peak = g_live; }
void row(const char* what) {
  const double mb = 1e6;
  std::printf("| %-24s | %9.1f | %9.1f | %+10.1f | %+9.1f |\n", what, g_live / mb, g_peak / mb,
              (double(g_peak) - double(g_start)) / mb, (double(g_live) - double(g_start)) / mb);
}

int run(const char* path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "tw_heap_phases: cannot open %s\n", path);
    return 1;
  }
  in.seekg(0, std::ios::end);
  const auto size = static_cast<uint64_t>(in.tellg());
  in.seekg(0);
  Session s("trace");
  s.set_size_hint(size);  // as the CLI and the page do for a plain file
  std::printf("| phase (MB)               |  live     |  peak     |  peak over |  kept     |\n");
  std::printf("|--------------------------|-----------|-----------|------------|-----------|\n");
  {
    std::vector<char> buf(size_t(4) << 20);
    begin();
    while (in) {
      in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
      if (in.gcount() > 0) s.push(buf.data(), static_cast<size_t>(in.gcount()));
    }
  }
  row("import");
  begin();
  s.finish();
  if (s.failed()) {
    std::fprintf(stderr, "tw_heap_phases: %s\n", s.error().c_str());
    return 1;
  }
  row("finish()");
  const SummaryOptions opts;
  begin();
  const size_t summary_bytes = s.summary_json(opts).size();
  row("summary (whole)");
  std::printf("\nthe summary's steps (%zu bytes of JSON), each from the state before it:\n\n", summary_bytes);
  std::printf("| step (MB)                |  live     |  peak     |  peak over |  kept     |\n");
  std::printf("|--------------------------|-----------|-----------|------------|-----------|\n");
  const TraceModel& m = s.model();
  begin();
  EarlyDetails early;
  early.launch_ops = launch_operators(m);
  row("launch_operators");
  begin();
  early.ops = operator_stats(m, nullptr, &early.launch_ops);
  row("operator_stats");
  begin();
  early.launches = launch_stats(m, early.launch_options);
  row("launch_stats");
  begin();
  early.memory = memory_usage(m, kMaxChartPoints);
  row("memory_usage");
  begin();
  nlohmann::json file = nlohmann::json::object();
  add_early_sections(file, m, early);
  row("early sections (json)");
  begin();
  const AnalysisContext ctx = make_analysis_context(m, opts);
  row("analysis context");
  ActivityOptions aopt;
  aopt.kept = ctx.kept;
  aopt.extra = ctx.extra();
  begin();
  const GpuActivity act = gpu_activity(m, ctx.classes, aopt);
  row("gpu_activity");
  begin();
  const TemporalBreakdown whole = temporal_breakdown(act);
  row("temporal");
  begin();
  add_detail_sections(file, ctx, early, act.any ? &whole : nullptr);
  row("detail sections");
  return 0;
}

}  // namespace
}  // namespace tw

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: tw_heap_phases FILE (plain JSON)\n");
    return 2;
  }
  return tw::run(argv[1]);
}
