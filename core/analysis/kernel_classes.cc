#include "core/analysis/kernel_classes.h"

#include <nlohmann/json.hpp>
#include <string_view>

#include "core/regex/linear_regex.h"

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
  auto add = [&](std::string pattern, KernelClass cls, uint8_t kinds, bool icase, bool coll, std::string label) {
    r.rules.push_back({std::move(pattern), cls, kinds, icase, coll, std::move(label)});
  };
  // The event kind is the most reliable signal: Kineto puts copies in gpu_memcpy / gpu_memset.
  add("", KernelClass::kMemory, kRuleMemcpy | kRuleMemset, false, false, "gpu_memcpy / gpu_memset");
  // PyTorch records "Collective name" on the kernels its process groups launch.
  add("", KernelClass::kCommunication, kRuleKernel, false, true, "kernel args carry Collective name");
  add("nccl|rccl|hccl|msccl|gloo:", KernelClass::kCommunication, kRuleKernel, true, false,
      "NCCL / RCCL / HCCL / MSCCL / Gloo kernels (ncclKernel*, ncclDevKernel*)");
  add("nvshmem", KernelClass::kCommunication, kRuleKernel, true, false, "NVSHMEM kernels");
  add("deep_?ep::|dpsk::ep::|\\bep::(intra|inter)node::", KernelClass::kCommunication, kRuleKernel, false, false,
      "DeepEP dispatch / combine kernels");
  add("all_?to_?all|alltoall|all2all|cross_device_reduce|custom_?all_?reduce|one_?shot_?all_?reduce|"
      "two_?shot_?all_?reduce|multimem_all_?reduce",
      KernelClass::kCommunication, kRuleKernel, true, false, "all-to-all and custom all-reduce kernels");
  // Copies that some runtimes report as kernels (HIP, MTIA DMA).
  add("^(hip)?Mem(cpy|set)|^dma", KernelClass::kMemory, kRuleKernel, false, false,
      "memcpy / memset / DMA reported as kernels");
  r.fallback = KernelClass::kComputation;
  return r;
}

KernelRules hta_rules() {
  // Python's re.match anchors at the start, so every alternative gets a ^ (".*x" = "x anywhere").
  KernelRules r;
  r.name = "hta";
  r.rules.push_back({"^nccl|^hip|^hccl|ncclKernel", KernelClass::kCommunication, kRuleAnyGpuOp, false, false,
                     "HTA CommunicateKernelGroupingPattern"});
  r.rules.push_back({"^(hip)?Memcpy|^(hip)?Memset|^dma", KernelClass::kMemory, kRuleAnyGpuOp, false, false,
                     "HTA MemoryKernelGroupingPattern"});
  r.rules.push_back({"^nccl|Memcpy|Memset|dma|Sync|^Stream Wait Event|^cuda.*LaunchKernel|^runFunction|^hip|"
                     "^job_exe|^packet|^pe_exe|^cpum_exe_subgraph|^hccl|^collective_subgraph_execution",
                     KernelClass::kOther, kRuleAnyGpuOp, false, false,
                     "not matched by HTA ComputeKernelGroupingPattern (inverse match)"});
  r.fallback = KernelClass::kComputation;
  return r;
}

namespace {

bool class_from_name(const std::string& s, KernelClass* c) {
  for (int i = 0; i < kKernelClassCount; ++i) {
    if (s == kernel_class_name(static_cast<KernelClass>(i))) {
      *c = static_cast<KernelClass>(i);
      return true;
    }
  }
  return false;
}

}  // namespace

bool kernel_rules_from_json(std::string_view json_text, const KernelRules& base, KernelRules* out, std::string* error) {
  using nlohmann::json;
  const json j = json::parse(json_text.begin(), json_text.end(), nullptr, /*allow_exceptions=*/false);
  auto fail = [&](const std::string& msg) {
    if (error) *error = msg;
    return false;
  };
  if (j.is_discarded() || !j.is_object()) return fail("kernel rules: not a JSON object");
  KernelRules r;
  r.name = "user";
  r.fallback = base.fallback;
  bool extend = true;
  if (j.contains("extend")) {
    if (!j["extend"].is_boolean()) return fail("kernel rules: \"extend\" must be true or false");
    extend = j["extend"].get<bool>();
  }
  if (j.contains("fallback")) {
    if (!j["fallback"].is_string() || !class_from_name(j["fallback"].get<std::string>(), &r.fallback))
      return fail("kernel rules: unknown \"fallback\" class");
  }
  if (!j.contains("rules") || !j["rules"].is_array()) return fail("kernel rules: \"rules\" must be an array");
  for (const json& jr : j["rules"]) {
    const std::string where = "kernel rules: rule " + std::to_string(r.rules.size() + 1) + ": ";
    if (!jr.is_object()) return fail(where + "not an object");
    KernelRule rule;
    if (jr.contains("pattern")) {
      if (!jr["pattern"].is_string()) return fail(where + "\"pattern\" must be a string");
      rule.pattern = jr["pattern"].get<std::string>();
      std::string error;
      if (!rule.pattern.empty() && !LinearRegex().compile(rule.pattern, false, &error))
        return fail(where + "invalid regex: " + error);
    }
    if (!jr.contains("class") || !jr["class"].is_string() ||
        !class_from_name(jr["class"].get<std::string>(), &rule.cls))
      return fail(where + "\"class\" must be computation, communication, memory or other");
    if (jr.contains("kinds")) {
      if (!jr["kinds"].is_array()) return fail(where + "\"kinds\" must be an array");
      rule.kinds = 0;
      for (const json& k : jr["kinds"]) {
        const std::string ks = k.is_string() ? k.get<std::string>() : "";
        if (ks == "kernel") rule.kinds |= kRuleKernel;
        else if (ks == "memcpy") rule.kinds |= kRuleMemcpy;
        else if (ks == "memset") rule.kinds |= kRuleMemset;
        else return fail(where + "unknown kind (kernel, memcpy, memset)");
      }
    }
    for (const char* key : {"icase", "needs_collective"}) {
      if (!jr.contains(key)) continue;
      if (!jr[key].is_boolean()) return fail(where + "\"" + key + "\" must be true or false");
      (std::string(key) == "icase" ? rule.icase : rule.needs_collective) = jr[key].get<bool>();
    }
    if (jr.contains("label") && jr["label"].is_string()) rule.label = jr["label"].get<std::string>();
    r.rules.push_back(std::move(rule));
  }
  if (extend) r.rules.insert(r.rules.end(), base.rules.begin(), base.rules.end());
  *out = std::move(r);
  return true;
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
  LinearRegex re;
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
    std::string error;
    c.valid = c.re.compile(r.pattern, r.icase, &error);
    if (!c.valid && bad) bad->push_back(i);
  }
  return out;
}

bool rule_matches(const CompiledRule& c, uint8_t kind, bool has_collective, std::string_view name) {
  const KernelRule& r = *c.rule;
  if (!c.valid || !(r.kinds & kind)) return false;
  if (r.needs_collective && !has_collective) return false;
  return c.any_name || c.re.search(name);
}

}  // namespace

namespace {

// Classifies (name, kind, has collective) keys, memoised per key: names are few, ops are many.
class Classifier {
 public:
  Classifier(const TraceModel& m, const KernelRules& rules, std::vector<size_t>* bad)
      : m_(m), rules_(rules), compiled_(compile(rules, bad)), memo_(m.strings.size() * 6, kUnset) {}

  KernelClass operator()(uint32_t slice, bool coll) {
    const StringId name = m_.slices.name.at(slice);
    const uint8_t kind = kind_bit(m_.slices.kind_at(slice));
    const size_t slot = size_t(name) * 6 + (kind == kRuleKernel ? 0 : kind == kRuleMemcpy ? 1 : 2) + (coll ? 3 : 0);
    if (slot >= memo_.size()) return rules_.fallback;  // names always come from the pool
    if (memo_[slot] == kUnset) {
      KernelClass cls = rules_.fallback;
      const std::string_view text = m_.strings.get(name);
      for (const CompiledRule& c : compiled_) {
        if (rule_matches(c, kind, coll, text)) {
          cls = c.rule->cls;
          break;
        }
      }
      memo_[slot] = static_cast<uint8_t>(cls);
    }
    return static_cast<KernelClass>(memo_[slot]);
  }

 private:
  static constexpr uint8_t kUnset = 0xff;
  const TraceModel& m_;
  const KernelRules& rules_;
  std::vector<CompiledRule> compiled_;
  std::vector<uint8_t> memo_;
};

}  // namespace

std::vector<KernelClass> classify_gpu_ops(const TraceModel& m, const KernelRules& rules,
                                          std::vector<size_t>* bad_rules) {
  Classifier classify(m, rules, bad_rules);
  const GpuOpTable& g = m.gpu_ops;
  std::vector<KernelClass> out(g.size(), rules.fallback);
  // The collective args are by row too: one walk beside the rows instead of a search per row.
  const CollectiveTable& c = g.collectives;
  size_t k = 0;
  for (uint32_t row = 0; row < g.size(); ++row) {
    while (k < c.size() && c.op[k] < row) ++k;
    const bool named = k < c.size() && c.op[k] == row && c.collective[k] != 0;
    out[row] = classify(g.slice[row], named);
  }
  return out;
}

std::vector<KernelClass> classify_slices(const TraceModel& m, const KernelRules& rules,
                                         const std::vector<uint32_t>& slices) {
  Classifier classify(m, rules, nullptr);
  std::vector<KernelClass> out(slices.size(), rules.fallback);
  for (size_t i = 0; i < slices.size(); ++i) {
    if (slices[i] < m.slices.size()) out[i] = classify(slices[i], false);
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
    out[row] = memory_op_kind(m.slices.kind_at(s), m.strings.get(m.slices.name.at(s)));
  }
  return out;
}

}  // namespace tw
