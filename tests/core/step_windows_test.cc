// The window options of the detail analyses (idle, kernels, launches, collectives, memory) on the
// hand-written sample trace (detail_sample_trace.h), against numbers worked out by hand from its
// intervals; and, on real traces, that windows which partition the trace add up to the whole.
#include <doctest/doctest.h>

#include <map>

#include "core/analysis/collectives.h"
#include "core/analysis/idle.h"
#include "core/analysis/kernel_classes.h"
#include "core/analysis/kernels.h"
#include "core/analysis/launches.h"
#include "core/analysis/memory.h"
#include "core/analysis/operators.h"
#include "tests/core/detail_sample_trace.h"

namespace tw {
namespace {

constexpr int64_t kUs = 1000;
const Interval kA{0, 200 * kUs};           // the sample's first part: gemm, add, relu, the all-reduce
const Interval kB{200 * kUs, 1000 * kUs};  // softmax, the memcpy, the stream sync

using Sample = detail_test::SampleModel;

}  // namespace

TEST_CASE("step windows: idle gaps are clipped to each window, categories from the whole stream") {
  Sample s;
  IdleOptions opt;
  opt.longest_gaps = 2;
  std::vector<IdleResult> r = idle_breakdown_in(s.m, opt, {kB, kA});  // any order: result i is window i
  REQUIRE(r.size() == 2);
  const IdleResult& a = r[1];
  const IdleResult& b = r[0];
  // Stream 7 gaps: [90,112) host, [114,120) kernel, [125,300) other, [310,430) host.
  REQUIRE(a.streams.size() == 2);  // stream 7, and stream 20 (its all-reduce starts at 150)
  const StreamIdle& a7 = a.streams[0];
  CHECK(a7.stream == 7);
  CHECK(a7.ops == 3);  // gemm, add, relu start in [0,200)
  CHECK(a7.first_ns == 40 * kUs);
  CHECK(a7.last_ns == 125 * kUs);
  CHECK(a7.time_ns[0] == 22 * kUs);
  CHECK(a7.time_ns[1] == 6 * kUs);
  CHECK(a7.time_ns[2] == 75 * kUs);  // [125,200) of the 'other' gap
  CHECK(a7.idle_ns == 103 * kUs);
  REQUIRE(a7.longest.size() == 2);
  CHECK(a7.longest[0].begin_ns == 125 * kUs);
  CHECK(a7.longest[0].end_ns == 200 * kUs);
  CHECK(a7.longest[1].length_ns() == 22 * kUs);
  CHECK(a.streams[1].stream == 20);
  CHECK(a.streams[1].ops == 1);
  CHECK(a.streams[1].idle_ns == 0);
  // Window B: stream 20 has nothing there and is left out.
  REQUIRE(b.streams.size() == 1);
  const StreamIdle& b7 = b.streams[0];
  CHECK(b7.ops == 2);
  CHECK(b7.time_ns[0] == 120 * kUs);
  CHECK(b7.time_ns[2] == 100 * kUs);  // [200,300)
  CHECK(b7.count[2] == 1);
  CHECK(b7.idle_ns == 220 * kUs);
  // The two windows cover the trace: their idle adds up to the whole stream's.
  CHECK(a7.idle_ns + b7.idle_ns == idle_breakdown(s.m).streams[0].idle_ns);
  // An empty window and no windows.
  CHECK(idle_breakdown_in(s.m, opt, {{500 * kUs, 500 * kUs}})[0].streams.empty());
  CHECK(idle_breakdown_in(s.m, opt, {}).empty());
}

TEST_CASE("step windows: kernels that start in the window, counted whole") {
  Sample s;
  KernelsResult a = kernel_stats(s.m, s.cls, nullptr, &kA);
  CHECK(a.count == 4);  // gemm 50, add 2, relu 5, all-reduce 100
  CHECK(a.total_ns == 157 * kUs);
  REQUIRE(a.by_name.size() == 4);
  CHECK(s.name(a.by_name[0].name) == "ncclDevKernel_AllReduce_Sum_f32_RING_LL");
  CHECK(a.by_name[0].share == doctest::Approx(100.0 / 157));
  KernelsResult b = kernel_stats(s.m, s.cls, nullptr, &kB);
  CHECK(b.count == 2);  // softmax 10, memcpy 4
  CHECK(b.total_ns == 14 * kUs);
  CHECK(b.class_ns[static_cast<int>(KernelClass::kMemory)] == 4 * kUs);
  // A kept-mask and a window combine.
  std::vector<uint8_t> keep(s.m.gpu_ops.size(), 1);
  keep[0] = 0;  // gemm (rows are in slice order; the gemm is the first GPU op)
  CHECK(kernel_stats(s.m, s.cls, &keep, &kA).total_ns == 107 * kUs);
}

TEST_CASE("step windows: launches and host syncs whose runtime call starts in the window") {
  Sample s;
  LaunchOptions opt;
  opt.window = &kA;
  opt.queues = false;
  LaunchesResult a = launch_stats(s.m, opt);
  REQUIRE(a.count == 4);  // corr 1, 2, 4, 5 (launched at 20, 105, 111, 115)
  // Delays: 40-30 = 10, 112-110 = 2, 120-112 = 8, 300-117 = 183 (us).
  CHECK(a.delay.count == 4);
  CHECK(a.delay.min_ns == 2 * kUs);
  CHECK(a.delay.max_ns == 183 * kUs);
  CHECK(a.delay_outliers == 1);
  CHECK(a.sync_count == 0);
  CHECK(a.queues.empty());
  opt.window = &kB;
  LaunchesResult b = launch_stats(s.m, opt);
  REQUIRE(b.count == 1);  // the memcpy launched at 397
  CHECK(b.delay.max_ns == 30 * kUs);
  CHECK(b.sync_count == 1);  // cudaStreamSynchronize [400,450)
  CHECK(b.sync_blocked_ns == 50 * kUs);
  REQUIRE(b.sync_sites.size() == 1);
  CHECK(s.name(b.sync_sites[0].name) == "aten::_local_scalar_dense");
  // Whole trace = the two windows.
  LaunchesResult w = launch_stats(s.m);
  CHECK(w.count == a.count + b.count);
  CHECK(w.launch_cpu_ns == a.launch_cpu_ns + b.launch_cpu_ns);
  CHECK(!w.queues.empty());
}

TEST_CASE("step windows: collectives start in the window; union and exposed are clipped") {
  Sample s;
  const CommComputeSets sets = comm_compute_sets(s.m, s.cls);
  CollectivesResult a = collective_stats(s.m, s.cls, nullptr, sets, &kA);
  CHECK(a.count == 1);
  CHECK(a.total_ns == 100 * kUs);
  // [150,250) is under no computation; [150,200) of it lies in A.
  CHECK(a.union_ns == 50 * kUs);
  CHECK(a.exposed_ns == 50 * kUs);
  REQUIRE(a.by_type.size() == 1);
  CHECK(a.by_type[0].exposed_ns == 100 * kUs);  // per op: the whole op, as in the whole trace
  // The all-reduce started in A, so B counts no op, but [200,250) of it runs (exposed) in B.
  CollectivesResult b = collective_stats(s.m, s.cls, nullptr, sets, &kB);
  CHECK(b.count == 0);
  CHECK(b.by_type.empty());
  CHECK(b.union_ns == 50 * kUs);
  CHECK(b.exposed_ns == 50 * kUs);
  REQUIRE(b.worst_exposed.size() == 1);
  CHECK(b.worst_exposed[0] == Interval{200 * kUs, 250 * kUs});
  // Without a window: the whole-trace statistics.
  CollectivesResult w = collective_stats(s.m, s.cls, nullptr, sets);
  CHECK(w.union_ns == collective_stats(s.m, s.cls).union_ns);
  CHECK(w.exposed_ns == a.exposed_ns + b.exposed_ns);
}

// The one device's peak in the window: samples inside, peak allocated and when, final allocated.
void check_memory(const TraceModel& m, Interval w, uint64_t samples, int64_t peak, int64_t peak_ts, int64_t final) {
  CAPTURE(w.begin);
  MemoryResult r = memory_usage(m, 1, &w);
  REQUIRE(r.devices.size() == 1);
  CHECK(r.devices[0].samples == samples);
  CHECK(r.devices[0].peak_allocated == peak);
  CHECK(r.devices[0].peak_allocated_ts_ns == peak_ts);
  CHECK(r.devices[0].final_allocated == final);
  CHECK(r.devices[0].peak_reserved == 8000);
  CHECK(!r.devices[0].series.empty() == (samples > 0));
}

TEST_CASE("step windows: memory peak inside the window, the state entering it included") {
  Sample s;
  // Samples: 10us 1000/2000, 50us 5000/8000, 90us 3000/8000 (totalGlobalMem 10000).
  check_memory(s.m, kA, 3, 5000, 50 * kUs, 3000);
  CHECK(memory_usage(s.m, 1, &kA).devices[0].peak_allocated_share == doctest::Approx(0.5));
  check_memory(s.m, kB, 0, 3000, 200 * kUs, 3000);                   // no sample in B: the state left at 90us holds
  check_memory(s.m, {60 * kUs, 95 * kUs}, 1, 5000, 60 * kUs, 3000);  // enters at 5000, then 3000
  const Interval before{0, 5 * kUs};                                 // before the first sample: nothing known
  CHECK(memory_usage(s.m, 1, &before).devices.empty());
}

TEST_CASE("step windows: windows that partition a real trace add up to the whole trace") {
  for (const char* rel : {"hta/tests/data/nccl_parser_config/nccl_data.json.gz",
                          "hta/tests/data/mtia_trace_single_rank/mtia_rank_0.json.gz"}) {
    CAPTURE(rel);
    TraceModel& m = detail_test::data_trace(rel);
    const std::vector<KernelClass> cls = classify_gpu_ops(m, default_rules());
    // Seven windows of uneven width over [first_ts, last_ts]: many ops and gaps straddle a boundary.
    const int64_t t0 = m.min_ts_ns, t1 = m.max_ts_ns + 1;
    std::vector<Interval> windows;
    int64_t b = t0;
    for (int k = 1; k <= 7; ++k) {
      int64_t e = k == 7 ? t1 : t0 + (t1 - t0) * k * k / 49;
      windows.push_back({b, e});
      b = e;
    }
    for (bool hta : {false, true}) {
      CAPTURE(hta);
      IdleOptions opt;
      opt.hta_compat = hta;  // hta: negative gaps (mtia's overlapping ops) land where their op starts
      const IdleResult whole = idle_breakdown(m, opt);
      const std::vector<IdleResult> parts = idle_breakdown_in(m, opt, windows);
      for (const StreamIdle& w : whole.streams) {
        int64_t time[kIdleCategoryCount] = {0, 0, 0};
        uint64_t ops = 0;
        for (const IdleResult& p : parts)
          for (const StreamIdle& st : p.streams)
            if (st.device == w.device && st.stream == w.stream) {
              for (int c = 0; c < kIdleCategoryCount; ++c) time[c] += st.time_ns[c];
              ops += st.ops;
            }
        CAPTURE(w.stream);
        for (int c = 0; c < kIdleCategoryCount; ++c) CHECK(time[c] == w.time_ns[c]);
        CHECK(ops == w.ops);
      }
    }
    const KernelsResult all = kernel_stats(m, cls);
    uint64_t count = 0;
    int64_t total = 0;
    for (const Interval& w : windows) {
      const KernelsResult k = kernel_stats(m, cls, nullptr, &w);
      count += k.count;
      total += k.total_ns;
    }
    CHECK(count == all.count);
    CHECK(total == all.total_ns);

    // CPU operators: every cpu_op slice and every launch starts in exactly one window, so calls,
    // total time and launches add up per name; device time is checked against a brute-force pass
    // (a launch's GPU time goes to its innermost operator when that operator is in the window).
    const std::vector<uint32_t>& parents = m.slices.parent;
    const OperatorsResult whole_ops = operator_stats(m);
    std::map<StringId, std::pair<uint64_t, int64_t>> calls_total;
    uint64_t launches = 0;
    for (const Interval& w : windows) {
      const OperatorsResult r = operator_stats(m, &w);
      launches += r.launches;
      int64_t device_self = 0, brute_device_self = 0;
      for (const OperatorStat& o : r.ops) {
        CHECK(o.calls > 0);
        calls_total[o.name].first += o.calls;
        calls_total[o.name].second += o.total_ns;
        device_self += o.device_self_ns;
      }
      for (const LaunchLink& l : m.launches) {
        const int64_t ts = m.slices.ts_ns[l.launch_slice];
        if (ts < w.begin || ts >= w.end) continue;
        uint32_t p = parents[l.launch_slice];
        while (p != kNoParent && m.slices.kind_at(p) != EventKind::kCpuOp) p = parents[p];
        if (p != kNoParent && m.slices.ts_ns[p] >= w.begin) brute_device_self += m.slices.dur_at(l.gpu_slice);
      }
      if (r.launches_by_external_id == 0) CHECK(device_self == brute_device_self);
    }
    CHECK(launches == whole_ops.launches);
    CHECK(calls_total.size() == whole_ops.ops.size());
    for (const OperatorStat& o : whole_ops.ops) {
      CAPTURE(m.strings.get(o.name));
      CHECK(calls_total[o.name].first == o.calls);
      CHECK(calls_total[o.name].second == o.total_ns);
    }
  }
}

}  // namespace tw
