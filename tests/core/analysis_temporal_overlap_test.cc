// Temporal breakdown, exposed view, comm/compute overlap, per-step windows and stream-pair
// overlap on a tiny hand-written trace whose answers are worked out by hand (times in ns).
#include <doctest/doctest.h>

#include "core/analysis/kernel_classes.h"
#include "core/analysis/overlap.h"
#include "core/analysis/temporal.h"
#include "core/summary/summary.h"
#include "tests/core/import_test_util.h"

namespace tw {
namespace {

// A GPU op on `stream` over [ts, ts + dur) ns (displayTimeUnit ns keeps the numbers readable).
std::string op(const char* name, const char* cat, int stream, int64_t ts_ns, int64_t dur_ns) {
  char buf[512];
  std::snprintf(
      buf, sizeof buf,
      R"({"ph":"X","cat":"%s","name":"%s","pid":0,"tid":%d,"ts":%.3f,"dur":%.3f,"args":{"device":0,"stream":%d}})", cat,
      name, stream, ts_ns / 1000.0, dur_ns / 1000.0, stream);
  return buf;
}

std::string trace(const std::vector<std::string>& events) {
  std::string t = R"({"traceEvents":[)";
  for (size_t i = 0; i < events.size(); ++i) t += (i ? "," : "") + events[i];
  return t + "]}";
}

// Timeline (ns):            0    100   200   300   400   500   600   700
//   stream 7 compute:       [gemm 0-300)            [gemm 400-500)
//   stream 9 comm:                [nccl 200-450)
//   stream 9 memcpy:                                      [copy 500-600)
//   stream 11 compute:                                          [k 650-700)
// union = [0,450) + [400..]: [0,600) + [650,700) -> busy 650, span 700, idle 50.
std::string sample() {
  return trace({op("gemm", "kernel", 7, 0, 300), op("gemm", "kernel", 7, 400, 100),
                op("ncclDevKernel_AllReduce", "kernel", 9, 200, 250),
                op("Memcpy DtoD (Device -> Device)", "gpu_memcpy", 9, 500, 100), op("k", "kernel", 11, 650, 50),
                R"({"ph":"X","cat":"user_annotation","name":"ProfilerStep#3","pid":1,"tid":1,"ts":0,"dur":0.35})",
                R"({"ph":"X","cat":"user_annotation","name":"ProfilerStep#4","pid":1,"tid":1,"ts":0.35,"dur":0.35})"});
}

}  // namespace

TEST_CASE("temporal breakdown and exposed view, exact in ns") {
  auto imp = test::import_whole(sample());
  const TraceModel& m = imp->model();
  const auto cls = classify_gpu_ops(m, default_rules());
  const GpuActivity a = gpu_activity(m, cls);
  REQUIRE(a.any);
  const TemporalBreakdown t = temporal_breakdown(a);
  CHECK(t.span_ns == 700);
  CHECK(t.busy_ns == 650);
  CHECK(t.idle_ns == 50);
  CHECK(t.compute_ns == 300 + 100 + 50);
  CHECK(t.non_compute_ns == 700 - 50 - 450);
  CHECK(t.class_ns[int(KernelClass::kCommunication)] == 250);
  CHECK(t.class_ns[int(KernelClass::kMemory)] == 100);
  // Exposed: comm not under compute = [300,400) = 100; memory not under compute/comm = [500,600) = 100.
  CHECK(t.exposed_communication_ns == 100);
  CHECK(t.exposed_memory_ns == 100);
  CHECK(t.exposed_other_ns == 0);
  CHECK(t.compute_ns + t.exposed_communication_ns + t.exposed_memory_ns + t.exposed_other_ns + t.idle_ns == t.span_ns);

  const CommOverlap o = comm_compute_overlap(a);
  CHECK(o.communication_ns == 250);
  CHECK(o.overlapped_ns == 150);  // [200,300) + [400,450)
  CHECK(o.pct() == doctest::Approx(60.0));

  // Step 3 = [0, 350): compute [0,300), comm [200,350) -> busy 350, overlap 100 of 150.
  const TemporalBreakdown s3 = temporal_breakdown_in(a, 0, 350);
  CHECK(s3.span_ns == 350);
  CHECK(s3.idle_ns == 0);
  CHECK(s3.compute_ns == 300);
  CHECK(s3.exposed_communication_ns == 50);
  const CommOverlap o3 = comm_compute_overlap_in(a, 0, 350);
  CHECK(o3.communication_ns == 150);
  CHECK(o3.overlapped_ns == 100);
}

TEST_CASE("stream pair overlap") {
  auto imp = test::import_whole(sample());
  const TraceModel& m = imp->model();
  const auto cls = classify_gpu_ops(m, default_rules());
  const StreamOverlapResult r = stream_overlaps(m, cls);
  REQUIRE(r.streams.size() == 3);
  CHECK(r.streams[0].stream == 7);  // busiest first: 400
  CHECK(r.streams[0].busy_ns == 400);
  CHECK(r.streams[1].stream == 9);  // 350
  CHECK(r.streams[1].main_class == KernelClass::kCommunication);
  REQUIRE(r.pairs.size() == 1);  // stream 11 overlaps nobody
  CHECK(r.pairs[0].overlap_ns == 150);
  CHECK(!r.truncated);
}

TEST_CASE("summary sections: GPU trace, steps, and a trace without GPU work") {
  auto imp = test::import_whole(sample());
  FileInput in{"t", 0, &imp->model(), &imp->stats()};
  const nlohmann::json f = file_summary(in, SummaryOptions{});
  CHECK(f["temporal"]["span_ns"] == 700);
  CHECK(f["kernel_classes_ns"]["communication"] == 250);
  CHECK(f["overlap"]["overlapped_ns"] == 150);
  REQUIRE(f["steps"].size() == 2);
  CHECK(f["steps"][0]["number"] == 3);
  CHECK(f["steps"][1]["duration_ns"] == 350);
  CHECK(f["steps"][1]["overlap"]["communication_ns"] == 100);
  CHECK(f["steps_source"] == "cpu");
  CHECK(f["stream_overlap"]["pairs"].size() == 1);

  auto cpu_only = test::import_whole(
      R"({"traceEvents":[{"ph":"X","cat":"cpu_op","name":"aten::add","pid":1,"tid":1,"ts":0,"dur":5}]})");
  FileInput in2{"c", 0, &cpu_only->model(), &cpu_only->stats()};
  for (bool hta : {false, true}) {
    SummaryOptions o;
    o.hta_compat = hta;
    const nlohmann::json g = file_summary(in2, o);
    CHECK(g["temporal"].is_null());
    CHECK(g["kernel_classes_ns"].is_null());
    CHECK(g["overlap"].is_null());
    CHECK(g["steps"].is_array());
    CHECK(g["steps"].empty());
  }
}

TEST_CASE("a communication-only trace: overlap 0 %, no computation") {
  auto imp = test::import_whole(trace({op("ncclKernel_x", "kernel", 3, 0, 10)}));
  FileInput in{"n", 0, &imp->model(), &imp->stats()};
  const nlohmann::json f = file_summary(in, SummaryOptions{});
  CHECK(f["overlap"]["pct"] == 0.0);
  CHECK(f["temporal"]["compute_ns"] == 0);
  CHECK(f["temporal"]["non_compute_ns"] == 10);
}

// The breakdown is one sweep over the class sets' boundaries; here it is checked against the set
// algebra it replaces (unions, differences, clips), on random sets with shared and touching
// boundaries and windows that cut intervals, start before the first or end after the last.
TEST_CASE("temporal breakdown: the sweep gives what the set algebra gives, in any window") {
  uint64_t seed = 12345;
  auto next = [&seed](int64_t n) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<int64_t>((seed >> 33) % static_cast<uint64_t>(n));
  };
  for (int round = 0; round < 200; ++round) {
    GpuActivity a;
    IntervalSet all;
    for (int c = 0; c < kKernelClassCount; ++c) {
      std::vector<Interval> raw;
      const int64_t count = next(12);
      for (int64_t k = 0; k < count; ++k) {
        const int64_t b = next(40) * 5;  // multiples of 5: boundaries shared between classes
        raw.push_back({b, b + next(8) * 5});
      }
      a.by_class[c] = IntervalSet::union_of(raw);
      all = all.unite(a.by_class[c]);
    }
    const int64_t begin = next(60) * 5 - 50, end = begin + next(60) * 5;
    CAPTURE(round);
    CAPTURE(begin);
    CAPTURE(end);
    const TemporalBreakdown t = temporal_breakdown_in(a, begin, end);
    IntervalSet s[kKernelClassCount];
    for (int c = 0; c < kKernelClassCount; ++c) s[c] = a.by_class[c].clip(begin, end);
    const IntervalSet& comp = s[int(KernelClass::kComputation)];
    const IntervalSet& comm = s[int(KernelClass::kCommunication)];
    const IntervalSet& mem = s[int(KernelClass::kMemory)];
    const IntervalSet& other = s[int(KernelClass::kOther)];
    const IntervalSet comp_comm = comp.unite(comm);
    CHECK(t.span_ns == end - begin);
    CHECK(t.busy_ns == all.clip(begin, end).total());
    for (int c = 0; c < kKernelClassCount; ++c) CHECK(t.class_ns[c] == s[c].total());
    CHECK(t.compute_ns == comp.total());
    CHECK(t.exposed_communication_ns == comm.subtract(comp).total());
    CHECK(t.exposed_memory_ns == mem.subtract(comp_comm).total());
    CHECK(t.exposed_other_ns == other.subtract(comp_comm.unite(mem)).total());
    CHECK(t.compute_ns + t.exposed_communication_ns + t.exposed_memory_ns + t.exposed_other_ns + t.idle_ns ==
          t.span_ns);
  }
}

}  // namespace tw
