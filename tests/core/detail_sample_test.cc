// Every detail analysis on the hand-written sample trace (detail_sample_trace.h), against numbers
// worked out by hand from its intervals.
#include <doctest/doctest.h>

#include "core/analysis/collectives.h"
#include "core/analysis/idle.h"
#include "core/analysis/kernel_classes.h"
#include "core/analysis/kernels.h"
#include "core/analysis/launches.h"
#include "core/analysis/memory.h"
#include "core/analysis/operators.h"
#include "core/analysis/step_breakdown.h"
#include "core/analysis/steps.h"
#include "core/analysis/utilization.h"
#include "core/summary/detail_json.h"
#include "tests/core/detail_sample_trace.h"
#include "tests/core/detail_test_util.h"

namespace tw {
namespace {

constexpr int64_t kUs = 1000;

using Sample = detail_test::SampleModel;

TEST_CASE("detail sample: import gives the expected model") {
  Sample s;
  REQUIRE(!s.imp->stats().fatal);
  CHECK(s.m.gpu_ops.size() == 6);
  CHECK(s.m.launches.size() == 5);
  CHECK(s.m.memory.size() == 3);
}

TEST_CASE("detail sample: idle per stream") {
  Sample s;
  IdleResult r = idle_breakdown(s.m);
  REQUIRE(r.streams.size() == 2);
  const StreamIdle& st = r.streams[0];
  CHECK(st.stream == 7);
  CHECK(st.ops == 5);
  // add: gap [90,112) launched at 105 > 90: host wait. relu: gap [114,120), launched at 111: kernel wait.
  // softmax: gap [125,300), launched at 115: other. memcpy: gap [310,430), launched at 397: host wait.
  CHECK(st.time_ns[0] == (22 + 120) * kUs);
  CHECK(st.count[0] == 2);
  CHECK(st.time_ns[1] == 6 * kUs);
  CHECK(st.time_ns[2] == 175 * kUs);
  CHECK(st.idle_ns == 323 * kUs);
  REQUIRE(st.longest.size() == 4);
  CHECK(st.longest[0].begin_ns == 125 * kUs);
  CHECK(st.longest[0].end_ns == 300 * kUs);
  CHECK(st.longest[0].category == IdleCategory::kOther);
  CHECK(st.longest[1].category == IdleCategory::kHostWait);
  CHECK(r.streams[1].stream == 20);
  CHECK(r.streams[1].idle_ns == 0);
  IdleOptions two;
  two.longest_gaps = 2;
  CHECK(idle_breakdown(s.m, two).streams[0].longest.size() == 2);
}

TEST_CASE("detail sample: kernels per name") {
  Sample s;
  KernelsResult r = kernel_stats(s.m, s.cls);
  CHECK(r.count == 6);
  CHECK(r.total_ns == 171 * kUs);
  REQUIRE(r.by_name.size() == 6);
  CHECK(s.name(r.by_name[0].name) == "ncclDevKernel_AllReduce_Sum_f32_RING_LL");
  CHECK(r.by_name[0].cls == KernelClass::kCommunication);
  CHECK(r.by_name[0].share == doctest::Approx(100.0 / 171));
  CHECK(s.name(r.by_name[1].name) == "sm80_xmma_gemm_f16f16");
  CHECK(r.by_name[1].p50_ns == 50 * kUs);
  CHECK(r.class_ns[static_cast<int>(KernelClass::kMemory)] == 4 * kUs);
}

TEST_CASE("detail sample: operators, self time, device time and op/kernel pairs") {
  Sample s;
  OperatorsResult r = operator_stats(s.m);
  auto find = [&](const char* n) -> const OperatorStat* {
    for (const OperatorStat& o : r.ops)
      if (s.name(o.name) == n) return &o;
    return nullptr;
  };
  const OperatorStat* add = find("aten::add");
  const OperatorStat* item = find("aten::item");
  const OperatorStat* dense = find("aten::_local_scalar_dense");
  REQUIRE(add);
  REQUIRE(item);
  REQUIRE(dense);
  CHECK(add->device_self_ns == 17 * kUs);
  CHECK(add->gpu_ops == 3);
  CHECK(item->self_ns == 2 * kUs);
  CHECK(item->device_self_ns == 0);
  CHECK(item->device_total_ns == 4 * kUs);
  CHECK(dense->device_self_ns == 4 * kUs);
  CHECK(r.launches == 5);
  CHECK(r.launches_attributed == 5);
  CHECK(r.op_kernels.size() == 5);
  for (const OperatorKernel& k : r.op_kernels)
    if (s.name(k.kernel) == "softmax_kernel") {
      CHECK(s.name(k.op) == "aten::add");
      CHECK(k.op_to_launch_ns == 15 * kUs);
      CHECK(k.launch_to_start_ns == 185 * kUs);
    }
}

TEST_CASE("detail sample: launches, queue length and host syncs") {
  Sample s;
  LaunchOptions every_change;
  every_change.queue_changes = true;
  LaunchesResult r = launch_stats(s.m, every_change);
  REQUIRE(r.count == 5);
  CHECK(r.short_ops == 1);       // add_kernel: 2 us on the GPU, 5 us to launch
  CHECK(r.delay_outliers == 1);  // softmax waits 183 us
  CHECK(r.delay.max_ns == 183 * kUs);
  CHECK(r.delay.p50_ns == 10 * kUs);
  CHECK(r.negative_delays == 0);
  CHECK(r.launch_cpu_ns == 21 * kUs);
  CHECK(r.launched_gpu_ns == 71 * kUs);
  CHECK(!r.launch_bound);
  REQUIRE(r.worst_delays.size() == 5);
  CHECK(s.name(s.m.slices.name.at(r.worst_delays[0].gpu_slice)) == "softmax_kernel");
  CHECK(r.worst_delays[0].delay_ns(s.m.slices) == 183 * kUs);
  for (size_t i = 1; i < r.worst_delays.size(); ++i)
    CHECK(r.worst_delays[i - 1].delay_ns(s.m.slices) >= r.worst_delays[i].delay_ns(s.m.slices));
  REQUIRE(r.queues.size() == 1);
  const StreamQueue& q = r.queues[0];
  CHECK(q.stream == 7);
  CHECK(q.series.size() == 10);
  CHECK(q.changes == 10);
  CHECK(q.max_length == 2);
  CHECK(q.time_at_max_ns == 6 * kUs);
  CHECK(queue_time_at_least(q, 1) == (20 + 15 + 180 + 33) * kUs);
  CHECK(r.sync_count == 1);
  CHECK(r.sync_blocked_ns == 50 * kUs);
  REQUIRE(r.syncs.size() == 1);
  CHECK(r.syncs[0].kind == "stream_synchronize");
  REQUIRE(r.sync_sites.size() == 1);
  CHECK(s.name(r.sync_sites[0].name) == "aten::_local_scalar_dense");
  REQUIRE(r.longest_syncs.size() == 1);
  CHECK(s.m.slices.ts_ns[r.longest_syncs[0]] == 400 * kUs);
  CHECK(host_sync_kind("cudaMemcpy") == 3);
  CHECK(host_sync_kind("cudaMemcpyAsync") == -1);
  CHECK(host_sync_kind("hipDeviceSynchronize") == 0);

  // What the summary asks for: the `top` worst delays only, and of each queue its chart and
  // statistics without its every change; the rest as with every record.
  LaunchOptions top2;
  top2.top = 2;
  const LaunchesResult kept = launch_stats(s.m, top2);
  CHECK(kept.count == 5);
  REQUIRE(kept.worst_delays.size() == 2);
  CHECK(kept.worst_delays[0] == r.worst_delays[0]);
  CHECK(kept.worst_delays[1] == r.worst_delays[1]);
  REQUIRE(kept.queues.size() == 1);
  CHECK(kept.queues[0].series.empty());
  CHECK(kept.queues[0].changes == 10);
  CHECK(kept.queues[0].max_length == 2);
  CHECK(kept.queues[0].time_at_max_ns == q.time_at_max_ns);
  CHECK(kept.queues[0].time_weighted_mean == q.time_weighted_mean);
  // Ten changes, far fewer than the chart's room: the chart is every change.
  REQUIRE(kept.queues[0].chart.size() == q.series.size());
  for (size_t i = 0; i < q.series.size(); ++i) {
    CHECK(kept.queues[0].chart[i].ts_ns == q.series[i].ts_ns);
    CHECK(kept.queues[0].chart[i].length == q.series[i].length);
  }
  CHECK(kept.sync_calls.size() == r.sync_calls.size());
}

TEST_CASE("detail sample: memory peaks and share") {
  Sample s;
  MemoryResult r = memory_usage(s.m);
  REQUIRE(r.devices.size() == 1);
  const DeviceMemory& d = r.devices[0];
  CHECK(d.device == 0);
  CHECK(d.samples == 3);
  CHECK(d.peak_allocated == 5000);
  CHECK(d.peak_allocated_ts_ns == 50 * kUs);
  CHECK(d.peak_reserved == 8000);
  CHECK(d.final_allocated == 3000);
  CHECK(d.total_global_mem == 10000);
  CHECK(d.peak_reserved_share == doctest::Approx(0.8));
  CHECK(d.series.size() == 3);
  CHECK(memory_usage(s.m, 1).devices[0].series.size() == 1);
  CHECK(memory_usage(s.m, 1).devices[0].series[0].allocated == 5000);
}

TEST_CASE("detail sample: collectives, sizes and NCCL bandwidths") {
  Sample s;
  CollectivesResult r = collective_stats(s.m, s.cls);
  REQUIRE(r.by_type.size() == 1);
  const CollectiveStat& c = r.by_type[0];
  CHECK(c.type == "allreduce");
  CHECK(c.count == 1);
  CHECK(c.bytes == 4000000);
  CHECK(c.exposed_ns == 100 * kUs);
  CHECK(c.algbw_gbps == doctest::Approx(40.0));
  CHECK(c.busbw_gbps == doctest::Approx(60.0));  // 2 (n-1) / n with n = 4
  CHECK(r.exposed_ns == 100 * kUs);
  CHECK(collective_type("", "ncclDevKernel_AllGather_RING_LL") == "allgather");
  CHECK(collective_type("", "void dpsk::ep::internode::combine<false, 8>(int4*)") == "combine");
  CHECK(collective_type("_reduce_scatter_base", "x") == "reducescatter");
  CHECK(dtype_size_bytes("BFloat16") == 2);
  CHECK(dtype_size_bytes("c10::Half") == 2);
  CHECK(dtype_size_bytes("Long") == 8);
  CHECK(bus_factor("allgather", 8) == doctest::Approx(7.0 / 8));
}

TEST_CASE("detail sample: step breakdown with TensorBoard priorities") {
  Sample s;
  StepBreakdown r = step_breakdown(s.m, find_profiler_steps(s.m), s.cls);
  REQUIRE(r.steps.size() == 1);
  const StepTimes& t = r.steps[0];
  auto ns = [&](StepCategory c) { return t.category_ns[static_cast<int>(c)]; };
  CHECK(ns(StepCategory::kKernel) == 67 * kUs);
  CHECK(ns(StepCategory::kMemcpy) == 4 * kUs);
  CHECK(ns(StepCategory::kMemset) == 0);
  CHECK(ns(StepCategory::kCommunication) == 100 * kUs);
  CHECK(ns(StepCategory::kRuntime) == 67 * kUs);
  CHECK(ns(StepCategory::kDataLoader) == 60 * kUs);
  CHECK(ns(StepCategory::kCpuExec) == 37 * kUs);
  CHECK(ns(StepCategory::kOther) == 665 * kUs);
  CHECK(r.mean_ns == 1000 * kUs);
  CHECK(r.max_ns == 1000 * kUs);
}

TEST_CASE("detail sample: utilisation buckets add up to the busy time") {
  Sample s;
  UtilizationResult r = gpu_utilization(s.m, 4);
  CHECK(r.begin_ns == 40 * kUs);
  CHECK(r.end_ns == 434 * kUs);
  CHECK(r.buckets == 4);
  REQUIRE(r.devices.size() == 1);
  CHECK(r.devices[0].busy_ns == 171 * kUs);
  double busy = 0;
  for (size_t k = 0; k < r.buckets; ++k) {
    int64_t w = std::min(r.end_ns, r.begin_ns + int64_t(k + 1) * r.bucket_ns) - (r.begin_ns + int64_t(k) * r.bucket_ns);
    busy += r.all[k] * double(w);
  }
  CHECK(busy == doctest::Approx(171.0 * kUs).epsilon(1e-6));
  CHECK(gpu_utilization(s.m).buckets <= 1000);
}

}  // namespace
}  // namespace tw

namespace tw {

TEST_CASE("detail json: a queue's chart series ends each bucket at the length the queue ended it at") {
  // 1000 pulses 0 -> 1 -> 0, two per chart bucket: the chart must come back to 0 after each bucket
  // (with the bucket maximum alone it would draw a queue of 1 the whole time).
  std::vector<int64_t> enq, deq;
  for (int64_t i = 0; i < 1000; ++i) {
    enq.push_back(i * 3000);
    deq.push_back(i * 3000 + 1000);
  }
  LaunchesResult r;
  r.queues.push_back(queue_of(0, 7, enq, deq, kMaxChartPoints, false));
  CHECK(r.queues[0].max_length == 1);
  CHECK(r.queues[0].changes == 2000);
  TraceModel m;
  const nlohmann::json j = launches_json(m, r, LaunchOptions{});
  const nlohmann::json& ts = j["queues"][0]["series"]["ts_ns"];
  const nlohmann::json& len = j["queues"][0]["series"]["max_length"];
  CHECK(j["queues"][0]["changes"] == 2000);
  REQUIRE(ts.size() == len.size());
  CHECK(ts.size() <= kMaxChartPoints);
  CHECK(ts.size() >= 400);
  for (size_t k = 0; k < len.size(); ++k) CHECK(len[k] == (k % 2 == 0 ? 1 : 0));  // max, then where it ended
  for (size_t k = 1; k < ts.size(); ++k) CHECK(ts[k].get<int64_t>() > ts[k - 1].get<int64_t>());
}

}  // namespace tw
