#include "core/job/rank_record.h"

#include <algorithm>
#include <unordered_map>

#include "core/analysis/collectives.h"
#include "core/analysis/kernel_classes.h"
#include "core/analysis/steps.h"

namespace tw {

namespace {

using nlohmann::json;

int64_t int_at(const json& j, const char* key, int64_t otherwise) {
  auto it = j.find(key);
  return it != j.end() && it->is_number_integer() ? it->get<int64_t>() : otherwise;
}

// The step whose window holds t, or kNoStep; `steps` sorted by begin.
int64_t step_at(const std::vector<ProfilerStep>& steps, int64_t t) {
  auto it =
      std::upper_bound(steps.begin(), steps.end(), t, [](int64_t x, const ProfilerStep& s) { return x < s.begin_ns; });
  if (it == steps.begin()) return kNoStep;
  --it;
  return t < it->end_ns ? it->number : kNoStep;
}

// The summary's steps, false when it lists only some of them (a chart's worth).
bool read_steps(const json& summary, RankRecord& r) {
  const auto sb = summary.find("step_breakdown");
  if (sb == summary.end() || !sb->is_object() || !sb->contains("steps")) return true;
  if (int_at(*sb, "count", 0) != static_cast<int64_t>((*sb)["steps"].size())) return false;
  for (const json& s : (*sb)["steps"]) {
    RankStep st;
    st.number = int_at(s, "number", 0);
    st.begin_ns = int_at(s, "begin_ns", 0);
    st.end_ns = int_at(s, "end_ns", 0);
    if (s.contains("categories_ns"))
      for (int c = 0; c < kStepCategoryCount; ++c)
        st.category_ns[c] = int_at(s["categories_ns"], step_category_name(static_cast<StepCategory>(c)), 0);
    r.steps.push_back(st);
  }
  return true;
}

}  // namespace

RankRecord rank_record(const TraceModel& m, const KernelRules& rules, const json& summary) {
  RankRecord r;
  r.file = summary.value("name", std::string());
  r.has_rank = m.meta.has_rank;
  r.rank = m.meta.rank;
  r.world_size = m.meta.has_world_size ? m.meta.world_size : -1;
  if (const auto t = summary.find("temporal"); t != summary.end() && t->is_object()) {
    const int64_t b = int_at(*t, "begin_ns", 0), e = int_at(*t, "end_ns", 0);
    if (int_at(*t, "gpu_ops", 0) > 0) r.gpu_span_ns = e - b;
  }
  if (const auto v = summary.find("verdict"); v != summary.end() && v->is_object() && (*v)["limiter"].is_string())
    r.limiter = (*v)["limiter"].get<std::string>();
  const bool all_steps = read_steps(summary, r);

  // A call belongs to the step it was launched in (the CPU step holds the launch; the kernel may
  // run after the step's CPU side ended); without CPU steps, to the GPU step holding the kernel.
  std::vector<ProfilerStep> steps = find_profiler_steps(m);
  const bool cpu_steps = !steps.empty();
  if (!cpu_steps) steps = find_gpu_profiler_steps(m);
  std::sort(steps.begin(), steps.end(),
            [](const ProfilerStep& a, const ProfilerStep& b) { return a.begin_ns < b.begin_ns; });

  const std::vector<KernelClass> classes = classify_gpu_ops(m, rules);
  if (!all_steps) r.steps = step_breakdown(m, steps, classes).steps;
  const GpuOpTable& g = m.gpu_ops;
  const SliceTable& s = m.slices;
  std::unordered_map<uint32_t, uint32_t> launch_of;  // GPU slice -> launching slice, communication only
  if (cpu_steps) {
    std::vector<uint8_t> comm_slice(s.size(), 0);
    for (size_t i = 0; i < g.size() && i < classes.size(); ++i)
      if (classes[i] == KernelClass::kCommunication) comm_slice[g.slice[i]] = 1;
    for (const LaunchLink& l : m.launches)
      if (l.gpu_slice < s.size() && comm_slice[l.gpu_slice]) launch_of.emplace(l.gpu_slice, l.launch_slice);
  }
  for (size_t i = 0; i < g.size() && i < classes.size(); ++i) {
    if (classes[i] != KernelClass::kCommunication) continue;
    const uint32_t sl = g.slice[i];
    const CollectiveArgs a = g.collective_args(static_cast<uint32_t>(i));
    CollectiveCall c;
    c.group = m.strings.get(a.pg_name);
    c.op = collective_type(m.strings.get(a.collective), m.strings.get(s.name.at(sl)));
    c.dtype = m.strings.get(a.dtype);
    c.seq = a.seq;
    c.nelems = std::max(a.in_nelems, a.out_nelems);
    const int size = dtype_size_bytes(c.dtype);
    c.bytes = c.nelems >= 0 && size > 0 ? c.nelems * size : -1;
    c.group_size = std::max(0, a.group_size);
    c.begin_ns = s.ts_ns[sl];
    c.end_ns = s.end_ns(sl);
    const auto l = launch_of.find(sl);
    c.step = step_at(steps, l != launch_of.end() ? s.ts_ns[l->second] : c.begin_ns);
    r.calls.push_back(std::move(c));
  }
  std::stable_sort(r.calls.begin(), r.calls.end(),
                   [](const CollectiveCall& a, const CollectiveCall& b) { return a.begin_ns < b.begin_ns; });
  return r;
}

}  // namespace tw
