#include "core/analysis/collectives.h"

#include <algorithm>
#include <cctype>
#include <unordered_map>

#include "core/analysis/flat_id_map.h"
#include "core/analysis/gpu_rows.h"
#include "core/analysis/hta_compat.h"
#include "core/analysis/intervals.h"

namespace tw {

namespace {

std::string lower_alnum(std::string_view s) {
  std::string out;
  for (char c : s)
    if (std::isalnum(static_cast<unsigned char>(c)))
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool has(const std::string& s, const char* p) { return s.find(p) != std::string::npos; }

}  // namespace

int dtype_size_bytes(std::string_view dtype) {
  std::string d = lower_alnum(dtype);
  if (d.rfind("c10", 0) == 0) d = d.substr(3);
  if (d.rfind("at", 0) == 0 && d.size() > 2 && d != "at") d = d.substr(2);
  if (d == "double" || d == "long" || d == "int64" || d == "float64" || d == "complexfloat" || d == "uint64") return 8;
  if (d == "float" || d == "int" || d == "int32" || d == "float32" || d == "uint32") return 4;
  if (d == "half" || d == "bfloat16" || d == "short" || d == "int16" || d == "float16" || d == "uint16") return 2;
  if (d == "byte" || d == "char" || d == "bool" || d == "int8" || d == "uint8" || d.rfind("float8", 0) == 0) return 1;
  if (d == "complexdouble") return 16;
  if (d == "complexhalf") return 4;
  return 0;
}

std::string collective_type(std::string_view arg, std::string_view kernel) {
  std::string a = lower_alnum(arg.empty() ? kernel : arg);
  if (has(a, "allreduce")) return "allreduce";
  if (has(a, "allgather")) return "allgather";
  if (has(a, "reducescatter")) return "reducescatter";
  if (has(a, "alltoall") || has(a, "all2all")) return "alltoall";
  if (has(a, "broadcast")) return "broadcast";
  if (has(a, "sendrecv")) return "sendrecv";
  if (has(a, "barrier")) return "barrier";
  if (has(a, "dispatch")) return "dispatch";  // DeepEP
  if (has(a, "combine")) return "combine";    // DeepEP
  if (has(a, "reduce")) return "reduce";
  if (has(a, "send")) return "send";
  if (has(a, "recv")) return "recv";
  if (has(a, "coalesced")) return "coalesced";
  return arg.empty() ? "other" : lower_alnum(arg);
}

double bus_factor(std::string_view type, int32_t n) {
  if (n <= 1) return 1.0;
  double f = static_cast<double>(n - 1) / static_cast<double>(n);
  if (type == "allreduce") return 2 * f;
  if (type == "allgather" || type == "reducescatter" || type == "alltoall") return f;
  return 1.0;
}

namespace {

constexpr size_t kWorstExposed = 5;  // CollectivesResult::worst_exposed

// Shared by the whole-trace and the windowed entry points: `window` null = every op.
CollectivesResult stats(const TraceModel& m, const std::vector<KernelClass>& classes, const std::vector<uint8_t>* keep,
                        const CommComputeSets& sets, const Interval* window) {
  CollectivesResult r;
  const IntervalSet& comp_set = sets.computation;
  const IntervalSet& comm_set = sets.communication;
  const SliceTable& s = m.slices;
  const GpuOpTable& g = m.gpu_ops;
  // The exposed stretches (communication minus computation) are walked, not built: their total and
  // the longest few are all that is read. Clipped first: a window costs O(log n + what is inside it).
  auto longer = [](const Interval& a, const Interval& b) {
    return a.length() != b.length() ? a.length() > b.length() : a.begin < b.begin;
  };
  auto exposed = [&r, &longer](const Interval& iv) {
    r.exposed_ns += iv.length();
    if (r.worst_exposed.size() == kWorstExposed && !longer(iv, r.worst_exposed.back())) return;
    r.worst_exposed.insert(std::upper_bound(r.worst_exposed.begin(), r.worst_exposed.end(), iv, longer), iv);
    if (r.worst_exposed.size() > kWorstExposed) r.worst_exposed.pop_back();
  };
  if (window)
    comm_set.clip(window->begin, window->end).each_difference(comp_set.clip(window->begin, window->end), exposed);
  else comm_set.each_difference(comp_set, exposed);
  r.union_ns = window ? comm_set.total_within(window->begin, window->end) : comm_set.total();

  // Type per (collective arg, kernel name) pair, computed once per distinct pair.
  FlatIdMap slot_of;  // (collective arg, kernel name) -> row of by_type
  std::unordered_map<std::string, uint32_t> slot_of_type;
  StringId last_dtype = 0;
  int last_elem = dtype_size_bytes(m.strings.get(last_dtype));
  // A window visits only the rows that start in it (gpu_rows.h); rows stay in order.
  for (const auto& [first, last] : gpu_rows_starting_in(m, window)) {
    for (uint32_t i = first; i < last && i < classes.size(); ++i) {
      if (classes[i] != KernelClass::kCommunication) continue;
      if (!row_selected(keep, i)) continue;
      uint32_t sl = g.slice[i];
      const CollectiveArgs a = g.collective_args(i);
      uint64_t key = (uint64_t(a.collective) << 32) | s.name.at(sl);
      uint32_t slot = slot_of.find(key);
      if (slot == FlatIdMap::kNone) {
        std::string type = collective_type(m.strings.get(a.collective), m.strings.get(s.name.at(sl)));
        auto [t, fresh] = slot_of_type.emplace(type, static_cast<uint32_t>(r.by_type.size()));
        if (fresh) {
          r.by_type.push_back(CollectiveStat{});
          r.by_type.back().type = type;
        }
        bool inserted;
        slot = slot_of.emplace(key, t->second, &inserted);
      }
      CollectiveStat& c = r.by_type[slot];
      int64_t ts = s.ts_ns[sl], dur = s.dur_at(sl);
      c.count++;
      c.total_ns += dur;
      c.exposed_ns += dur - comp_set.total_within(ts, ts + dur);
      c.group_size = std::max(c.group_size, a.group_size);
      int64_t nelems = std::max(a.in_nelems, a.out_nelems);
      if (a.dtype != last_dtype) {  // ops come in runs of one dtype: parse it once per run
        last_dtype = a.dtype;
        last_elem = dtype_size_bytes(m.strings.get(last_dtype));
      }
      const int elem = last_elem;
      if (nelems > 0 && elem > 0 && dur > 0) {
        c.sized++;
        c.bytes += nelems * elem;
        c.sized_ns += dur;
      }
      r.count++;
      r.total_ns += dur;
    }
  }
  for (CollectiveStat& c : r.by_type) {
    c.mean_ns = c.count ? static_cast<double>(c.total_ns) / static_cast<double>(c.count) : 0;
    if (c.sized_ns > 0) {
      c.algbw_gbps = static_cast<double>(c.bytes) / static_cast<double>(c.sized_ns);
      c.busbw_gbps = c.algbw_gbps * bus_factor(c.type, c.group_size);
    }
  }
  std::sort(r.by_type.begin(), r.by_type.end(), [](const CollectiveStat& a, const CollectiveStat& b) {
    if (a.total_ns != b.total_ns) return a.total_ns > b.total_ns;
    return a.type < b.type;
  });
  return r;
}

}  // namespace

CommComputeSets comm_compute_sets(const TraceModel& m, const std::vector<KernelClass>& classes,
                                  const std::vector<uint8_t>* keep) {
  size_t computes = 0, comms = 0;
  for (uint32_t i = 0; i < m.gpu_ops.size() && i < classes.size(); ++i)
    if (row_selected(keep, i))
      computes += classes[i] == KernelClass::kComputation, comms += classes[i] == KernelClass::kCommunication;
  IntervalUnion compute(computes), comm(comms);  // united as they come, in room for their ops (intervals.h)
  for (uint32_t i = 0; i < m.gpu_ops.size() && i < classes.size(); ++i) {
    if (!row_selected(keep, i)) continue;
    uint32_t sl = m.gpu_ops.slice[i];
    if (classes[i] == KernelClass::kComputation) compute.add({m.slices.ts_ns[sl], m.slices.end_ns(sl)});
    else if (classes[i] == KernelClass::kCommunication) comm.add({m.slices.ts_ns[sl], m.slices.end_ns(sl)});
  }
  return {compute.take(), comm.take()};
}

CollectivesResult collective_stats(const TraceModel& m, const std::vector<KernelClass>& classes,
                                   const std::vector<uint8_t>* keep) {
  return stats(m, classes, keep, comm_compute_sets(m, classes, keep), nullptr);
}

CollectivesResult collective_stats(const TraceModel& m, const std::vector<KernelClass>& classes,
                                   const std::vector<uint8_t>* keep, const CommComputeSets& sets,
                                   const Interval* window) {
  return stats(m, classes, keep, sets, window);
}

}  // namespace tw
