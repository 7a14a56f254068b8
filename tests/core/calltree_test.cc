// The call tree (core/calltree/): a crafted trace with known totals (nesting, a launch from the
// autograd thread while the main thread's annotation is open, a kernel without a link, a range), the
// bottom-up tree, collapsed stacks parsed back, GPU time by annotation; and on every test trace: each
// thread's root total is the time its top-level slices cover, and the GPU time attributed plus the
// unlinked equals every GPU op's time.
#include <doctest/doctest.h>

#include <fstream>
#include <map>

#include "core/analysis/intervals.h"
#include "core/calltree/annotations.h"
#include "core/calltree/bottom_up.h"
#include "core/calltree/call_tree.h"
#include "core/calltree/call_tree_json.h"
#include "core/calltree/collapsed.h"
#include "tests/core/detail_test_util.h"
#include "tests/core/test_data.h"

namespace tw {
namespace {

std::string ev(const char* name, const char* cat, int tid, int64_t ts, int64_t dur, int64_t corr = -1, int stream = 7) {
  const bool gpu = std::string(cat) == "kernel";
  std::string args = corr >= 0 ? R"(,"args":{"correlation":)" + std::to_string(corr) +
                                     (gpu ? R"(,"device":0,"stream":)" + std::to_string(stream) : std::string()) + "}"
                               : "";
  return std::string(R"({"ph":"X","cat":")") + cat + R"(","name":")" + name + R"(","pid":)" + (gpu ? "0" : "1") +
         R"(,"tid":)" + std::to_string(gpu ? stream : tid) + R"(,"ts":)" + std::to_string(ts) + R"(,"dur":)" +
         std::to_string(dur) + args + "}";
}

// Microseconds in the trace, so every time below is x1000 in ns.
const char* crafted() {
  static const std::string t = [] {
    std::vector<std::string> e = {
        ev("step", "user_annotation", 1, 0, 1000),
        ev("attn(F)", "user_annotation", 1, 100, 300),
        ev("aten::mm", "cpu_op", 1, 120, 180),
        ev("cudaLaunchKernel", "cuda_runtime", 1, 150, 10, 1),
        ev("aten::mm", "cpu_op", 1, 310, 80),
        ev("cudaLaunchKernel", "cuda_runtime", 1, 320, 10, 2),
        ev("combine(B)", "user_annotation", 1, 410, 40),
        ev("cudaLaunchKernel", "cuda_runtime", 1, 415, 5, 4),
        ev("attn(B)", "user_annotation", 1, 500, 400),
        ev("MmBackward0", "cpu_op", 2, 550, 150),
        ev("cudaLaunchKernel", "cuda_runtime", 2, 560, 10, 3),
        ev("gemm", "kernel", 0, 200, 100, 1),
        ev("gemm", "kernel", 0, 400, 50, 2),
        ev("gemm_bwd", "kernel", 0, 600, 80, 3),
        ev("combine", "kernel", 0, 420, 40, 4, 8),
        ev("graph_kernel", "kernel", 0, 700, 20, 99),
    };
    std::string s = R"({"traceEvents":[)";
    for (size_t i = 0; i < e.size(); ++i) s += (i ? "," : "") + e[i];
    return s + "]}";
  }();
  return t.c_str();
}

constexpr int64_t us = 1000;

// The node at a path of names below a thread root whose label contains `thread`.
const CallNode* node_at(const TraceModel& m, const CallTree& t, const std::vector<std::string>& path) {
  uint32_t at = kNoNode;
  for (size_t depth = 0; depth <= path.size(); ++depth) {
    uint32_t found = kNoNode;
    for (uint32_t k = 0; k < t.nodes.size(); ++k) {
      const CallNode& n = t.nodes[k];
      if (n.parent != at) continue;
      if (depth == 0 ? true : m.strings.get(n.name) == path[depth - 1]) {
        if (depth == 0 && at == kNoNode && !path.empty()) {
          // a root: take the one that has the first frame as a child
          bool has = false;
          for (const CallNode& c : t.nodes)
            if (c.parent == k && m.strings.get(c.name) == path[0]) has = true;
          if (!has) continue;
        }
        found = k;
        break;
      }
    }
    if (found == kNoNode) return nullptr;
    at = found;
  }
  return &t.nodes[at];
}

}  // namespace

TEST_CASE("call tree: crafted nesting, self time, attributed GPU time, unlinked ops") {
  auto imp = detail_test::import_text(crafted());
  const TraceModel& m = imp->model();
  const CallTree t = build_call_tree(m);
  const CallNode* root = node_at(m, t, {});
  REQUIRE(root);
  CHECK(root->thread);
  CHECK(root->total_ns == 1000 * us);  // the one top-level slice
  CHECK(root->gpu_ns == (100 + 50 + 40) * us);
  const CallNode* step = node_at(m, t, {"step"});
  REQUIRE(step);
  CHECK(step->total_ns == 1000 * us);
  CHECK(step->self_ns == (1000 - 300 - 40 - 400) * us);
  const CallNode* attn = node_at(m, t, {"step", "attn(F)"});
  REQUIRE(attn);
  CHECK(attn->self_ns == (300 - 180 - 80) * us);
  CHECK(attn->gpu_ns == 150 * us);
  CHECK(attn->gpu_self_ns == 0);
  const CallNode* mm = node_at(m, t, {"step", "attn(F)", "aten::mm"});
  REQUIRE(mm);
  CHECK(mm->count == 2);  // two calls merged by path
  CHECK(mm->total_ns == 260 * us);
  CHECK(mm->self_ns == 240 * us);
  const CallNode* launch = node_at(m, t, {"step", "attn(F)", "aten::mm", "cudaLaunchKernel"});
  REQUIRE(launch);
  CHECK(launch->gpu_self_ns == 150 * us);
  const CallNode* bwd = node_at(m, t, {"MmBackward0", "cudaLaunchKernel"});
  REQUIRE(bwd);
  CHECK(bwd->gpu_self_ns == 80 * us);
  CHECK(t.gpu_unlinked_ops == 1);
  CHECK(t.gpu_unlinked_ns == 20 * us);
}

TEST_CASE("call tree: a range clips CPU time and takes the GPU work launched in it") {
  auto imp = detail_test::import_text(crafted());
  const TraceModel& m = imp->model();
  const Interval range{100 * us, 400 * us};
  const CallTree t = build_call_tree(m, &range);
  const CallNode* step = node_at(m, t, {"step"});
  REQUIRE(step);
  CHECK(step->total_ns == 300 * us);
  CHECK(step->gpu_ns == 150 * us);  // the launches at 150 and 320; not the one at 415
  CHECK(node_at(m, t, {"step", "attn(B)"}) == nullptr);
  CHECK(node_at(m, t, {"MmBackward0"}) == nullptr);
  CHECK(t.gpu_unlinked_ops == 0);  // the unlinked op starts at 700
}

TEST_CASE("call tree: bottom-up puts each function first with its callers below") {
  auto imp = detail_test::import_text(crafted());
  const TraceModel& m = imp->model();
  const CallTree bu = bottom_up(build_call_tree(m));
  const CallNode* launch = nullptr;
  for (const CallNode& n : bu.nodes)
    if (n.parent == kNoNode && m.strings.get(n.name) == "cudaLaunchKernel") launch = &n;
  REQUIRE(launch);
  CHECK(launch->total_ns == (10 + 10 + 5 + 10) * us);
  CHECK(launch->gpu_ns == (150 + 40 + 80) * us);
  std::map<std::string, int64_t> callers;
  for (const CallNode& n : bu.nodes)
    if (n.parent != kNoNode && &bu.nodes[n.parent] == launch) callers[std::string(m.strings.get(n.name))] = n.gpu_ns;
  CHECK(callers ==
        std::map<std::string, int64_t>{{"aten::mm", 150 * us}, {"combine(B)", 40 * us}, {"MmBackward0", 80 * us}});
}

TEST_CASE("collapsed stacks parse back into the tree") {
  auto imp = detail_test::import_text(crafted());
  const TraceModel& m = imp->model();
  const CallTree t = build_call_tree(m);
  for (FlameMeasure measure : {FlameMeasure::kCpu, FlameMeasure::kGpu}) {
    const std::vector<CollapsedLine> lines = parse_collapsed(collapsed_stacks(m, t, measure));
    int64_t sum = 0, want = 0;
    for (const CollapsedLine& l : lines) {
      REQUIRE(l.frames.size() >= 2);
      std::vector<std::string> path(l.frames.begin() + 1, l.frames.end());
      const CallNode* n = node_at(m, t, path);
      REQUIRE_MESSAGE(n, path.back());
      CHECK(l.value == (measure == FlameMeasure::kCpu ? n->self_ns : n->gpu_self_ns));
      sum += l.value;
    }
    for (const CallNode& n : t.nodes)
      if (n.parent == kNoNode) want += measure == FlameMeasure::kCpu ? n.total_ns : n.gpu_ns;
    CHECK(sum == want);
  }
  CHECK(collapsed_frame("a;b\nc") == "a:b c");
  CHECK(parse_collapsed("x;y 12\nbroken line\nz 3\n").size() == 2);
}

TEST_CASE("annotations: own-thread and other-thread GPU time, per stream, and overlaps") {
  auto imp = detail_test::import_text(crafted());
  const TraceModel& m = imp->model();
  const AnnotationsResult r = annotation_stats(m);
  std::map<std::string, const AnnotationStat*> by;
  for (const AnnotationStat& a : r.rows) by[std::string(m.strings.get(a.name))] = &a;
  REQUIRE(by.count("attn(F)"));
  CHECK(by["attn(F)"]->gpu_ns == 150 * us);
  CHECK(by["attn(F)"]->gpu_ops_other_thread == 0);
  REQUIRE(by.count("attn(B)"));
  CHECK(by["attn(B)"]->gpu_ns == 80 * us);  // launched by the backward thread while it was open
  CHECK(by["attn(B)"]->gpu_ops_other_thread == 1);
  CHECK(by["step"]->gpu_ns == (150 + 40 + 80) * us);
  REQUIRE(by["combine(B)"]->gpu_by_stream.size() == 1);
  CHECK(by["combine(B)"]->gpu_by_stream[0].stream == 8);
  // combine(B)'s kernel runs under attn(F)'s second GEMM for 30 us; `step` nests both and is left out.
  REQUIRE_FALSE(r.overlaps.empty());
  const AnnotationOverlap& o = r.overlaps[0];
  const std::string a(m.strings.get(o.a)), b(m.strings.get(o.b));
  CHECK(((a == "attn(F)" && b == "combine(B)") || (a == "combine(B)" && b == "attn(F)")));
  CHECK(o.overlap_ns == 30 * us);
  for (const AnnotationOverlap& x : r.overlaps) CHECK(std::string(m.strings.get(x.a)) != "step");
}

TEST_CASE("call tree on every test trace: root totals and attributed GPU time add up") {
  std::ifstream in(test::data_dir() + "/MANIFEST.tsv");
  std::string line;
  std::getline(in, line);
  size_t traces = 0;
  while (std::getline(in, line)) {
    const std::string rel = line.substr(0, line.find('\t'));
    if (rel.empty()) continue;
    TraceImporter imp;  // (data_trace keeps every import; the corpus would stay in memory)
    REQUIRE(stream_file(test::data_path(rel), [&](const char* p, size_t n) { imp.push(p, n); }).ok);
    imp.finish();
    if (imp.stats().fatal) continue;  // the corpus's files that are not traces
    const TraceModel& m = imp.model();
    const CallTree t = build_call_tree(m);
    ++traces;
    int64_t gpu_tree = t.gpu_unlinked_ns, gpu_all = 0;
    for (uint32_t r = 0; r < m.gpu_ops.size(); ++r) gpu_all += m.slices.dur_at(m.gpu_ops.slice[r]);
    for (const CallNode& n : t.nodes) {
      if (n.parent != kNoNode) continue;
      int64_t top = 0;
      const auto [begin, end] = m.slices.rows_of(n.track);
      for (uint32_t i = begin; i < end; ++i)
        if (m.slices.parent[i] == kNoParent) top += m.slices.dur_at(i);
      CHECK_MESSAGE(n.total_ns == top, rel);
      gpu_tree += n.gpu_ns;
    }
    CHECK_MESSAGE(gpu_tree == gpu_all, rel);
  }
  CHECK(traces > 50);
}

TEST_CASE("DeepSeek's training trace: every micro-batch annotation receives GPU time") {
  const TraceModel& m = detail_test::data_trace("deepseek_profile_data/train.json");
  const AnnotationsResult r = annotation_stats(m);
  std::map<std::string, const AnnotationStat*> by;
  for (const AnnotationStat& a : r.rows) by[std::string(m.strings.get(a.name))] = &a;
  for (const char* part : {"attn", "mlp", "dispatch", "combine"})
    for (const char* pass : {"(F)", "(B)"}) {
      const std::string name = std::string(part) + pass;
      REQUIRE_MESSAGE(by.count(name), name);
      CHECK_MESSAGE(by[name]->gpu_ns > 0, name);
    }
  CHECK(by["mlp(W)"]->gpu_ns > 0);
  CHECK(by["attn(W)"]->gpu_ns > 0);
  CHECK(by["attn(B)"]->gpu_ops_other_thread > 0);  // autograd's thread launches its kernels
  // The two micro-batches overlap: a combine or dispatch runs under the other batch's compute.
  bool comm_under_compute = false;
  for (const AnnotationOverlap& o : r.overlaps) {
    const std::string a(m.strings.get(o.a)), b(m.strings.get(o.b));
    comm_under_compute =
        comm_under_compute ||
        ((a.find("combine") == 0 || a.find("dispatch") == 0) && (b.find("attn") == 0 || b.find("mlp") == 0)) ||
        ((b.find("combine") == 0 || b.find("dispatch") == 0) && (a.find("attn") == 0 || a.find("mlp") == 0));
  }
  CHECK(comm_under_compute);
}

}  // namespace tw

namespace tw {

TEST_CASE("annotations: GPU time inside the GPU-side mirror (gpu_user_annotation), per stream") {
  const TraceModel& m =
      detail_test::data_trace("hta/tests/data/with_gpu_user_annotation/step_based_trace_2543932.json.gz");
  const AnnotationsResult r = annotation_stats(m);
  REQUIRE(r.rows.size() == 2);
  for (const AnnotationStat& a : r.rows) {
    REQUIRE_MESSAGE(a.gpu_side.size() == 1, m.strings.get(a.name));
    // Busy time inside the mirror spans: at most their length, and here every op the CPU side launched.
    int64_t spans = 0;
    for (uint32_t i = 0; i < m.slices.size(); ++i)
      if (m.slices.kind_at(i) == EventKind::kGpuUserAnnotation && m.slices.name.at(i) == a.name)
        spans += m.slices.dur_at(i);
    CHECK(a.gpu_side[0].ns > 0);
    CHECK(a.gpu_side[0].ns <= spans);
    CHECK(a.gpu_ns > 0);
    // Exactly the stream's busy set (its ops united whole) inside each of the name's mirror spans.
    const int32_t device = a.gpu_side[0].device;
    const int64_t stream = a.gpu_side[0].stream;
    int64_t expected = 0;
    for (uint32_t t = 0; t < m.tracks.size(); ++t) {
      if (m.tracks[t].kind != TrackKind::kGpuStream || m.tracks[t].device != device || m.tracks[t].stream != stream)
        continue;
      const auto [first, last] = m.slices.rows_of(t);
      std::vector<Interval> ops;
      for (uint32_t i = first; i < last; ++i) {
        const EventKind k = m.slices.kind_at(i);
        if (k == EventKind::kKernel || k == EventKind::kMemcpy || k == EventKind::kMemset)
          ops.push_back({m.slices.ts_ns[i], m.slices.end_ns(i)});
      }
      const IntervalSet busy = IntervalSet::union_of(ops);
      for (uint32_t i = first; i < last; ++i)
        if (m.slices.kind_at(i) == EventKind::kGpuUserAnnotation && m.slices.name.at(i) == a.name)
          expected += busy.total_within(m.slices.ts_ns[i], m.slices.end_ns(i));
    }
    CHECK(a.gpu_side[0].ns == expected);
  }
}

}  // namespace tw

namespace tw {

TEST_CASE("call tree JSON: the columns are the tree's, parents before children, names resolved") {
  auto imp = detail_test::import_text(crafted());
  const TraceModel& m = imp->model();
  const CallTree t = build_call_tree(m);
  const nlohmann::json j = nlohmann::json::parse(call_tree_json(m, t, false));
  CHECK(j["kind"] == "top_down");
  CHECK(j["range"].is_null());
  CHECK(j["gpu_unlinked_ns"] == 20 * us);
  const nlohmann::json& n = j["nodes"];
  REQUIRE(n["parent"].size() == t.nodes.size());
  for (size_t k = 0; k < t.nodes.size(); ++k) {
    const CallNode& c = t.nodes[k];
    CHECK(n["parent"][k] == (c.parent == kNoNode ? -1 : int64_t(c.parent)));
    CHECK(n["total_ns"][k] == c.total_ns);
    CHECK(n["self_ns"][k] == c.self_ns);
    CHECK(n["gpu_ns"][k] == c.gpu_ns);
    CHECK(n["gpu_self_ns"][k] == c.gpu_self_ns);
    CHECK(n["count"][k] == c.count);
    CHECK(n["depth"][k] == c.depth);
    CHECK(n["track"][k] == c.track);
    const std::string name = j["names"][n["name"][k].get<size_t>()];
    CHECK(name == (c.thread ? thread_label(m, c.track) : std::string(m.strings.get(c.name))));
  }
  const Interval range{100 * us, 400 * us};
  const nlohmann::json r = nlohmann::json::parse(call_tree_json(m, bottom_up(build_call_tree(m, &range)), true));
  CHECK(r["kind"] == "bottom_up");
  CHECK(r["range"]["begin_ns"] == 100 * us);
  CHECK(r["range"]["end_ns"] == 400 * us);
}

}  // namespace tw
