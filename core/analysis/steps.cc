#include "core/analysis/steps.h"

#include <algorithm>
#include <string_view>

namespace tw {

bool parse_profiler_step_name(std::string_view name, int64_t* number) {
  constexpr std::string_view kPrefix = "ProfilerStep#";
  if (name.size() <= kPrefix.size() || name.substr(0, kPrefix.size()) != kPrefix) return false;
  int64_t n = 0;
  size_t i = kPrefix.size();
  const size_t digits_begin = i;
  while (i < name.size() && name[i] >= '0' && name[i] <= '9' && i - digits_begin < 18) {
    n = n * 10 + (name[i] - '0');
    ++i;
  }
  if (i == digits_begin) return false;
  *number = n;
  return true;
}

namespace {

// Step number per interned string (-1 = not a step name), built in one pass over the pool.
std::vector<int64_t> step_numbers(const TraceModel& m) {
  std::vector<int64_t> out(m.strings.size(), -1);
  for (StringId id = 0; id < m.strings.size(); ++id) {
    int64_t n;
    if (parse_profiler_step_name(m.strings.get(id), &n)) out[id] = n;
  }
  return out;
}

std::vector<ProfilerStep> find_steps(const TraceModel& m, bool gpu) {
  const std::vector<int64_t> numbers = step_numbers(m);
  const SliceTable& s = m.slices;
  std::vector<ProfilerStep> steps;
  for (uint32_t i = 0; i < s.size(); ++i) {
    const StringId name = s.name.at(i);
    if (name >= numbers.size() || numbers[name] < 0) continue;
    const bool is_gpu = s.kind_at(i) == EventKind::kGpuUserAnnotation;
    if (is_gpu != gpu) continue;
    if (!gpu && m.tracks[s.track_at(i)].kind == TrackKind::kGpuStream) continue;
    steps.push_back({numbers[name], s.ts_ns[i], s.end_ns(i), i});
  }
  std::sort(steps.begin(), steps.end(), [](const ProfilerStep& a, const ProfilerStep& b) {
    if (a.begin_ns != b.begin_ns) return a.begin_ns < b.begin_ns;
    if (a.end_ns != b.end_ns) return a.end_ns > b.end_ns;
    return a.number < b.number;
  });
  // Keep the first occurrence of each step number.
  std::vector<int64_t> seen;
  seen.reserve(steps.size());
  std::vector<ProfilerStep> out;
  for (const ProfilerStep& st : steps) {
    auto it = std::lower_bound(seen.begin(), seen.end(), st.number);
    if (it != seen.end() && *it == st.number) continue;
    seen.insert(it, st.number);
    out.push_back(st);
  }
  return out;
}

}  // namespace

std::vector<ProfilerStep> find_profiler_steps(const TraceModel& m) { return find_steps(m, false); }
std::vector<ProfilerStep> find_gpu_profiler_steps(const TraceModel& m) { return find_steps(m, true); }

}  // namespace tw
