// Where a load's memory peaks: the heap the core holds after each phase of a native import of FILE
// (import, finish(), the summary) and the highest it reached during it, counted exactly by this
// program's own operator new/delete and malloc/realloc/free (the core's tables go through the
// first, PodBuffer through the second, as both go through one allocator in wasm). The wasm
// heap follows the same allocations, so the phase that sets this peak sets the page's too.
// Then the summary's steps one by one, each from the state before it (what it holds at its peak
// over what was live when it started, and what it keeps): which of them to make lighter.
// The last column is the wasm memory those allocations would need in the page: they go through
// Emscripten's own allocator over a heap that never shrinks, grown as our wasm link grows it
// (bench/wasm_heap.cc). It shows what the live bytes cannot: a temporary that fits in no hole left
// by the ones before it grows the heap, for good.
//   build/native/tw_heap_phases FILE      (plain or gzip; make bench builds it)
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <new>
#include <string>

#include "bench/wasm_heap.h"
#include "cli/file_reader.h"

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
  void* p = tw::wasm_heap::allocate(n ? n : 1);
  if (!p) throw std::bad_alloc();
  g_live += tw::wasm_heap::usable_size(p);
  if (g_live > g_peak) g_peak = g_live;
  return p;
}
void* operator new[](size_t n) { return operator new(n); }
void operator delete(void* p) noexcept {
  if (!p) return;
  g_live -= tw::wasm_heap::usable_size(p);
  tw::wasm_heap::release(p);
}
void operator delete[](void* p) noexcept { operator delete(p); }
void operator delete(void* p, size_t) noexcept { operator delete(p); }
void operator delete[](void* p, size_t) noexcept { operator delete(p); }

// The C allocator too, counted the same way. A block this heap did not hand out (the C library's
// own aligned ones) goes back to the C library's allocator.
extern "C" {
void __libc_free(void*);
void* __libc_realloc(void*, size_t);
void* malloc(size_t n) {
  void* p = tw::wasm_heap::allocate(n ? n : 1);
  if (p) g_live += tw::wasm_heap::usable_size(p), g_peak = std::max(g_peak, g_live);
  return p;
}
void* calloc(size_t count, size_t size) {
  if (size && count > SIZE_MAX / size) return nullptr;
  void* p = malloc(count * size);
  if (p) std::memset(p, 0, count * size);
  return p;
}
void free(void* p) {
  if (!p) return;
  if (!tw::wasm_heap::owns(p)) return __libc_free(p);
  g_live -= tw::wasm_heap::usable_size(p);
  tw::wasm_heap::release(p);
}
void* realloc(void* p, size_t n) {
  if (!p) return malloc(n);
  if (!tw::wasm_heap::owns(p)) return __libc_realloc(p, n);
  const size_t before = tw::wasm_heap::usable_size(p);
  void* q = tw::wasm_heap::reallocate(p, n ? n : 1);
  if (q) g_live = g_live - before + tw::wasm_heap::usable_size(q), g_peak = std::max(g_peak, g_live);
  return q;
}
}

namespace tw {
namespace {

size_t g_start = 0;
void begin() { g_start = g_peak = g_live; }
void row(const char* what) {
  const double mb = 1e6;
  std::printf("| %-24s | %9.1f | %9.1f | %+10.1f | %+9.1f | %9.1f |\n", what, g_live / mb, g_peak / mb,
              (double(g_peak) - double(g_start)) / mb, (double(g_live) - double(g_start)) / mb,
              double(wasm_heap::memory_bytes()) / mb);
}
void header(const char* what) {
  std::printf("| %-24s |  live     |  peak     |  peak over |  kept     | wasm heap |\n", what);
  std::printf("|--------------------------|-----------|-----------|------------|-----------|-----------|\n");
}

int run(const char* path) {
  Session s("trace");
  InputSize size;
  if (input_size(path, size)) s.set_size_hint(size.hint());  // as the CLI and the page do
  header("phase (MB)");
  begin();
  const ReadResult read = stream_file(path, [&s](const char* p, size_t n) { s.push(p, n); });
  if (!read.ok) {
    std::fprintf(stderr, "tw_heap_phases: %s\n", read.error.c_str());
    return 1;
  }
  row("import (and reading)");
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
  header("step (MB)");
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
  GpuActivity act = gpu_activity(m, ctx.classes, aopt);
  row("gpu_activity");
  begin();
  const TemporalBreakdown whole = temporal_breakdown(act);
  row("temporal");
  const bool any_activity = act.any;
  act = GpuActivity();  // as add_analysis_sections does before the detail sections
  begin();
  add_detail_sections(file, ctx, early, any_activity ? &whole : nullptr);
  row("detail sections");
  return 0;
}

}  // namespace
}  // namespace tw

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: tw_heap_phases FILE\n");
    return 2;
  }
  return tw::run(argv[1]);
}
