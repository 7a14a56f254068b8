#include "core/import/kineto_fields.h"

#include <cctype>
#include <string>

#include "core/base/decimal.h"

namespace tw {

namespace {

bool arg_int(const RawEvent& e, KnownArg key, int64_t& out, bool* overflow = nullptr) {
  const RawArg* a = e.arg(key);
  if (!a || (a->type != ArgType::kNumber && a->type != ArgType::kString)) return false;
  if (a->has_int) {
    out = a->int_value;
    return true;
  }
  if (parse_int64(a->text, out)) return true;
  // Floats that hold integers (e.g. 7.0) are accepted; huge integers are reported.
  int64_t scaled = 0;
  if (parse_decimal_scaled(a->text, 0, scaled)) {
    out = scaled;
    return true;
  }
  if (overflow) *overflow = true;
  return false;
}

}  // namespace

EventKind kineto_kind_from_category(std::string_view cat) {
  std::string c(cat);
  for (char& ch : c) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  // MTIA (Meta's accelerator) writes its device work and runtime calls under its own categories;
  // HTA treats them as kernels and runtime launches, and so do we.
  if (c == "kernel" || c == "mtia_ccp_events") return EventKind::kKernel;
  if (c == "gpu_memcpy" || c == "memcpy") return EventKind::kMemcpy;
  if (c == "gpu_memset" || c == "memset") return EventKind::kMemset;
  if (c == "cuda_runtime" || c == "runtime" || c == "mtia_runtime") return EventKind::kCudaRuntime;
  if (c == "cuda_driver") return EventKind::kCudaDriver;
  if (c == "cpu_op" || c == "operator") return EventKind::kCpuOp;
  if (c == "user_annotation") return EventKind::kUserAnnotation;
  if (c == "gpu_user_annotation") return EventKind::kGpuUserAnnotation;
  if (c == "python_function") return EventKind::kPythonFunction;
  if (c == "cuda_sync") return EventKind::kCudaSync;
  return EventKind::kOther;
}

const char* event_kind_name(EventKind k) {
  switch (k) {
    case EventKind::kKernel: return "kernel";
    case EventKind::kMemcpy: return "gpu_memcpy";
    case EventKind::kMemset: return "gpu_memset";
    case EventKind::kCudaRuntime: return "cuda_runtime";
    case EventKind::kCudaDriver: return "cuda_driver";
    case EventKind::kCpuOp: return "cpu_op";
    case EventKind::kUserAnnotation: return "user_annotation";
    case EventKind::kGpuUserAnnotation: return "gpu_user_annotation";
    case EventKind::kPythonFunction: return "python_function";
    case EventKind::kCudaSync: return "cuda_sync";
    case EventKind::kOther: break;
  }
  return "other";
}

KinetoIds read_kineto_ids(const RawEvent& e) {
  KinetoIds ids;
  if (!e.has_args) return ids;
  arg_int(e, kArgCorrelation, ids.correlation, &ids.overflow);
  arg_int(e, kArgExternalId, ids.external_id, &ids.overflow);
  // Any other integer beyond int64 (e.g. "Comms Id") is kept as text in the source; report it.
  for (int i = 0; i < e.n_args && !ids.overflow; ++i) {
    const RawArg& a = e.args[i];
    int64_t v;
    // Fewer than 19 characters always fit in int64: skip the parse for nearly every arg.
    if (a.type == ArgType::kNumber && a.text.size() >= 19 && a.text.find_first_of(".eE") == std::string_view::npos &&
        !parse_int64(a.text, v))
      ids.overflow = true;
  }
  return ids;
}

GpuFields read_gpu_fields(const RawEvent& e, StringPool& pool) {
  GpuFields g;
  if (!e.has_args) return g;
  int64_t v = 0;
  if (arg_int(e, kArgDevice, v)) g.device = static_cast<int32_t>(v);
  arg_int(e, kArgStream, g.stream);
  arg_int(e, kArgBytes, g.bytes);
  CollectiveArgs& c = g.collective;
  if (const RawArg* a = e.arg(kArgCollectiveName)) c.collective = pool.intern(a->text);
  arg_int(e, kArgInMsgNelems, c.in_nelems);
  arg_int(e, kArgOutMsgNelems, c.out_nelems);
  if (arg_int(e, kArgGroupSize, v)) c.group_size = static_cast<int32_t>(v);
  arg_int(e, kArgSeq, c.seq);
  if (const RawArg* a = e.arg(kArgDtype)) c.dtype = pool.intern(a->text);
  if (const RawArg* a = e.arg(kArgProcessGroupName)) c.pg_name = pool.intern(a->text);
  if (const RawArg* a = e.arg(kArgGrid))
    for (int k = 0; k < a->n_ints; ++k) g.grid[k] = static_cast<uint32_t>(a->ints[k]);
  if (const RawArg* a = e.arg(kArgBlock))
    for (int k = 0; k < a->n_ints; ++k) g.block[k] = static_cast<uint32_t>(a->ints[k]);
  return g;
}

uint8_t stream_arg_flags(const RawEvent& e) {
  const RawArg* a = e.has_args ? e.arg(kArgStream) : nullptr;
  if (!a) return 0;
  constexpr uint8_t kArg = kSliceStreamArg, kBoth = kSliceStreamArg | kSliceStreamArgNonNeg;
  if (a->type == ArgType::kBool) return kBoth;  // pandas reads true / false as 1 / 0
  if (a->type != ArgType::kNumber && a->type != ArgType::kString) return 0;
  int64_t v = a->int_value;
  if (a->has_int || parse_int64(a->text, v)) return v >= 0 ? kBoth : v == -1 ? 0 : kArg;
  // A fraction: HTA's int() truncates toward zero, so it is -1 for -2 < x <= -1 and >= 0 for x > -1.
  constexpr int64_t kOne = 1000000000;
  int64_t x = 0;  // the value times 10^9
  if (parse_decimal_scaled(a->text, 9, x)) return x > -kOne ? kBoth : x > -2 * kOne ? 0 : kArg;
  // Too large for 9 decimals, so far from -1 either way; or not a number at all (-1).
  if (!parse_decimal_scaled(a->text, 0, x)) return 0;
  return x >= 0 ? kBoth : kArg;
}

bool read_memory_fields(const RawEvent& e, MemorySample& out) {
  int64_t v = 0;
  if (!arg_int(e, kArgTotalAllocated, out.total_allocated)) return false;
  arg_int(e, kArgTotalReserved, out.total_reserved);
  arg_int(e, kArgMemoryBytes, out.bytes);
  if (arg_int(e, kArgDeviceId, v)) out.device = static_cast<int32_t>(v);
  return true;
}

}  // namespace tw
