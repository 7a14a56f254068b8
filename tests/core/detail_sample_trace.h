// A hand-written Kineto trace whose every detail number is computed by hand in the tests
// (detail_*_test.cc). Times are microseconds as in Kineto; the comments give the ns intervals.
#pragma once

#include "tests/core/detail_test_util.h"

namespace tw::detail_test {

// CPU thread 1:  ProfilerStep#1 [0,1000)us
//   aten::mm [10,60)        > cudaLaunchKernel [20,30) corr 1
//   aten::add [100,120)     > cudaLaunchKernel [105,110) corr 2, [111,112) corr 4, [115,117) corr 5
//   enumerate(DataLoader)#... [200,320)
//   aten::item [395,455)    > aten::_local_scalar_dense [396,454) > cudaMemcpyAsync [397,400) corr 3,
//                                                                  cudaStreamSynchronize [400,450)
// GPU stream 7:  gemm [40,90) c1, add [112,114) c2, relu [120,125) c4, softmax [300,310) c5,
//                Memcpy DtoH (Device -> Pageable) [430,434) c3
// GPU stream 20: ncclDevKernel_AllReduce [150,250), allreduce of 1e6 floats over 4 ranks
// [memory] device 0: (10us: 1000/2000) (50us: 5000/8000) (90us: 3000/8000) of totalGlobalMem 10000
constexpr const char* kSampleTrace = R"json({
 "deviceProperties": [{"id": 0, "name": "NVIDIA A100", "totalGlobalMem": 10000, "computeMajor": 8, "computeMinor": 0, "numSms": 108}],
 "traceEvents": [
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 0, "dur": 1000},
  {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 10, "dur": 50, "args": {"External id": 11}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 20, "dur": 10, "args": {"correlation": 1, "External id": 11}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 1, "ts": 100, "dur": 20},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 105, "dur": 5, "args": {"correlation": 2}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 111, "dur": 1, "args": {"correlation": 4}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 115, "dur": 2, "args": {"correlation": 5}},
  {"ph": "X", "cat": "user_annotation", "name": "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", "pid": 1, "tid": 1, "ts": 200, "dur": 120},
  {"ph": "X", "cat": "cpu_op", "name": "aten::item", "pid": 1, "tid": 1, "ts": 395, "dur": 60},
  {"ph": "X", "cat": "cpu_op", "name": "aten::_local_scalar_dense", "pid": 1, "tid": 1, "ts": 396, "dur": 58},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaMemcpyAsync", "pid": 1, "tid": 1, "ts": 397, "dur": 3, "args": {"correlation": 3}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaStreamSynchronize", "pid": 1, "tid": 1, "ts": 400, "dur": 50},
  {"ph": "X", "cat": "kernel", "name": "sm80_xmma_gemm_f16f16", "pid": 0, "tid": 7, "ts": 40, "dur": 50, "args": {"correlation": 1, "device": 0, "stream": 7}},
  {"ph": "X", "cat": "kernel", "name": "add_kernel", "pid": 0, "tid": 7, "ts": 112, "dur": 2, "args": {"correlation": 2, "device": 0, "stream": 7}},
  {"ph": "X", "cat": "kernel", "name": "relu_kernel", "pid": 0, "tid": 7, "ts": 120, "dur": 5, "args": {"correlation": 4, "device": 0, "stream": 7}},
  {"ph": "X", "cat": "kernel", "name": "softmax_kernel", "pid": 0, "tid": 7, "ts": 300, "dur": 10, "args": {"correlation": 5, "device": 0, "stream": 7}},
  {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy DtoH (Device -> Pageable)", "pid": 0, "tid": 7, "ts": 430, "dur": 4, "args": {"correlation": 3, "device": 0, "stream": 7, "bytes": 4}},
  {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_f32_RING_LL", "pid": 0, "tid": 20, "ts": 150, "dur": 100,
   "args": {"device": 0, "stream": 20, "Collective name": "allreduce", "In msg nelems": 1000000, "Out msg nelems": 1000000, "dtype": "Float", "Group size": 4}},
  {"ph": "i", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 10, "args": {"Device Type": 1, "Device Id": 0, "Bytes": 1000, "Total Allocated": 1000, "Total Reserved": 2000}},
  {"ph": "i", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 50, "args": {"Device Type": 1, "Device Id": 0, "Bytes": 4000, "Total Allocated": 5000, "Total Reserved": 8000}},
  {"ph": "i", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 90, "args": {"Device Type": 1, "Device Id": 0, "Bytes": -2000, "Total Allocated": 3000, "Total Reserved": 8000}}
 ]
})json";

// The sample imported, with its default kernel classes.
struct SampleModel : ImportedText {
  SampleModel() : ImportedText(kSampleTrace) {}
};

}  // namespace tw::detail_test
