// Kernel classes: every GPU op (kernel / memcpy / memset row of model.gpu_ops) is computation,
// communication, memory or other. The rules are DATA (a list of name regexes with a class, an
// event-kind mask and an optional "carries Collective name" condition), so users can override them
// and so HTA's exact rules are just another rule list (hta_rules()).
//
// Regexes (core/regex, linear time) are matched once per distinct interned name, not once per op:
// a trace has millions of kernels but only thousands of distinct names.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "core/model/trace_model.h"

namespace tw {

enum class KernelClass : uint8_t { kComputation = 0, kCommunication = 1, kMemory = 2, kOther = 3 };
constexpr int kKernelClassCount = 4;
const char* kernel_class_name(KernelClass c);  // "computation", "communication", "memory", "other"

// Which model event kinds a rule applies to (bit mask).
enum : uint8_t {
  kRuleKernel = 1,
  kRuleMemcpy = 2,
  kRuleMemset = 4,
  kRuleAnyGpuOp = kRuleKernel | kRuleMemcpy | kRuleMemset,
};

struct KernelRule {
  // A regex (the ECMAScript subset of core/regex/regex_syntax.h, without look-arounds and
  // back-references) searched anywhere in the op name (anchor with ^ yourself). Empty = any name.
  std::string pattern;
  KernelClass cls = KernelClass::kComputation;
  uint8_t kinds = kRuleAnyGpuOp;
  bool icase = false;
  // When true the rule matches only ops whose args carry "Collective name" (GpuOpTable.collective).
  bool needs_collective = false;
  std::string label;  // why this rule exists, shown in docs / debug output
};

struct KernelRules {
  std::string name;               // "default", "hta", "user"
  std::vector<KernelRule> rules;  // first match wins
  KernelClass fallback = KernelClass::kComputation;
};

// Our defaults: memcpy/memset ops are memory; anything with "Collective name", NCCL/RCCL/HCCL,
// NVSHMEM, DeepEP (dispatch/combine, e.g. `void dpsk::ep::internode::combine<...>`), all-to-all and
// custom all-reduce kernels are communication; the rest is computation.
KernelRules default_rules();
// HTA 0.6.1 (hta/common/types.py grouping patterns, Python re.match, i.e. anchored at the start):
// communication ^nccl|^hip|^hccl|.*ncclKernel; memory ^(hip)?Memcpy|^(hip)?Memset|^dma; the names its
// compute pattern excludes (Sync, Stream Wait Event, Memcpy/Memset/dma anywhere, launches, MTIA
// executors...) are "other" (HTA counts them as non-compute); the rest is computation. By name
// only: the event category, "Collective name" and DeepEP are ignored (DeepEP is computation).
KernelRules hta_rules();

// User rules as JSON (the form a CLI flag or the web page passes in):
//   {"extend": true, "fallback": "computation",
//    "rules": [{"pattern": "my_allreduce", "class": "communication", "kinds": ["kernel"],
//               "icase": false, "needs_collective": false, "label": "why"}]}
// "extend" (default true) puts the user rules before `base`'s; false replaces them. "class" is one
// of computation / communication / memory / other; "kinds" of kernel / memcpy / memset (default all).
// Returns false with *error set (and *out untouched) on malformed input or an invalid regex.
bool kernel_rules_from_json(std::string_view json_text, const KernelRules& base, KernelRules* out, std::string* error);

// One class per model.gpu_ops row. Invalid regexes never match (no exceptions in the core); their
// indices are reported in *bad_rules when given.
std::vector<KernelClass> classify_gpu_ops(const TraceModel& m, const KernelRules& rules,
                                          std::vector<size_t>* bad_rules = nullptr);

// The same rules for arbitrary slices (HTA also counts cuda_sync events on a stream as GPU work);
// these never carry "Collective name".
std::vector<KernelClass> classify_slices(const TraceModel& m, const KernelRules& rules,
                                         const std::vector<uint32_t>& slices);

// Slices that count as GPU work besides the GPU ops, with their classes (--hta-compat: the events
// HTA counts because they carry a stream, HtaSelection::extra_slices, by classify_slices).
struct ExtraWork {
  const std::vector<uint32_t>* slices = nullptr;
  const std::vector<KernelClass>* classes = nullptr;
  size_t size() const { return slices && classes ? std::min(slices->size(), classes->size()) : 0; }
};

// Memory ops in detail, parsed from the Kineto name ("Memcpy HtoD (Pageable -> Device)",
// "Memset (Device)") and the event kind.
enum class MemoryKind : uint8_t {
  kNone = 0,  // not a memory op
  kMemcpyHtoD,
  kMemcpyDtoH,
  kMemcpyDtoD,
  kMemcpyPtoP,
  kMemcpyOther,  // a memcpy whose direction the name does not tell
  kMemset,
};
constexpr int kMemoryKindCount = 7;
const char* memory_kind_name(MemoryKind k);  // "htod", "dtoh", "dtod", "ptop", "other", "memset"

enum class HostMemory : uint8_t { kUnknown = 0, kPageable, kPinned };
const char* host_memory_name(HostMemory h);  // "unknown", "pageable", "pinned"

struct MemoryOpKind {
  MemoryKind kind = MemoryKind::kNone;
  HostMemory host = HostMemory::kUnknown;  // host side of HtoD / DtoH copies
};
MemoryOpKind memory_op_kind(EventKind kind, std::string_view name);
// One entry per model.gpu_ops row (computed once per distinct name).
std::vector<MemoryOpKind> memory_op_kinds(const TraceModel& m);

}  // namespace tw
