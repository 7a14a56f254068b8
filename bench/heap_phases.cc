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
//   build/native/tw_heap_phases --parts FILE   (plain: the trace worker of a load in two parts)
#include <fcntl.h>
#include <malloc.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bench/wasm_heap.h"
#include "cli/file_reader.h"

#include "core/analysis/launches.h"
#include "core/analysis/memory.h"
#include "core/analysis/operators.h"
#include "core/analysis/temporal.h"
#include "core/import/import_parts.h"
#include "core/import/import_state.h"
#include "core/load_session.h"
#include "core/session.h"
#include "core/summary/analysis_context.h"
#include "core/summary/detail_json.h"
#include "core/summary/detail_sections.h"

extern "C" {
void* __libc_malloc(size_t);
void __libc_free(void*);
void* __libc_realloc(void*, size_t);
}

namespace {
size_t g_live = 0, g_peak = 0;
// While set, blocks come from the C library, uncounted: a part worker's own heap (--parts).
bool g_elsewhere = false;
}  // namespace

void* operator new(size_t n) {
  if (g_elsewhere) {
    if (void* p = __libc_malloc(n ? n : 1)) return p;
    throw std::bad_alloc();
  }
  void* p = tw::wasm_heap::allocate(n ? n : 1);
  if (!p) throw std::bad_alloc();
  g_live += tw::wasm_heap::usable_size(p);
  if (g_live > g_peak) g_peak = g_live;
  return p;
}
void* operator new[](size_t n) { return operator new(n); }
void operator delete(void* p) noexcept {
  if (!p) return;
  if (!tw::wasm_heap::owns(p)) return __libc_free(p);
  g_live -= tw::wasm_heap::usable_size(p);
  tw::wasm_heap::release(p);
}
void operator delete[](void* p) noexcept { operator delete(p); }
void operator delete(void* p, size_t) noexcept { operator delete(p); }
void operator delete[](void* p, size_t) noexcept { operator delete(p); }

// The C allocator too, counted the same way. A block this heap did not hand out (the C library's
// own aligned ones) goes back to the C library's allocator.
extern "C" {
void* malloc(size_t n) {
  if (g_elsewhere) return __libc_malloc(n);
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

// The import's growth margin (growth_plan.h), part of its peak: rows against the room reserved.
void print_room(const char* when, ImportState& st) {
  const SliceTable& t = st.model.slices;
  const auto margin = [](size_t n, size_t room) { return n ? 100.0 * (double(room) / double(n) - 1) : 0.0; };
  std::fprintf(stderr,
               "%s: %zu slices in room for %zu (+%.1f%%), %zu flow endpoints in room for %zu (+%.1f%%); times kept "
               "beside their 4-byte codes: %zu of the slices', %zu of the endpoints'\n",
               when, t.size(), t.ts_ns.capacity(), margin(t.size(), t.ts_ns.capacity()), st.flow_points().size(),
               st.flow_points().capacity(), margin(st.flow_points().size(), st.flow_points().capacity()),
               t.ts_ns.escaped_rows.size(), st.flow_times().escaped_offsets.size());
}

// Pushes [begin, end) of the mapped file as the page does: 4 MB copies into the session's input buffer.
void push_range(LoadSession& s, const char* data, size_t begin, size_t end) {
  constexpr size_t kBatch = size_t(4) << 20;
  for (size_t at = begin; at < end; at += kBatch) {
    const size_t n = std::min(kBatch, end - at);
    std::memcpy(s.input_buffer(n), data + at, n);
    s.push_input(n);
  }
}

// A plain FILE in two parts as the page loads it (web/load/parts): the later part imported in a
// heap of its own (the C library's, uncounted: a part worker's), then its header and columns copied
// into the trace worker's session, which imported the first part, and absorbed. The rows show the
// trace worker's heap; the part worker's is printed after them.
int run_parts(const char* path) {
  const int fd = open(path, O_RDONLY);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) {
    std::fprintf(stderr, "tw_heap_phases: cannot open %s\n", path);
    return 1;
  }
  const size_t size = static_cast<size_t>(st.st_size);
  const char* data = static_cast<const char*>(mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0));
  close(fd);
  if (data == MAP_FAILED) return 1;
  g_elsewhere = true;
  const std::string_view head(data, std::min<size_t>(size, 64));
  const std::vector<uint64_t> starts = part_starts(size, 2, size_t(1) << 20, [&](uint64_t at, size_t n) {
    return std::string(data + at, std::min<size_t>(n, size - std::min<size_t>(at, size)));
  });
  if (starts.size() != 1) {
    std::fprintf(stderr, "tw_heap_phases: %s cannot be cut in two parts\n", path);
    return 1;
  }
  auto later = std::make_unique<LoadSession>("part");
  later->set_size_hint(size - starts[0]);
  later->session().importer().begin_later_part(starts[0], starts_as_object(head));
  push_range(*later, data, starts[0], size);
  later->session().importer().end_input();
  print_room("the later part's end", later->session().importer().state());
  const std::span<const uint8_t> part_header = later->part_header();
  const std::vector<std::pair<const void*, size_t>> columns = later->part_columns();
  const size_t part_rss = [] {
    struct mallinfo2 mi = mallinfo2();
    return mi.uordblks + mi.hblkhd;
  }();
  g_elsewhere = false;

  header("phase (MB)");
  begin();
  LoadSession s("trace");
  s.set_size_hint(size);
  push_range(s, data, 0, starts[0]);
  row("own part (import)");
  begin();
  std::memcpy(s.part_buffer(part_header.size()), part_header.data(), part_header.size());
  const std::vector<size_t> sizes = s.load_part(part_header.size());
  bool ok = sizes.size() == columns.size();
  for (size_t i = 0; ok && i < sizes.size(); ++i) {
    ok = sizes[i] == columns[i].second;
    if (ok && sizes[i]) std::memcpy(s.part_column_address(i), columns[i].first, sizes[i]);
  }
  ok = ok && s.absorb_part();
  if (!ok) {
    std::fprintf(stderr, "tw_heap_phases: the later part was refused\n");
    return 1;
  }
  row("absorb the later part");
  later.reset();
  begin();
  s.finish();
  row("finish()");
  begin();
  const size_t summary_bytes = s.session().summary_json(SummaryOptions{}).size();
  row("summary (whole)");
  std::printf("\n%zu bytes of summary; the part worker's heap held %.1f MB of blocks (the C library's)\n",
              summary_bytes, double(part_rss) / 1e6);
  return 0;
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
  print_room("import's end", s.importer().state());
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
  aopt.kept = ctx.kept();
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
  if (argc == 3 && std::strcmp(argv[1], "--parts") == 0) return tw::run_parts(argv[2]);
  if (argc != 2) {
    std::fprintf(stderr, "usage: tw_heap_phases [--parts] FILE\n");
    return 2;
  }
  return tw::run(argv[1]);
}
