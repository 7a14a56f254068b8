#include "core/analysis/verdict.h"

#include <algorithm>
#include <cstdio>

namespace tw {

namespace {

double share_of(int64_t part, int64_t whole) { return whole > 0 ? double(part) / double(whole) : 0.0; }

// Kernel names run to thousands of characters (templates); the sentence keeps their start.
std::string short_name(std::string_view n) {
  constexpr size_t kMax = 80;
  return n.size() <= kMax ? std::string(n) : std::string(n.substr(0, kMax - 3)) + "...";
}

// The basis split. GPU-idle parts are marked so the host-family test can add them up.
struct Split {
  std::vector<VerdictPart> parts;
  std::vector<bool> idle;  // parallel to parts
  void add(const char* id, int64_t ns, int64_t basis, bool gpu_idle) {
    parts.push_back({id, ns, share_of(ns, basis)});
    idle.push_back(gpu_idle);
  }
  int64_t ns(std::string_view id) const {
    for (const VerdictPart& p : parts)
      if (p.id == id) return p.ns;
    return 0;
  }
  int64_t idle_ns() const {
    int64_t s = 0;
    for (size_t i = 0; i < parts.size(); ++i) s += idle[i] ? parts[i].ns : 0;
    return s;
  }
  // The largest GPU-idle part (ties: the first added).
  const VerdictPart* largest_idle() const {
    const VerdictPart* best = nullptr;
    for (size_t i = 0; i < parts.size(); ++i)
      if (idle[i] && parts[i].ns > 0 && (!best || parts[i].ns > best->ns)) best = &parts[i];
    return best;
  }
};

Split steps_split(const StepBreakdown& sb) {
  auto cat = [&sb](StepCategory c) { return sb.category_ns[static_cast<int>(c)]; };
  Split s;
  const int64_t b = sb.total_ns;
  s.add("gpu_compute", cat(StepCategory::kKernel), b, false);
  s.add("exposed_communication", cat(StepCategory::kCommunication), b, false);
  s.add("memory_copy", cat(StepCategory::kMemcpy) + cat(StepCategory::kMemset), b, false);
  s.add("data_loader", cat(StepCategory::kDataLoader), b, true);
  s.add("runtime", cat(StepCategory::kRuntime), b, true);
  s.add("cpu", cat(StepCategory::kCpuExec), b, true);
  s.add("untraced", cat(StepCategory::kOther), b, true);
  return s;
}

// The busiest device's idle time by cause, scaled to the span's idle time (several devices in one
// file: their idle stretches are not the span's, but their proportions are the best account).
Split span_split(const TemporalBreakdown& t, const std::vector<DeviceIdle>* idles) {
  Split s;
  const int64_t b = t.span_ns;
  s.add("gpu_compute", t.compute_ns, b, false);
  s.add("exposed_communication", t.exposed_communication_ns, b, false);
  s.add("memory_copy", t.exposed_memory_ns, b, false);
  s.add("other_gpu", t.exposed_other_ns, b, false);
  const DeviceIdle* dev = nullptr;
  if (idles)
    for (const DeviceIdle& d : *idles)
      if (!dev || d.busy_ns > dev->busy_ns) dev = &d;
  const int64_t causes = dev ? dev->time_ns[0] + dev->time_ns[1] + dev->time_ns[2] : 0;
  if (causes <= 0) {
    s.add("gpu_idle", t.idle_ns, b, true);
    return s;
  }
  // Integer parts that add up to idle_ns exactly: the last cause takes the remainder.
  const char* ids[kIdleCategoryCount] = {"gpu_idle_host_wait", "gpu_idle_kernel_wait", "gpu_idle_other"};
  int64_t given = 0;
  for (int k = 0; k < kIdleCategoryCount; ++k) {
    const int64_t ns = k + 1 < kIdleCategoryCount
                           ? static_cast<int64_t>(double(t.idle_ns) * share_of(dev->time_ns[k], causes))
                           : t.idle_ns - given;
    given += ns;
    s.add(ids[k], ns, b, true);
  }
  return s;
}

// The DataLoader, when it is the largest idle part, is named even on a launch-bound trace: the loop
// waits for the batch before it launches anything.
Limiter idle_limiter(const VerdictPart& largest, const LaunchesResult* launches) {
  if (largest.id == "data_loader") return Limiter::kDataLoader;
  if (launches && launches->launch_bound) return Limiter::kLaunch;
  if (largest.id == "runtime" || largest.id == "gpu_idle_kernel_wait") return Limiter::kLaunch;
  if (largest.id == "gpu_idle_other") return Limiter::kGpuWait;
  return Limiter::kHost;
}

void top_kernels(const VerdictInputs& in, Verdict& v, bool copies) {
  if (!in.kernels) return;
  int64_t whole = 0;
  std::vector<const KernelStat*> rows;
  for (const KernelStat& k : in.kernels->by_name) {
    const bool copy = k.kind == EventKind::kMemcpy || k.kind == EventKind::kMemset;
    if (copies ? !copy : (copy || k.cls != KernelClass::kComputation)) continue;
    whole += k.total_ns;
    rows.push_back(&k);  // by_name is sorted by total time already
  }
  for (size_t i = 0; i < rows.size() && i < 3; ++i)
    v.top.push_back(
        {std::string(in.model->strings.get(rows[i]->name)), rows[i]->total_ns, share_of(rows[i]->total_ns, whole)});
  v.top_of = copies ? "memory_op_sum" : "computation_kernel_sum";
}

void top_collectives(const VerdictInputs& in, Verdict& v) {
  if (!in.collectives) return;
  std::vector<const CollectiveStat*> types;
  for (const CollectiveStat& t : in.collectives->by_type) types.push_back(&t);
  std::sort(types.begin(), types.end(), [](const CollectiveStat* a, const CollectiveStat* b) {
    return a->exposed_ns != b->exposed_ns ? a->exposed_ns > b->exposed_ns : a->type < b->type;
  });
  for (size_t i = 0; i < types.size() && i < 3 && types[i]->exposed_ns > 0; ++i)
    v.top.push_back({types[i]->type, types[i]->exposed_ns, share_of(types[i]->exposed_ns, in.collectives->exposed_ns)});
  v.top_of = "exposed_communication";
}

void top_operators(const VerdictInputs& in, Verdict& v) {
  if (!in.operators) return;
  int64_t whole = 0;
  for (const OperatorStat& o : in.operators->ops) whole += o.self_ns;
  std::vector<const OperatorStat*> ops;
  for (const OperatorStat& o : in.operators->ops) ops.push_back(&o);
  std::sort(ops.begin(), ops.end(), [&in](const OperatorStat* a, const OperatorStat* b) {
    if (a->self_ns != b->self_ns) return a->self_ns > b->self_ns;
    return in.model->strings.get(a->name) < in.model->strings.get(b->name);
  });
  for (size_t i = 0; i < ops.size() && i < 3 && ops[i]->self_ns > 0; ++i)
    v.top.push_back(
        {std::string(in.model->strings.get(ops[i]->name)), ops[i]->self_ns, share_of(ops[i]->self_ns, whole)});
  v.top_of = "operator_self_sum";
}

std::string names_clause(const Verdict& v, const char* lead, const char* of) {
  if (v.top.empty()) return "";
  std::string s = std::string(lead);
  for (size_t i = 0; i < v.top.size(); ++i)
    s += (i ? ", " : "") + short_name(v.top[i].name) + " (" + format_percent(v.top[i].share) + ")";
  return s + " " + of;
}

const char* part_words(std::string_view id) {
  if (id == "gpu_compute") return "GPU computation";
  if (id == "exposed_communication") return "exposed communication";
  if (id == "memory_copy") return "memory copies and sets";
  if (id == "other_gpu") return "other GPU work";
  if (id == "data_loader") return "the DataLoader";
  if (id == "runtime") return "CUDA runtime calls (launches, synchronisations)";
  if (id == "cpu") return "CPU operators and Python";
  if (id == "untraced") return "nothing recorded on the CPU or the GPU";
  if (id == "gpu_idle_host_wait") return "GPU idle waiting for the host to launch work";
  if (id == "gpu_idle_kernel_wait") return "GPU idle in short gaps between kernels";
  if (id == "gpu_idle_other") return "GPU idle with work queued (waiting on events or other devices)";
  return "GPU idle";
}

std::string sentence(const VerdictInputs& in, const Verdict& v, const Split& s) {
  const bool steps = v.basis == VerdictBasis::kSteps;
  const std::string of = steps ? " of the step time" : " of the GPU's active span";
  const std::string idle = format_percent(share_of(s.idle_ns(), v.basis_ns));
  std::string out;
  switch (v.limiter) {
    case Limiter::kCompute:
      out = "GPU compute-bound: kernels run " + format_percent(share_of(s.ns("gpu_compute"), v.basis_ns)) + of + "." +
            names_clause(v, " The largest are ", "of computation kernel time.");
      if (in.collectives && in.collectives->union_ns > 0)
        out += " Communication runs under computation for " +
               format_percent(1.0 - share_of(in.collectives->exposed_ns, in.collectives->union_ns)) + " of its time.";
      break;
    case Limiter::kCommunication:
      out = "Communication-bound: communication that no computation hides takes " +
            format_percent(share_of(s.ns("exposed_communication"), v.basis_ns)) + of + "." +
            names_clause(v, " Most exposed: ", "of it.");
      break;
    case Limiter::kMemoryCopy:
      out = "Memory-copy-bound: copies and memsets that no kernel hides take " +
            format_percent(share_of(s.ns("memory_copy"), v.basis_ns)) + of + "." +
            names_clause(v, " The largest are ", "of copy and set time.");
      break;
    case Limiter::kDataLoader:
      out = "Data-loader-bound: the GPU is idle " + idle + of + "; the DataLoader alone takes " +
            format_percent(share_of(s.ns("data_loader"), v.basis_ns)) + of +
            ", while the loop waits for the next batch.";
      break;
    case Limiter::kLaunch:
      out = "Launch-bound: the GPU is idle " + idle + of + " while the CPU issues many short kernels" +
            (in.launches && in.launches->count > 0
                 ? " (" + format_percent(share_of(int64_t(in.launches->short_ops), int64_t(in.launches->count))) +
                       " of launched ops run shorter than their launch call)"
                 : std::string()) +
            ".";
      break;
    case Limiter::kHost:
      out = "Host-bound: the GPU is idle " + idle + of + ", waiting for the CPU; the largest part is " +
            part_words(v.gpu_idle_part) + " (" + format_percent(share_of(s.ns(v.gpu_idle_part), v.basis_ns)) + of +
            ")." + names_clause(v, " CPU self time goes to ", "of operator self time.");
      break;
    case Limiter::kGpuWait:
      out = "GPU waiting: the GPU is idle " + idle + of +
            " although work was queued in time: ops wait on events, other devices or synchronisations.";
      break;
    case Limiter::kCpuOnly:
      out = "No GPU work: a CPU-only trace." + names_clause(v, " CPU self time goes to ", "of operator self time.");
      break;
  }
  // The second largest concern, when it is large too: a GPU-side part other than the limiter's, or
  // (limited on the GPU side) the GPU's idle time.
  const VerdictPart* second = nullptr;
  for (const VerdictPart& p : v.parts) {
    if (p.share < kVerdictSecondary || (p.id != "exposed_communication" && p.id != "memory_copy")) continue;
    if ((v.limiter == Limiter::kCommunication && p.id == "exposed_communication") ||
        (v.limiter == Limiter::kMemoryCopy && p.id == "memory_copy"))
      continue;
    if (!second || p.ns > second->ns) second = &p;
  }
  const int64_t idle_ns = s.idle_ns();
  const bool gpu_side = v.gpu_idle_part.empty() && v.limiter != Limiter::kCpuOnly;
  if (gpu_side && share_of(idle_ns, v.basis_ns) >= kVerdictSecondary && (!second || idle_ns >= second->ns))
    out += " The GPU is also idle " + idle + of + ".";
  else if (second)
    out += std::string(" Also: ") + part_words(second->id) + ", " + format_percent(second->share) + of + ".";
  if (v.basis == VerdictBasis::kGpuSpan) out += " (No profiler steps: judged over the GPU's active span.)";
  return out;
}

void backing_rules(const VerdictInputs& in, Verdict& v) {
  if (!in.recommendations) return;
  std::vector<std::string> ids;
  switch (v.limiter) {
    case Limiter::kCompute: ids = {"no_tensor_cores", "unbalanced_micro_batches"}; break;
    case Limiter::kCommunication: ids = {"exposed_communication", "unbalanced_micro_batches"}; break;
    case Limiter::kMemoryCopy: ids = {"pageable_memcpy"}; break;
    case Limiter::kDataLoader: ids = {"data_loading", "gpu_idle"}; break;
    case Limiter::kLaunch: ids = {"launch_bound", "gpu_idle", "host_syncs"}; break;
    case Limiter::kHost: ids = {"gpu_idle", "host_syncs", "data_loading"}; break;
    case Limiter::kGpuWait: ids = {"gpu_idle", "host_syncs"}; break;
    case Limiter::kCpuOnly: break;
  }
  for (const std::string& id : ids)
    for (const Recommendation& r : *in.recommendations)
      if (r.id == id && std::find(v.recommendations.begin(), v.recommendations.end(), id) == v.recommendations.end())
        v.recommendations.push_back(id);
}

}  // namespace

const char* limiter_name(Limiter l) {
  switch (l) {
    case Limiter::kCompute: return "compute";
    case Limiter::kCommunication: return "communication";
    case Limiter::kMemoryCopy: return "memory_copy";
    case Limiter::kDataLoader: return "data_loader";
    case Limiter::kLaunch: return "launch";
    case Limiter::kHost: return "host";
    case Limiter::kGpuWait: return "gpu_wait";
    case Limiter::kCpuOnly: return "cpu_only";
  }
  return "compute";
}

std::string limiter_phrase(std::string_view name) {
  static const std::pair<const char*, const char*> kPhrases[] = {
      {"compute", "GPU compute-bound"},
      {"communication", "communication-bound"},
      {"memory_copy", "memory-copy-bound"},
      {"data_loader", "data-loader-bound"},
      {"launch", "launch-bound"},
      {"host", "host-bound"},
      {"gpu_wait", "waiting on the GPU side (events, other devices)"},
      {"cpu_only", "CPU-only (no GPU work)"}};
  for (const auto& [n, words] : kPhrases)
    if (name == n) return words;
  return std::string(name);
}

const char* verdict_basis_name(VerdictBasis b) {
  return b == VerdictBasis::kSteps ? "steps" : b == VerdictBasis::kGpuSpan ? "gpu_span" : "trace";
}

Verdict verdict(const VerdictInputs& in) {
  Verdict v;
  const TraceModel& m = *in.model;
  const bool gpu = in.temporal && in.temporal->span_ns > 0;
  Split s;
  if (gpu && in.steps && !in.steps->steps.empty() && in.steps->total_ns > 0) {
    v.basis = VerdictBasis::kSteps;
    v.basis_ns = in.steps->total_ns;
    v.steps = in.steps->steps.size();
    s = steps_split(*in.steps);
  } else if (gpu) {
    v.basis = VerdictBasis::kGpuSpan;
    v.basis_ns = in.temporal->span_ns;
    s = span_split(*in.temporal, in.device_idle);
  } else {
    v.basis = VerdictBasis::kTrace;
    v.basis_ns = m.max_ts_ns > m.min_ts_ns ? m.max_ts_ns - m.min_ts_ns : 0;
    v.limiter = Limiter::kCpuOnly;
    top_operators(in, v);
    v.sentence = sentence(in, v, s);
    return v;
  }

  const VerdictPart* largest_idle = s.largest_idle();
  if (largest_idle && share_of(s.idle_ns(), v.basis_ns) >= kVerdictGpuIdle) {
    v.limiter = idle_limiter(*largest_idle, in.launches);
    v.gpu_idle_part = largest_idle->id;
  } else if (share_of(s.ns("exposed_communication"), v.basis_ns) >= kVerdictCommunication) {
    v.limiter = Limiter::kCommunication;
  } else if (share_of(s.ns("memory_copy"), v.basis_ns) >= kVerdictMemoryCopy) {
    v.limiter = Limiter::kMemoryCopy;
  } else {
    v.limiter = Limiter::kCompute;
  }
  switch (v.limiter) {
    case Limiter::kCompute: top_kernels(in, v, false); break;
    case Limiter::kMemoryCopy: top_kernels(in, v, true); break;
    case Limiter::kCommunication: top_collectives(in, v); break;
    case Limiter::kHost: top_operators(in, v); break;
    default: break;
  }
  for (const VerdictPart& p : s.parts)
    if (p.ns > 0) v.parts.push_back(p);
  std::stable_sort(v.parts.begin(), v.parts.end(),
                   [](const VerdictPart& a, const VerdictPart& b) { return a.ns > b.ns; });
  v.sentence = sentence(in, v, s);
  backing_rules(in, v);
  return v;
}

}  // namespace tw
