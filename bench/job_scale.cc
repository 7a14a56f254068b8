// tw_job_scale: how the job analysis (core/job) scales with the ranks of a job, on synthetic rank
// records (no import: the records are what machines would send): R ranks, each with C allreduces
// alternating between its tensor-parallel group of 8 and the data-parallel group of all ranks,
// arrivals staggered by rank. Prints one table row per R.
//   build/native/tw_job_scale [C] [R...]      (default C = 1000, R = 64 256 1024)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/job/job_analysis.h"

namespace {

std::vector<tw::RankRecord> synthetic_job(int ranks, int calls) {
  std::vector<tw::RankRecord> job(static_cast<size_t>(ranks));
  for (int r = 0; r < ranks; ++r) {
    tw::RankRecord& rec = job[static_cast<size_t>(r)];
    rec.has_rank = true;
    rec.rank = r;
    rec.world_size = ranks;
    for (int s = 0; s < 5; ++s) {
      tw::RankStep st;
      st.number = s;
      st.begin_ns = s * 100000000LL;
      st.end_ns = st.begin_ns + 99000000;
      rec.steps.push_back(st);
    }
    for (int c = 0; c < calls; ++c) {
      tw::CollectiveCall k;
      k.group = c % 2 ? "dp" : "tp" + std::to_string(r / 8);
      k.op = "allreduce";
      k.dtype = "BFloat16";
      k.nelems = 1 << 20;
      k.bytes = 2 << 20;
      k.step = c * 5 / calls;
      k.begin_ns = c * 50000LL + (r * 37 % 1000);
      k.end_ns = c * 50000LL + 40000;
      rec.calls.push_back(k);
    }
  }
  return job;
}

}  // namespace

int main(int argc, char** argv) {
  const int calls = argc > 1 ? std::atoi(argv[1]) : 1000;
  std::vector<int> sizes;
  for (int i = 2; i < argc; ++i) sizes.push_back(std::atoi(argv[i]));
  if (sizes.empty()) sizes = {64, 256, 1024};
  std::printf("| ranks | calls per rank | calls | instances | analysis s | ns per call |\n|---|---|---|---|---|---|\n");
  for (int ranks : sizes) {
    const std::vector<tw::RankRecord> job = synthetic_job(ranks, calls);
    const auto t0 = std::chrono::steady_clock::now();
    const tw::JobAnalysis a = tw::analyze_job(job);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double n = double(ranks) * calls;
    std::printf("| %d | %d | %.0f | %zu | %.3f | %.0f |\n", ranks, calls, n, a.instances.size(), s, s * 1e9 / n);
  }
  return 0;
}
