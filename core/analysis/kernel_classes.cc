#include "core/analysis/kernel_classes.h"

#include <regex>
#include <string_view>

#include "core/analysis/safe_regex.h"

namespace tw {

const char* kernel_class_name(KernelClass c) {
  switch (c) {
    case KernelClass::kComputation: return "computation";
    case KernelClass::kCommunication: return "communication";
    case KernelClass::kMemory: return "memory";
    case KernelClass::kOther: return "other";
  }
  return "other";
}

const char* memory_kind_name(MemoryKind k) {
  switch (k) {
    case MemoryKind::kNone: return "none";
    case MemoryKind::kMemcpyHtoD: return "htod";
    case MemoryKind::kMemcpyDtoH: return "dtoh";
    case MemoryKind::kMemcpyDtoD: return "dtod";
    case MemoryKind::kMemcpyPtoP: return "ptop";
    case MemoryKind::kMemcpyOther: return "other";
    case MemoryKind::kMemset: return "memset";
  }
  return "none";
}

const char* host_memory_name(HostMemory h) {
  switch (h) {
    case HostMemory::kUnknown: return "unknown";
    case HostMemory::kPageable: return "pageable";
    case HostMemory::kPinned: return "pinned";
  }
  return "unknown";
}

KernelRules default_rules() {
  KernelRules r;
  r.name = "default";
  auto add = [&](std::string pattern, KernelClass cls, uint8_t kinds, bool icase, bool coll,
                 std::string label) {
    r.rules.push_back({std::move(pattern), cls, kinds, icase, coll, std::move(label)});
  };
  // The event kind is the most reliable signal: Kineto puts copies in gpu_memcpy / gpu_memset.
  add("", KernelClass::kMemory, kRuleMemcpy | kRuleMemset, false, false, "gpu_memcpy / gpu_memset");
  // PyTorch records "Collective name" on the kernels its process groups launch.
  add("", KernelClass::kCommunication, kRuleKernel, false, true, "kernel args carry Collective name");
  add("nccl|rccl|hccl|msccl|gloo:", KernelClass::kCommunication, kRuleKernel, true, false,
      "NCCL / RCCL / HCCL / MSCCL / Gloo kernels (ncclKernel*, ncclDevKernel*)");
  add("nvshmem", KernelClass::kCommunication, kRuleKernel, true, false, "NVSHMEM kernels");
  add("deep_?ep::|dpsk::ep::|\\bep::(intra|inter)node::", KernelClass::kCommunication, kRuleKernel,
      false, false, "DeepEP dispatch / combine kernels");
  add("all_?to_?all|alltoall|all2all|cross_device_reduce|custom_?all_?reduce|one_?shot_?all_?reduce|"
      "two_?shot_?all_?reduce|multimem_all_?reduce",
      KernelClass::kCommunication, kRuleKernel, true, false,
      "all-to-all and custom all-reduce kernels");
  // Copies that some runtimes report as kernels (HIP, MTIA DMA).
  add("^(hip)?Mem(cpy|set)|^dma", KernelClass::kMemory, kRuleKernel, false, false,
      "memcpy / memset / DMA reported as kernels");
  r.fallback = KernelClass::kComputation;
  return r;
}

KernelRules hta_rules() {
  // HTA's get_kernel_type(name): communication when the name matches its communication pattern
  // (hta/common/types.py CommunicateKernelGroupingPattern: ^nccl, ^hccl, ncclKernel anywhere),
  // else memory when "Memcpy" or "Memset" is in the name, else computation. By name only: the
  // event category, "Collective name" and DeepEP are ignored.
  KernelRules r;
  r.name = "hta";
  r.rules.push_back({"^nccl|^hccl|ncclKernel", KernelClass::kCommunication, kRuleAnyGpuOp, false,
                     false, "HTA communication pattern"});
  r.rules.push_back({"Memcpy|Memset", KernelClass::kMemory, kRuleAnyGpuOp, false, false,
                     "HTA memory pattern"});
  r.fallback = KernelClass::kComputation;
  return r;
}

namespace {

uint8_t kind_bit(EventKind k) {
  switch (k) {
    case EventKind::kMemcpy: return kRuleMemcpy;
    case EventKind::kMemset: return kRuleMemset;
    default: return kRuleKernel;  // kernels and any other GPU op
  }
}

struct CompiledRule {
  const KernelRule* rule = nullptr;
  bool valid = true;
  bool any_name = false;
  std::regex re;
};

std::vector<CompiledRule> compile(const KernelRules& rules, std::vector<size_t>* bad) {
  std::vector<CompiledRule> out(rules.rules.size());
  for (size_t i = 0; i < rules.rules.size(); ++i) {
    const KernelRule& r = rules.rules[i];
    CompiledRule& c = out[i];
    c.rule = &r;
    if (r.pattern.empty()) {
      c.any_name = true;
      continue;
    }
    auto flags = std::regex::ECMAScript | std::regex::optimize;
    if (r.icase) flags |= std::regex::icase;
    c.valid = compile_regex(r.pattern, flags, &c.re);
    if (!c.valid && bad) bad->push_back(i);
  }
  return out;
}

bool rule_matches(const CompiledRule& c, uint8_t kind, bool has_collective, std::string_view name) {
  const KernelRule& r = *c.rule;
  if (!c.valid || !(r.kinds & kind)) return false;
  if (r.needs_collective && !has_collective) return false;
  if (c.any_name) return true;
  return std::regex_search(name.begin(), name.end(), c.re);
}

}  // namespace

std::vector<KernelClass> classify_gpu_ops(const TraceModel& m, const KernelRules& rules,
                                          std::vector<size_t>* bad_rules) {
  const std::vector<CompiledRule> compiled = compile(rules, bad_rules);
  const GpuOpTable& g = m.gpu_ops;
  std::vector<KernelClass> out(g.size(), rules.fallback);
  // Memo per (name id, kind bit, has collective): names are few, ops are many.
  constexpr uint8_t kUnset = 0xff;
  std::vector<uint8_t> memo(m.strings.size() * 8, kUnset);
  for (size_t row = 0; row < g.size(); ++row) {
    const uint32_t s = g.slice[row];
    const StringId name = m.slices.name[s];
    const uint8_t kind = kind_bit(m.slices.kind[s]);
    const bool coll = g.collective[row] != 0;
    const size_t slot = size_t(name) * 8 + (kind == kRuleKernel ? 0 : kind == kRuleMemcpy ? 1 : 2) +
                        (coll ? 4 : 0);
    if (slot >= memo.size()) continue;  // defensive: names always come from the pool
    if (memo[slot] == kUnset) {
      KernelClass cls = rules.fallback;
      const std::string_view text = m.strings.get(name);
      for (const CompiledRule& c : compiled) {
        if (rule_matches(c, kind, coll, text)) {
          cls = c.rule->cls;
          break;
        }
      }
      memo[slot] = static_cast<uint8_t>(cls);
    }
    out[row] = static_cast<KernelClass>(memo[slot]);
  }
  return out;
}

MemoryOpKind memory_op_kind(EventKind kind, std::string_view name) {
  MemoryOpKind r;
  const bool memset_name = name.rfind("Memset", 0) == 0;
  const bool memcpy_name = name.rfind("Memcpy", 0) == 0;
  if (kind == EventKind::kMemset || memset_name) {
    r.kind = MemoryKind::kMemset;
    return r;
  }
  if (kind != EventKind::kMemcpy && !memcpy_name) return r;
  r.kind = MemoryKind::kMemcpyOther;
  // Kineto: "Memcpy HtoD (Pageable -> Device)", "Memcpy DtoH (Device -> Pinned)",
  // "Memcpy DtoD (Device -> Device)", "Memcpy PtoP (Device -> Device)".
  if (memcpy_name && name.size() >= 11) {
    const std::string_view dir = name.substr(7, 4);
    if (dir == "HtoD") r.kind = MemoryKind::kMemcpyHtoD;
    else if (dir == "DtoH") r.kind = MemoryKind::kMemcpyDtoH;
    else if (dir == "DtoD") r.kind = MemoryKind::kMemcpyDtoD;
    else if (dir == "PtoP") r.kind = MemoryKind::kMemcpyPtoP;
  }
  if (r.kind == MemoryKind::kMemcpyHtoD || r.kind == MemoryKind::kMemcpyDtoH) {
    if (name.find("Pageable") != std::string_view::npos) r.host = HostMemory::kPageable;
    else if (name.find("Pinned") != std::string_view::npos) r.host = HostMemory::kPinned;
  }
  return r;
}

std::vector<MemoryOpKind> memory_op_kinds(const TraceModel& m) {
  const GpuOpTable& g = m.gpu_ops;
  std::vector<MemoryOpKind> out(g.size());
  for (size_t row = 0; row < g.size(); ++row) {
    const uint32_t s = g.slice[row];
    out[row] = memory_op_kind(m.slices.kind[s], m.strings.get(m.slices.name[s]));
  }
  return out;
}

}  // namespace tw
