// PyTorch Profiler (Kineto) specifics: categories -> event kinds, GPU op args, launch links by
// correlation id and ac2g flows, distributedInfo, deviceProperties, [memory] instants,
// ProfilerStep#N annotations, integers beyond int64, overlapping X kept on deeper rows. Every input
// is also imported one byte at a time and in random chunks.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "core/import/kineto_fields.h"
#include "tests/core/import_test_util.h"

using namespace tw::test;

namespace {

// A small Kineto-shaped trace: a CPU op launching a kernel and a memcpy on device 0, stream 7.
const char* kKineto = R"json({
  "schemaVersion": 1,
  "deviceProperties": [
    {"id": 0, "name": "NVIDIA H800", "totalGlobalMem": 85045870592, "computeMajor": 9, "computeMinor": 0,
     "maxThreadsPerBlock": 1024, "numSms": 132},
    {"id": 1, "name": "NVIDIA H800", "totalGlobalMem": 85045870592, "computeMajor": 9, "computeMinor": 0, "numSms": 132}
  ],
  "distributedInfo": {"backend": "nccl", "rank": 3, "world_size": 64,
                      "pg_config": [{"pg_name": "0", "pg_desc": "default_pg", "backend_config": "cuda:nccl", "ranks": [0, 1]}]},
  "traceEvents": [
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#7", "pid": 100, "tid": 100,
   "ts": 1000.000, "dur": 500.000, "args": {"External id": 1}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 100, "tid": 100,
   "ts": 1010.123, "dur": 20.5, "args": {"External id": 2, "Sequence number": 9, "Fwd thread id": 0}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 100, "tid": 100,
   "ts": 1012.000, "dur": 5.000, "args": {"External id": 2, "cbid": 211, "correlation": 77}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaMemcpyAsync", "pid": 100, "tid": 100,
   "ts": 1020.000, "dur": 3.000, "args": {"External id": 2, "correlation": 78}},
  {"ph": "X", "cat": "cuda_driver", "name": "cuLaunchKernel", "pid": 100, "tid": 100,
   "ts": 1025.000, "dur": 1.000, "args": {"correlation": 79}},
  {"ph": "X", "cat": "kernel", "name": "sm90_gemm", "pid": 0, "tid": 7,
   "ts": 1030.250, "dur": 100.750,
   "args": {"External id": 2, "device": 0, "stream": 7, "correlation": 77, "registers per thread": 168,
            "shared memory": 232448, "blocks per SM": 1.0, "warps per SM": 3.0,
            "grid": [132, 1, 1], "block": [384, 1, 1], "est. achieved occupancy %": 0}},
  {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pinned -> Device)", "pid": 0, "tid": 7,
   "ts": 1140.000, "dur": 2.000,
   "args": {"External id": 2, "device": 0, "stream": 7, "correlation": 78, "bytes": 4194304,
            "memory bandwidth (GB/s)": 2097.152}},
  {"ph": "X", "cat": "gpu_memset", "name": "Memset (Device)", "pid": 0, "tid": 7,
   "ts": 1150.000, "dur": 1.000, "args": {"device": 0, "stream": 7, "correlation": 79, "bytes": 64}},
  {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_bf16_RING_LL", "pid": 0, "tid": 20,
   "ts": 1200.000, "dur": 50.000,
   "args": {"device": 0, "stream": 20, "correlation": 90, "Collective name": "allreduce", "In msg nelems": 1048576,
            "Out msg nelems": 1048576, "Group size": 8, "dtype": "BFloat16", "Process Group Name": "0",
            "Process Group Description": "default_pg", "Process Group Ranks": "[0, 1, 2, 3, 4, 5, 6, 7]",
            "Comms Id": 18446744073709551615}},
  {"ph": "X", "cat": "gpu_user_annotation", "name": "nccl:all_reduce", "pid": 0, "tid": 20,
   "ts": 1199.000, "dur": 52.000, "args": {"device": 0, "stream": 20}},
  {"ph": "X", "cat": "python_function", "name": "torch/nn/modules/module.py(1501): _call_impl", "pid": 100, "tid": 100,
   "ts": 1005.000, "dur": 400.000, "args": {"Python id": 5, "Python parent id": 4}},
  {"ph": "X", "cat": "cuda_sync", "name": "cudaStreamSynchronize", "pid": 0, "tid": 7,
   "ts": 1300.000, "dur": 4.000, "args": {"device": 0, "stream": 7}},
  {"ph": "s", "id": 77, "pid": 100, "tid": 100, "ts": 1012.000, "cat": "ac2g", "name": "ac2g"},
  {"ph": "f", "id": 77, "pid": 0, "tid": 7, "ts": 1030.250, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 100, "tid": 100, "ts": 1011.000,
   "args": {"Total Reserved": 2097152, "Total Allocated": 1024, "Bytes": 1024, "Addr": 140000000, "Device Type": 1,
            "Device Id": 0}},
  {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 100, "tid": 100, "ts": 1300.000,
   "args": {"Total Reserved": 2097152, "Total Allocated": 0, "Bytes": -1024, "Device Id": -1}},
  {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 100, "tid": 100, "ts": 1301.000,
   "args": {"Bytes": 5}},
  {"name": "process_name", "ph": "M", "ts": 1000, "pid": 0, "tid": 0, "args": {"name": "python"}},
  {"name": "thread_name", "ph": "M", "ts": 1000, "pid": 0, "tid": 7, "args": {"name": "stream 7 "}},
  {"ph": "i", "cat": "Trace", "name": "Iteration Start: PyTorch Profiler", "pid": "Spans", "tid": "PyTorch Profiler",
   "ts": 1000.000, "s": "g"}
  ],
  "traceName": "rank3.json",
  "displayTimeUnit": "ms",
  "baseTimeNanoseconds": 1700000000000000000
})json";

}  // namespace

TEST_CASE("kineto: categories map to event kinds") {
  using K = tw::EventKind;
  CHECK(tw::kineto_kind_from_category("kernel") == K::kKernel);
  CHECK(tw::kineto_kind_from_category("Kernel") == K::kKernel);  // 2021 schema capitalises
  CHECK(tw::kineto_kind_from_category("gpu_memcpy") == K::kMemcpy);
  CHECK(tw::kineto_kind_from_category("Memcpy") == K::kMemcpy);
  CHECK(tw::kineto_kind_from_category("gpu_memset") == K::kMemset);
  CHECK(tw::kineto_kind_from_category("cuda_runtime") == K::kCudaRuntime);
  CHECK(tw::kineto_kind_from_category("Runtime") == K::kCudaRuntime);
  CHECK(tw::kineto_kind_from_category("cuda_driver") == K::kCudaDriver);
  CHECK(tw::kineto_kind_from_category("cpu_op") == K::kCpuOp);
  CHECK(tw::kineto_kind_from_category("Operator") == K::kCpuOp);
  CHECK(tw::kineto_kind_from_category("user_annotation") == K::kUserAnnotation);
  CHECK(tw::kineto_kind_from_category("gpu_user_annotation") == K::kGpuUserAnnotation);
  CHECK(tw::kineto_kind_from_category("python_function") == K::kPythonFunction);
  CHECK(tw::kineto_kind_from_category("cuda_sync") == K::kCudaSync);
  CHECK(tw::kineto_kind_from_category("ac2g") == K::kOther);
  CHECK(tw::kineto_kind_from_category("") == K::kOther);
}

TEST_CASE("kineto: a small trace imports with kinds, GPU op columns, launches and metadata") {
  std::string text = kKineto;
  auto imp = import_all_ways(text);
  tw::TraceModel& m = imp->model();
  const tw::ImportStats& st = imp->stats();
  CHECK(st.events == 20);
  CHECK(phase_count(*imp, "X") == 12);
  CHECK_FALSE(st.truncated);
  CHECK(problem_count(*imp, "integer_beyond_int64") == 1);
  CHECK(problem_count(*imp, "memory_event_without_totals") == 1);

  // Kinds from categories.
  using K = tw::EventKind;
  CHECK(m.slices.kind_at(slice_named(m, "ProfilerStep#7")) == K::kUserAnnotation);
  CHECK(m.slices.kind_at(slice_named(m, "aten::mm")) == K::kCpuOp);
  CHECK(m.slices.kind_at(slice_named(m, "cudaLaunchKernel")) == K::kCudaRuntime);
  CHECK(m.slices.kind_at(slice_named(m, "cuLaunchKernel")) == K::kCudaDriver);
  CHECK(m.slices.kind_at(slice_named(m, "sm90_gemm")) == K::kKernel);
  CHECK(m.slices.kind_at(slice_named(m, "Memcpy HtoD (Pinned -> Device)")) == K::kMemcpy);
  CHECK(m.slices.kind_at(slice_named(m, "Memset (Device)")) == K::kMemset);
  CHECK(m.slices.kind_at(slice_named(m, "nccl:all_reduce")) == K::kGpuUserAnnotation);
  CHECK(m.slices.kind_at(slice_named(m, "torch/nn/modules/module.py(1501): _call_impl")) == K::kPythonFunction);
  CHECK(m.slices.kind_at(slice_named(m, "cudaStreamSynchronize")) == K::kCudaSync);

  // Correlation and External id columns.
  int gemm = slice_named(m, "sm90_gemm");
  CHECK(m.slices.correlation_at(gemm) == 77);
  CHECK(m.slices.external_id_at(gemm) == 2);
  CHECK(m.slices.ts_ns[gemm] == 1030250);
  CHECK(m.slices.dur_at(gemm) == 100750);
  CHECK(m.slices.correlation_at(slice_named(m, "aten::mm")) == tw::kNoId);

  // GPU ops: kernel, memcpy, memset, collective kernel (annotations and syncs are not GPU ops).
  REQUIRE(m.gpu_ops.size() == 4);
  for (size_t r = 0; r < m.gpu_ops.size(); ++r) {
    std::string name = name_of_slice(m, m.gpu_ops.slice[r]);
    CAPTURE(name);
    CHECK(m.gpu_ops.device_at(r) == 0);
    if (name == "sm90_gemm") {
      CHECK(m.gpu_ops.stream_at(r) == 7);
      CHECK(m.gpu_ops.config_at(r).grid[0] == 132);
      CHECK(m.gpu_ops.config_at(r).grid[1] == 1);
      CHECK(m.gpu_ops.config_at(r).block[0] == 384);
      CHECK(m.gpu_ops.bytes_at(static_cast<uint32_t>(r)) == -1);
    } else if (name.rfind("Memcpy", 0) == 0) {
      CHECK(m.gpu_ops.bytes_at(static_cast<uint32_t>(r)) == 4194304);
    } else if (name.rfind("Memset", 0) == 0) {
      CHECK(m.gpu_ops.bytes_at(static_cast<uint32_t>(r)) == 64);
    } else {
      CHECK(m.gpu_ops.stream_at(r) == 20);
      const tw::CollectiveArgs c = m.gpu_ops.collective_args(static_cast<uint32_t>(r));
      CHECK(m.strings.get(c.collective) == "allreduce");
      CHECK(c.in_nelems == 1048576);
      CHECK(c.out_nelems == 1048576);
      CHECK(c.group_size == 8);
      CHECK(m.strings.get(c.dtype) == "BFloat16");
      CHECK(m.strings.get(c.pg_name) == "0");
      // The integer beyond int64 stays in the event's source text, readable on demand.
      uint32_t s = m.gpu_ops.slice[r];
      CHECK(source_of(text, m.slices.src_offset_at(s), m.slices.src_length_at(s)).find("18446744073709551615") !=
            std::string_view::npos);
    }
  }
  // GPU op rows are sorted by slice index.
  for (size_t r = 1; r < m.gpu_ops.size(); ++r) CHECK(m.gpu_ops.slice[r - 1] < m.gpu_ops.slice[r]);

  // GPU stream tracks carry device and stream; the CPU thread stays a thread track.
  const tw::Track& stream7 = m.tracks[m.slices.track_at(gemm)];
  CHECK(stream7.kind == tw::TrackKind::kGpuStream);
  CHECK(stream7.device == 0);
  CHECK(stream7.stream == 7);
  CHECK(m.strings.get(stream7.name) == "stream 7 ");
  CHECK(m.tracks[m.slices.track_at(slice_named(m, "aten::mm"))].kind == tw::TrackKind::kThread);

  // Launch links: runtime and driver calls -> GPU ops, by correlation id.
  std::vector<std::string> launches;
  for (const tw::LaunchLink& l : m.launches)
    launches.push_back(name_of_slice(m, l.launch_slice) + "->" + name_of_slice(m, l.gpu_slice));
  std::sort(launches.begin(), launches.end());
  CHECK(launches == std::vector<std::string>{"cuLaunchKernel->Memset (Device)", "cudaLaunchKernel->sm90_gemm",
                                             "cudaMemcpyAsync->Memcpy HtoD (Pinned -> Device)"});
  // The ac2g flow binds the launch to the kernel as well.
  REQUIRE(m.flows.size() == 1);
  CHECK(name_of_slice(m, m.flows[0].from_slice) == "cudaLaunchKernel");
  CHECK(name_of_slice(m, m.flows[0].to_slice) == "sm90_gemm");

  // [memory] instants: allocator totals per event; the one without totals is counted.
  REQUIRE(m.memory.size() == 2);
  CHECK(m.memory.ts_ns[0] == 1011000);
  CHECK(m.memory.total_allocated[0] == 1024);
  CHECK(m.memory.total_reserved[0] == 2097152);
  CHECK(m.memory.bytes[0] == 1024);
  CHECK(m.memory.device[0] == 0);
  CHECK(m.memory.bytes[1] == -1024);
  CHECK(m.memory.device[1] == -1);
  CHECK(m.instants.size() == 4);  // the [memory] instants stay instants too

  // Top-level metadata.
  const tw::TraceMeta& meta = m.meta;
  CHECK(meta.has_rank);
  CHECK(meta.rank == 3);
  CHECK(meta.world_size == 64);
  CHECK(meta.backend == "nccl");
  CHECK(meta.pg_config_json.find("\"default_pg\"") != std::string::npos);
  REQUIRE(meta.devices.size() == 2);
  CHECK(meta.devices[0].name == "NVIDIA H800");
  CHECK(meta.devices[0].total_global_mem == 85045870592);
  CHECK(meta.devices[0].compute_major == 9);
  CHECK(meta.devices[0].num_sms == 132);
  CHECK(meta.devices[1].id == 1);
  CHECK(meta.trace_name == "rank3.json");
  CHECK(meta.base_time_ns == 1700000000000000000);
  CHECK(meta.schema_version == 1);
  CHECK(m.strings.get(m.processes[stream7.process].name) == "python");
}

TEST_CASE("kineto: ProfilerStep#N annotations are user_annotation slices that enclose their ops") {
  auto imp = import_all_ways(R"([
    {"ph":"X","cat":"user_annotation","name":"ProfilerStep#1","pid":1,"tid":1,"ts":0,"dur":100},
    {"ph":"X","cat":"cpu_op","name":"aten::add","pid":1,"tid":1,"ts":10,"dur":5},
    {"ph":"X","cat":"user_annotation","name":"ProfilerStep#2","pid":1,"tid":1,"ts":100,"dur":100},
    {"ph":"X","cat":"cpu_op","name":"aten::mul","pid":1,"tid":1,"ts":150,"dur":5}])");
  tw::TraceModel& m = imp->model();
  int s1 = slice_named(m, "ProfilerStep#1"), s2 = slice_named(m, "ProfilerStep#2");
  CHECK(m.slices.kind_at(s1) == tw::EventKind::kUserAnnotation);
  CHECK(m.slices.depth[s1] == 0);
  CHECK(m.slices.depth[s2] == 0);  // back to back: ends are exclusive
  CHECK(m.slices.depth[slice_named(m, "aten::add")] == 1);
  CHECK(m.slices.depth[slice_named(m, "aten::mul")] == 1);
  CHECK(imp->stats().problems.empty());
}

TEST_CASE("kineto: overlapping X events on one track are kept on deeper rows, never dropped") {
  auto imp = import_all_ways(R"([
    {"ph":"X","name":"A","pid":0,"tid":7,"ts":0,"dur":10},
    {"ph":"X","name":"B","pid":0,"tid":7,"ts":5,"dur":10},
    {"ph":"X","name":"C","pid":0,"tid":7,"ts":6,"dur":2},
    {"ph":"X","name":"D","pid":0,"tid":7,"ts":12,"dur":10},
    {"ph":"X","name":"E","pid":0,"tid":7,"ts":0,"dur":10},
    {"ph":"X","name":"F","pid":0,"tid":7,"ts":30,"dur":1}])");
  tw::TraceModel& m = imp->model();
  REQUIRE(m.slices.size() == 6);
  auto depth = [&](const char* n) { return m.slices.depth[slice_named(m, n)]; };
  auto flags = [&](const char* n) { return m.slices.flags[slice_named(m, n)]; };
  CHECK(depth("A") != depth("E"));  // identical spans: one nests in the other
  CHECK(depth("B") == 2);
  CHECK((flags("B") & tw::kSliceOverlapping) != 0);
  CHECK(depth("C") == 3);
  CHECK((flags("D") & tw::kSliceOverlapping) != 0);
  CHECK(depth("F") == 0);
  CHECK(problem_count(*imp, "overlapping_slices") == 2);
  // Rows never collide: no two slices on the same row overlap in time.
  for (size_t i = 0; i < m.slices.size(); ++i)
    for (size_t j = i + 1; j < m.slices.size(); ++j)
      if (m.slices.depth[i] == m.slices.depth[j] && m.slices.track_at(i) == m.slices.track_at(j))
        CHECK((m.slices.end_ns(i) <= m.slices.ts_ns[j] || m.slices.end_ns(j) <= m.slices.ts_ns[i]));
  CHECK(m.tracks[0].max_depth == 4);
}

TEST_CASE("kineto: the 2021 schema (computeProperties, capitalised categories, string ids)") {
  auto imp = import_all_ways(R"({"schemaVersion": 1, "computeProperties": [{"id": 0, "name": "Tesla V100-DGXS-32GB",
    "totalGlobalMem": 34089730048, "computeMajor": 7, "computeMinor": 0, "numSms": 80}],
    "traceEvents": [
    {"ph": "X", "cat": "Operator", "name": "aten::conv2d", "pid": 3, "tid": "290", "ts": 10, "dur": 20,
     "args": {"Input dims": [[32, 3, 224, 224]], "External id": 5}},
    {"ph": "X", "cat": "Runtime", "name": "cudaLaunchKernel", "pid": 3, "tid": "290", "ts": 12, "dur": 2,
     "args": {"correlation": 11, "external id": 5}},
    {"ph": "X", "cat": "Kernel", "name": "implicit_convolve_sgemm", "pid": 0, "tid": "stream 7", "ts": 20, "dur": 30,
     "args": {"queued": 0, "device": 0, "context": 1, "stream": 7, "correlation": 11, "external id": 5}},
    {"ph": "s", "id": 11, "pid": 3, "tid": 290, "ts": 12, "cat": "async", "name": "launch"},
    {"ph": "f", "id": 11, "pid": 0, "tid": "stream 7", "ts": 20, "cat": "async", "name": "launch", "bp": "e"}
  ]})");
  tw::TraceModel& m = imp->model();
  REQUIRE(m.meta.devices.size() == 1);
  CHECK(m.meta.devices[0].num_sms == 80);
  REQUIRE(m.launches.size() == 1);
  CHECK(name_of_slice(m, m.launches[0].gpu_slice) == "implicit_convolve_sgemm");
  REQUIRE(m.gpu_ops.size() == 1);
  CHECK(m.gpu_ops.stream_at(0) == 7);
  REQUIRE(m.flows.size() == 1);
  CHECK(name_of_slice(m, m.flows[0].to_slice) == "implicit_convolve_sgemm");
  CHECK(imp->stats().problems.empty());
}

// What deviceProperties holds differs by runtime and by Kineto version: the keys only one runtime
// writes tell which wrote it (tests/data: kineto/tb_plugin/test/gpu_metrics_input.json is the
// 2021 form, hta/.../amd_trace and mtia_inference_trace the ROCm and MTIA forms).
TEST_CASE("kineto: device properties of CUDA (2021 and current), ROCm and MTIA") {
  auto imp = import_all_ways(R"({"computeProperties": [
    {"id": 0, "name": "Tesla V100-DGXS-32GB", "major": 7, "minor": 0, "warpSize": 32, "multiProcessorCount": 80,
     "regsPerMultiprocessor": 65536, "sharedMemPerMultiprocessor": 98304}],
    "deviceProperties": [
    {"id": 1, "name": "AMD Radeon Graphics", "computeMajor": 9, "computeMinor": 0, "warpSize": 64, "numSms": 104,
     "maxSharedMemoryPerMultiProcessor": 65536},
    {"id": 2, "name": "ARTEMIS", "runtimeMajorVersion": 1, "runtimeMinorVersion": 30, "maxGridHeight": 8},
    {"id": 3, "name": "Enflame", "maxSharedMemoryPerMultiProcessor": 65536, "sipCount": 24}],
    "traceEvents": []})");
  const std::vector<tw::DeviceInfo>& d = imp->model().meta.devices;
  REQUIRE(d.size() == 4);
  CHECK(d[0].compute_major == 7);
  CHECK(d[0].compute_minor == 0);
  CHECK(d[0].num_sms == 80);
  CHECK(d[0].warp_size == 32);
  CHECK(d[0].runtime == tw::DeviceRuntime::kCuda);
  CHECK(d[1].compute_major == 9);
  CHECK(d[1].warp_size == 64);
  CHECK(d[1].runtime == tw::DeviceRuntime::kRocm);
  CHECK(d[2].runtime == tw::DeviceRuntime::kMtia);
  CHECK(d[2].compute_major == 0);
  CHECK(d[3].runtime == tw::DeviceRuntime::kUnknown);
}
