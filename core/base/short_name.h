// The short name of a trace event: a demangled C++ kernel signature cut to its qualified name, as
// Nsight Systems shows it, and hexadecimal addresses folded. The page draws it on timeline slices
// (web/timeline/short_name.ts) and the run comparison matches kernels and operators by it
// (docs/diff-schema.md), so both implementations are checked against tests/short_names.json.
#pragma once
#include <string>
#include <string_view>

namespace tw {

// "void dpsk::ep::internode::combine<false, 8>(int4*, float*)" -> "dpsk::ep::internode::combine";
// a template that only wraps the real kernel keeps its first type argument
// ("cutlass::device_kernel<flash::FlashAttnBwd<...>>(...)" -> "cutlass::device_kernel<flash::FlashAttnBwd>");
// "(anonymous namespace)" reads "{anonymous}"; "0x" and 6+ hex digits (an address) read "0x…".
// Names without a signature ("aten::mm", "ProfilerStep#3") keep their text.
std::string short_name(std::string_view name);

}  // namespace tw
