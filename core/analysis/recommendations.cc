#include "core/analysis/recommendations.h"

#include <algorithm>
#include <cstdio>

#include "core/analysis/matrix_unit_usage.h"

namespace tw {

namespace {

std::string count_str(uint64_t n) { return std::to_string(n); }

double ratio(int64_t a, int64_t b) { return b > 0 ? static_cast<double>(a) / static_cast<double>(b) : 0.0; }

std::string severity_for(double value, double medium, double high) {
  return value >= high ? "high" : value >= medium ? "medium" : "low";
}

std::string name_of(const TraceModel& m, StringId id) {
  return id == 0 ? "code outside any operator" : std::string(m.strings.get(id));
}

void data_loading(const RecommendationInputs& in, std::vector<Recommendation>& out) {
  const StepBreakdown* sb = in.steps;
  if (!sb || sb->steps.empty() || sb->total_ns <= 0) return;
  int64_t dl = sb->category_ns[static_cast<int>(StepCategory::kDataLoader)];
  double share = ratio(dl, sb->total_ns);
  if (share <= 0.05) return;
  Recommendation r;
  r.id = "data_loading";
  r.severity = severity_for(share, 0.1, 0.2);
  r.title = "Data loading takes " + format_percent(share) + " of step time";
  r.text = "Data loading takes " + format_percent(share) + " of step time (" + format_duration(dl) + " over " +
           count_str(sb->steps.size()) + " steps), time in which the training loop waits for the next batch. " +
           "Use more DataLoader workers (num_workers), pin_memory=True and persistent_workers=True, or prefetch.";
  r.numbers = {{"dataloader_ns", double(dl)}, {"step_total_ns", double(sb->total_ns)}, {"share", share}};
  std::vector<const StepTimes*> worst;
  for (const StepTimes& st : sb->steps) worst.push_back(&st);
  std::sort(worst.begin(), worst.end(), [](const StepTimes* a, const StepTimes* b) {
    int k = static_cast<int>(StepCategory::kDataLoader);
    return a->category_ns[k] != b->category_ns[k] ? a->category_ns[k] > b->category_ns[k] : a->begin_ns < b->begin_ns;
  });
  for (size_t i = 0; i < worst.size() && i < 3; ++i) {
    r.ranges.push_back({worst[i]->begin_ns, worst[i]->end_ns});
    r.offenders.push_back("ProfilerStep#" + std::to_string(worst[i]->number));
  }
  out.push_back(std::move(r));
}

void exposed_communication(const RecommendationInputs& in, std::vector<Recommendation>& out) {
  const CollectivesResult* c = in.collectives;
  if (!c || in.gpu_span_ns <= 0 || c->exposed_ns <= 0) return;
  double share = ratio(c->exposed_ns, in.gpu_span_ns);
  if (share <= kExposedCommunicationLow) return;
  Recommendation r;
  r.id = "exposed_communication";
  r.severity = severity_for(share, kExposedCommunicationMedium, kExposedCommunicationHigh);
  r.title = "Exposed communication is " + format_percent(share) + " of GPU time";
  std::vector<const CollectiveStat*> types;
  for (const CollectiveStat& t : c->by_type) types.push_back(&t);
  std::sort(types.begin(), types.end(), [](const CollectiveStat* a, const CollectiveStat* b) {
    return a->exposed_ns != b->exposed_ns ? a->exposed_ns > b->exposed_ns : a->type < b->type;
  });
  std::string list;
  for (size_t i = 0; i < types.size() && i < 3; ++i) {
    if (types[i]->exposed_ns <= 0) break;
    list += (i ? ", " : "") + types[i]->type + " " + format_duration(types[i]->exposed_ns);
    r.offenders.push_back(types[i]->type);
  }
  r.text = "Communication that no computation runs under takes " + format_duration(c->exposed_ns) + ", " +
           format_percent(share) + " of the GPU time span" + (list.empty() ? "" : " (" + list + ")") +
           ". Overlap it with computation (DDP bucket sizes, FSDP prefetching, asynchronous collectives, "
           "micro-batch interleaving) or send less data (compression, lower precision).";
  r.numbers = {{"exposed_ns", double(c->exposed_ns)},
               {"communication_ns", double(c->union_ns)},
               {"gpu_span_ns", double(in.gpu_span_ns)},
               {"share", share}};
  r.ranges = c->worst_exposed;
  out.push_back(std::move(r));
}

// The GPU's idle time and what it is measured against: inside the profiler steps (the time the
// step breakdown gives no GPU category) against the step time when there are steps, else the GPU
// span. A GPU busy through its own span can still idle for half of every step (CPU preprocessing
// between the steps' GPU work), and the step is what the user waits for.
struct IdleBasis {
  int64_t idle_ns = 0;
  int64_t basis_ns = 0;
  bool steps = false;
};
IdleBasis idle_basis(const RecommendationInputs& in) {
  const StepBreakdown* sb = in.steps;
  if (sb && !sb->steps.empty() && sb->total_ns > 0) {
    int64_t idle = 0;
    for (StepCategory c :
         {StepCategory::kRuntime, StepCategory::kDataLoader, StepCategory::kCpuExec, StepCategory::kOther})
      idle += sb->category_ns[static_cast<int>(c)];
    return {idle, sb->total_ns, true};
  }
  return {in.gpu_span_ns - in.gpu_busy_ns, in.gpu_span_ns, false};
}

void gpu_idle(const RecommendationInputs& in, std::vector<Recommendation>& out) {
  if (in.gpu_span_ns <= 0) return;
  const IdleBasis basis = idle_basis(in);
  const int64_t idle = basis.idle_ns;
  double share = ratio(idle, basis.basis_ns);
  if (share <= kGpuIdleLow) return;
  Recommendation r;
  r.id = "gpu_idle";
  r.severity = severity_for(share, kGpuIdleMedium, kGpuIdleHigh);
  r.title = "The GPU is idle " + format_percent(share) + (basis.steps ? " of the step time" : " of the time");
  // The causes on the busiest device (the one the idle time above is measured on): its idle
  // stretches add up to its idle time, unlike the per-stream gaps, which overlap one another.
  const DeviceIdle* dev = nullptr;
  if (in.device_idle)
    for (const DeviceIdle& d : *in.device_idle)
      if (!dev || d.busy_ns > dev->busy_ns) dev = &d;
  int64_t cat[kIdleCategoryCount] = {0, 0, 0};
  if (dev)
    for (int k = 0; k < kIdleCategoryCount; ++k) cat[k] = dev->time_ns[k];
  int main = 0;
  for (int k = 1; k < kIdleCategoryCount; ++k)
    if (cat[k] > cat[main]) main = k;
  int64_t causes = cat[0] + cat[1] + cat[2];
  std::string cause;
  if (causes > 0) {
    std::string share_main = format_percent(ratio(cat[main], causes));
    if (main == 0)
      cause = " Most of it (" + share_main +
              ") is host wait: the CPU had not started launching the op that "
              "ended the idle stretch when the GPU ran out of work. Look at CPU-side overhead (Python, data loading, "
              "synchronisations) before the gaps; CUDA graphs or torch.compile reduce launch overhead.";
    else if (main == 1)
      cause = " Most of it (" + share_main +
              ") is kernel wait: short gaps between back-to-back ops. "
              "Fuse small kernels (torch.compile) or capture them in CUDA graphs.";
    else
      cause = " Most of it (" + share_main +
              ") is neither host nor launch wait: the next op was enqueued in time "
              "but waited for an event, another device, communication or a host synchronisation.";
  }
  r.text = "The GPU runs nothing for " + format_duration(idle) + ", " + format_percent(share) +
           (basis.steps ? " of the time in the profiler steps." : " of the time between its first and last op.") +
           cause;
  r.numbers = {{"idle_ns", double(idle)},
               {basis.steps ? "step_total_ns" : "gpu_span_ns", double(basis.basis_ns)},
               {"share", share},
               {"host_wait_ns", double(cat[0])},
               {"kernel_wait_ns", double(cat[1])},
               {"other_ns", double(cat[2])}};
  r.offenders.push_back(idle_category_name(static_cast<IdleCategory>(main)));
  if (dev)
    for (size_t i = 0; i < dev->longest.size() && i < 5; ++i)
      r.ranges.push_back({dev->longest[i].begin_ns, dev->longest[i].end_ns});
  out.push_back(std::move(r));
}

void launch_bound(const RecommendationInputs& in, std::vector<Recommendation>& out) {
  const LaunchesResult* l = in.launches;
  if (!l || !l->launch_bound) return;
  double short_share = ratio(static_cast<int64_t>(l->short_ops), static_cast<int64_t>(l->count));
  Recommendation r;
  r.id = "launch_bound";
  r.severity = severity_for(short_share, 0.6, 0.8);
  r.title = "Launch-bound: most GPU ops are shorter than their launch";
  r.text =
      format_percent(short_share) + " of the " + count_str(l->count) +
      " launched GPU ops run for less time than "
      "their own launch call, and launch calls take " +
      format_duration(l->launch_cpu_ns) + " of CPU time for " + format_duration(l->launched_gpu_ns) +
      " of GPU work: the CPU cannot feed the GPU. Capture the step in "
      "CUDA graphs (torch.compile mode=\"reduce-overhead\"), fuse small ops, or give each op more work (larger batch).";
  r.numbers = {{"short_ops", double(l->short_ops)},
               {"launches", double(l->count)},
               {"launch_cpu_ns", double(l->launch_cpu_ns)},
               {"launched_gpu_ns", double(l->launched_gpu_ns)}};
  for (const auto& [name, n] : l->short_op_names) r.offenders.push_back(std::string(in.model->strings.get(name)));
  for (size_t i = 0; i < l->worst_delays.size() && i < 3; ++i) {
    const LaunchRecord& rec = l->worst_delays[i];
    r.ranges.push_back({in.model->slices.end_ns(rec.launch_slice), in.model->slices.ts_ns[rec.gpu_slice]});
  }
  out.push_back(std::move(r));
}

void host_syncs(const RecommendationInputs& in, std::vector<Recommendation>& out) {
  const LaunchesResult* l = in.launches;
  if (!l || l->sync_calls.empty()) return;
  // With profiler steps only the syncs that start inside one count, against the step time: one
  // before the first step or after the last belongs to the profiler's start-up or shut-down (the
  // torch.cuda.synchronize() before the trace is written), not to the loop being profiled, and the
  // step tables count none there either. Without steps, every sync, against the whole trace.
  const StepBreakdown* sb = in.steps;
  const bool by_steps = sb && !sb->steps.empty() && sb->total_ns > 0;
  const std::vector<SyncCall>& calls = l->sync_calls;
  std::vector<char> counts(calls.size(), by_steps ? 0 : 1);  // per call: counted (all of them without steps)
  if (by_steps) {
    auto at = [&calls](int64_t t) {
      return std::lower_bound(calls.begin(), calls.end(), t,
                              [](const SyncCall& c, int64_t v) { return c.start_ns < v; }) -
             calls.begin();
    };
    for (const StepTimes& st : sb->steps)  // (steps that overlap mark a sync once)
      for (auto k = at(st.begin_ns), e = at(st.end_ns); k < e; ++k) counts[k] = 1;
  }
  std::vector<SyncCall> counted;
  int64_t blocked = 0;
  for (size_t k = 0; k < calls.size(); ++k)
    if (counts[k]) {
      counted.push_back(calls[k]);
      blocked += calls[k].dur_ns;
    }
  const size_t steps = by_steps ? sb->steps.size() : 0;
  const double share = ratio(blocked, by_steps ? sb->total_ns : in.model->max_ts_ns - in.model->min_ts_ns);
  const double per_step = steps ? static_cast<double>(counted.size()) / static_cast<double>(steps) : 0;
  const uint64_t outside = calls.size() - counted.size();
  if (counted.empty() || share < kHostSyncsFrequentShare || (share < kHostSyncsShare && per_step < 10)) return;
  const std::vector<SyncSite> sites = sync_sites_of(counted, 3);
  Recommendation r;
  r.id = "host_syncs";
  r.severity = severity_for(share, 0.1, 0.2);
  const std::string of = by_steps ? " of the step time" : " of the trace";
  r.title = share >= kHostSyncsShare
                ? "Host synchronisations block the CPU " + format_percent(share) + (by_steps ? of : " of the time")
                : "Frequent host synchronisations";
  std::string where;
  for (size_t i = 0; i < sites.size(); ++i) {
    const SyncSite& s = sites[i];
    where += (i ? ", " : "") + name_of(*in.model, s.name) + " (" + count_str(s.count) +
             (s.count == 1 ? " call, " : " calls, ") + format_duration(s.blocked_ns) + ")";
    r.offenders.push_back(s.name == 0 ? std::nullopt : std::optional<std::string>(in.model->strings.get(s.name)));
  }
  char per[32];
  std::snprintf(per, sizeof per, "%.1f", per_step);
  const bool one = counted.size() == 1;
  r.text =
      count_str(counted.size()) + (one ? " host synchronisation" : " host synchronisations") +
      (by_steps ? " in the profiler steps (" + std::string(per) + " per step)" : "") + (one ? " blocks" : " block") +
      " the CPU for " + format_duration(blocked) + ", " + format_percent(share) + of +
      (where.empty() ? "" : std::string(one ? "; it is called from " : "; the main call sites are ") + where) +
      ". While the CPU waits it queues no work, so the GPU drains and idles. .item(), .cpu(), .tolist(), "
      "printing tensors and data-dependent shapes synchronise; keep values on the GPU or synchronise once per step." +
      (outside ? " " + count_str(outside) + " more, outside the steps (the profiler's start-up or shut-down), " +
                     (outside == 1 ? "is" : "are") + " not counted."
               : "");
  for (const SyncCall& c : longest_syncs_of(counted, 5)) r.ranges.push_back({c.start_ns, c.start_ns + c.dur_ns});
  r.numbers = {{"syncs", double(counted.size())},
               {"blocked_ns", double(blocked)},
               {"share", share},
               {"per_step", per_step},
               {"outside_steps", double(outside)}};
  out.push_back(std::move(r));
}

void pageable_memcpy(const RecommendationInputs& in, std::vector<Recommendation>& out) {
  if (in.pageable_copies <= 0) return;
  const IdleBasis basis = idle_basis(in);
  const double share = ratio(in.pageable_copy_ns, std::max<int64_t>(1, basis.basis_ns));
  if (share < kPageableCopyShare) return;
  Recommendation r;
  r.id = "pageable_memcpy";
  r.severity = severity_for(share, 0.02, 0.1);
  r.title = "Copies from pageable host memory";
  r.text = count_str(static_cast<uint64_t>(in.pageable_copies)) + " host/device copies (" +
           std::to_string(in.pageable_copy_bytes) + " bytes, " + format_duration(in.pageable_copy_ns) +
           " on the GPU) use pageable host memory: the driver stages them through a pinned buffer and they cannot "
           "run asynchronously. Pin the host tensors (DataLoader pin_memory=True, tensor.pin_memory()) and copy "
           "with non_blocking=True.";
  r.numbers = {{"copies", double(in.pageable_copies)},
               {"copy_ns", double(in.pageable_copy_ns)},
               {"bytes", double(in.pageable_copy_bytes)},
               {"share", share}};
  out.push_back(std::move(r));
}

void memory_peak(const RecommendationInputs& in, std::vector<Recommendation>& out) {
  if (!in.memory) return;
  for (const DeviceMemory& d : in.memory->devices) {
    if (d.total_global_mem <= 0 || d.peak_reserved_share <= 0.90) continue;
    Recommendation r;
    r.id = "memory_peak";
    r.severity = severity_for(d.peak_reserved_share, 0.95, 0.98);
    r.title = "Device " + std::to_string(d.device) + " memory peaks at " + format_percent(d.peak_reserved_share);
    r.text = "The caching allocator on device " + std::to_string(d.device) + " reserves up to " +
             std::to_string(d.peak_reserved) + " bytes, " + format_percent(d.peak_reserved_share) +
             " of the device's " + std::to_string(d.total_global_mem) + " bytes (allocated peak " +
             format_percent(d.peak_allocated_share) +
             "): the next larger batch or sequence may run out of memory. Reduce activation memory (activation "
             "checkpointing, smaller micro-batches), shard state (FSDP / ZeRO), or curb fragmentation with "
             "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True.";
    r.numbers = {{"peak_reserved_bytes", double(d.peak_reserved)},
                 {"peak_allocated_bytes", double(d.peak_allocated)},
                 {"total_global_mem_bytes", double(d.total_global_mem)},
                 {"share", d.peak_reserved_share}};
    r.ranges.push_back({d.peak_reserved_ts_ns, d.peak_reserved_ts_ns});
    out.push_back(std::move(r));
  }
}

// What moves GEMMs onto the units, by what the generation's units take.
std::string matrix_unit_advice(const GpuFamily& f, MatrixUnits units) {
  if (units == MatrixUnits::kWmma)
    return " WMMA takes FP16 and BF16, not FP32: run them in BF16 or FP16 (torch.autocast(\"cuda\", "
           "dtype=torch.bfloat16)).";
  if (units == MatrixUnits::kMfma)
    return " Run them in BF16 or FP16 (torch.autocast(\"cuda\", dtype=torch.bfloat16)) so that hipBLASLt and "
           "MIOpen pick MFMA kernels, and let PyTorch's GEMMs go to hipBLASLt "
           "(torch.backends.cuda.preferred_blas_library(\"cublaslt\"), which is hipBLASLt on ROCm).";
  if (!f.tf32)  // Volta, Turing: neither TF32 nor BF16 exists there, so neither is suggested
    return " " + f.generation +
           " tensor cores take FP16 inputs only: run them in FP16 with torch.autocast(\"cuda\", "
           "dtype=torch.float16) (and a GradScaler when training), and keep matrix dimensions multiples of 8.";
  return " Run them in BF16 or FP16 (torch.autocast(\"cuda\", dtype=torch.bfloat16)), or let FP32 matmuls use "
         "TF32: torch.set_float32_matmul_precision(\"high\") (or torch.backends.cuda.matmul.allow_tf32 = True; "
         "convolutions: torch.backends.cudnn.allow_tf32 = True). Keep matrix dimensions multiples of 8.";
}

void no_tensor_cores(const RecommendationInputs& in, std::vector<Recommendation>& out) {
  if (!in.kernels) return;
  const MatrixUnitUsage u = matrix_unit_usage(*in.model, *in.kernels);
  MatrixUnits units = u.family.units;
  // An AMD gfx9 device (gfx906, gfx908 or gfx90a) that ran MFMA kernels has MFMA.
  if (units == MatrixUnits::kUnknown && u.family.vendor == GpuVendor::kAmd && u.on_units > 0)
    units = MatrixUnits::kMfma;
  if (units != MatrixUnits::kTensorCores && units != MatrixUnits::kMfma && units != MatrixUnits::kWmma) return;
  // Summed durations against the busiest device's busy union: kernels that overlap (several streams
  // or devices) could add up to more.
  const double share = std::min(1.0, ratio(u.off_units_ns, std::max<int64_t>(1, in.gpu_busy_ns)));
  if (u.misses.empty() || share < 0.05) return;
  const std::string unit_name = matrix_units_name(units);
  const bool none_on = u.on_units == 0 && u.unknown_units == 0;
  const std::string launches = count_str(u.off_units) + " GEMM / convolution kernel launch" +
                               (u.off_units == 1 ? "" : "es") + " (" + format_duration(u.off_units_ns) + ", " +
                               format_percent(share) + " of GPU busy time)";
  Recommendation r;
  r.id = "no_tensor_cores";
  r.severity = severity_for(share, 0.2, 0.4);
  r.title = (none_on ? "GEMMs do not use " : "Some GEMMs do not use ") + unit_name;
  const char* verb = u.off_units == 1 ? " does" : " do";
  if (none_on)
    r.text = "The " + device_label(*u.device, u.family) + " has " + unit_name + ", but its " + launches + verb +
             " not use them.";
  else
    r.text = launches + verb + " not use the " + unit_name + " of the " + device_label(*u.device, u.family) +
             (u.on_units ? ", while other GEMMs and convolutions (" + format_duration(u.on_units_ns) + ") do." : ".");
  r.text += matrix_unit_advice(u.family, units);
  r.numbers = {{"gemm_kernels", double(u.off_units)},
               {"gemm_ns", double(u.off_units_ns)},
               {"matrix_gemm_ns", double(u.on_units_ns)},
               {"unknown_gemm_ns", double(u.unknown_units_ns)},
               {"share", share}};
  for (size_t i = 0; i < u.misses.size() && i < 5; ++i)
    r.offenders.push_back(std::string(in.model->strings.get(u.misses[i].name)));
  out.push_back(std::move(r));
}

void unbalanced_micro_batches(const RecommendationInputs& in, std::vector<Recommendation>& out) {
  if (!in.streams || in.gpu_span_ns <= 0) return;
  const StreamActivity* a = nullptr;
  const StreamActivity* b = nullptr;
  size_t ia = 0, ib = 0;
  for (size_t i = 0; i < in.streams->streams.size(); ++i) {
    const StreamActivity& s = in.streams->streams[i];
    if (s.main_class != KernelClass::kComputation) continue;
    if (!a) a = &s, ia = i;
    else if (!b) b = &s, ib = i;
  }
  if (!a || !b) return;
  // Only streams that each carry a real share of the work count as micro-batches.
  if (ratio(b->busy_ns, in.gpu_span_ns) < 0.10) return;
  int64_t overlap = 0;
  for (const StreamPairOverlap& p : in.streams->pairs)
    if ((p.a == ia && p.b == ib) || (p.a == ib && p.b == ia)) overlap = p.overlap_ns;
  double imbalance = 1.0 - ratio(b->busy_ns, a->busy_ns);
  if (imbalance <= 0.30) return;
  Recommendation r;
  r.id = "unbalanced_micro_batches";
  r.severity = severity_for(imbalance, 0.5, 0.7);
  r.title = "Unbalanced micro-batch streams";
  r.text = "The two busiest computation streams (" + std::to_string(a->stream) + " and " + std::to_string(b->stream) +
           ") are busy " + format_duration(a->busy_ns) + " and " + format_duration(b->busy_ns) +
           " and run together for " + format_duration(overlap) +
           ". Overlapping two micro-batches hides at most the shorter one, so " +
           format_duration(a->busy_ns - b->busy_ns) + " of stream " + std::to_string(a->stream) +
           " has nothing to overlap with: balance the work between the micro-batches.";
  r.numbers = {{"busy_a_ns", double(a->busy_ns)},
               {"busy_b_ns", double(b->busy_ns)},
               {"overlap_ns", double(overlap)},
               {"imbalance", imbalance}};
  r.offenders = {"stream " + std::to_string(a->stream), "stream " + std::to_string(b->stream)};
  out.push_back(std::move(r));
}

}  // namespace

std::string format_duration(int64_t ns) {
  char buf[48];
  double v = static_cast<double>(ns);
  int64_t mag = ns < 0 ? -ns : ns;
  if (mag >= 1000000000) std::snprintf(buf, sizeof buf, "%.3f s", v / 1e9);
  else if (mag >= 1000000) std::snprintf(buf, sizeof buf, "%.3f ms", v / 1e6);
  else if (mag >= 1000) std::snprintf(buf, sizeof buf, "%.1f us", v / 1e3);
  else std::snprintf(buf, sizeof buf, "%lld ns", static_cast<long long>(ns));
  return buf;
}

std::string format_percent(double fraction) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * fraction);
  return buf;
}

std::vector<Recommendation> recommend(const RecommendationInputs& in) {
  std::vector<Recommendation> out;
  if (!in.model) return out;
  data_loading(in, out);
  exposed_communication(in, out);
  gpu_idle(in, out);
  launch_bound(in, out);
  host_syncs(in, out);
  pageable_memcpy(in, out);
  memory_peak(in, out);
  no_tensor_cores(in, out);
  unbalanced_micro_batches(in, out);
  return out;
}

}  // namespace tw
