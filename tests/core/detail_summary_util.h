// Small Kineto traces for the tests that read a hand-written trace's detail sections
// (recommendations, verdict; detail_test_util.h reads them): events written in one line each.
#pragma once
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/summary/detail_sections.h"
#include "tests/core/detail_test_util.h"

namespace tw::detail_test {

// Kineto events, times in us. A kernel's launch (cudaLaunchKernel on thread 1) is written only when
// launch_ts >= 0.
struct TraceText {
  std::vector<std::string> events;
  TraceText& step(int number, double ts, double dur) {
    return x("user_annotation", "ProfilerStep#" + std::to_string(number), 1, 1, ts, dur, "");
  }
  TraceText& cpu(const std::string& name, double ts, double dur, int tid = 1) {
    return x("cpu_op", name, 1, tid, ts, dur, "");
  }
  TraceText& gpu(const std::string& cat, const std::string& name, double ts, double dur, int stream = 7,
                 double launch_ts = -1, double launch_dur = 1) {
    const std::string corr = std::to_string(events.size() + 1);
    if (launch_ts >= 0) x("cuda_runtime", "cudaLaunchKernel", 1, 1, launch_ts, launch_dur, "\"correlation\": " + corr);
    return x(cat, name, 0, stream, ts, dur,
             "\"correlation\": " + corr + ", \"device\": 0, \"stream\": " + std::to_string(stream));
  }
  TraceText& kernel(const std::string& name, double ts, double dur, int stream = 7, double launch_ts = -1) {
    return gpu("kernel", name, ts, dur, stream, launch_ts);
  }
  TraceText& x(const std::string& cat, const std::string& name, int pid, int tid, double ts, double dur,
               const std::string& args) {
    events.push_back("{\"ph\": \"X\", \"cat\": \"" + cat + "\", \"name\": \"" + name + "\", \"pid\": " +
                     std::to_string(pid) + ", \"tid\": " + std::to_string(tid) + ", \"ts\": " + num(ts) +
                     ", \"dur\": " + num(dur) + (args.empty() ? "" : ", \"args\": {" + args + "}") + "}");
    return *this;
  }
  std::string text() const {
    std::string s = "{\"deviceProperties\": [{\"id\": 0, \"name\": \"NVIDIA A100\", \"totalGlobalMem\": 80000000000, "
                    "\"computeMajor\": 8, \"computeMinor\": 0, \"numSms\": 108}],\n\"traceEvents\": [\n";
    for (size_t i = 0; i < events.size(); ++i) s += (i ? ",\n" : "") + events[i];
    return s + "\n]}";
  }
  static std::string num(double v) {
    std::string s = std::to_string(v);  // "12.500000": enough digits for the ns the tests use
    return s;
  }
};

}  // namespace tw::detail_test
