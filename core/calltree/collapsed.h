// Collapsed stacks ("frame;frame;frame VALUE", one line per stack with a value, values in ns): the
// format flamegraph.pl, inferno and speedscope read. The first frame is the thread
// (thread_label()); a ';' inside a name reads ':' and line breaks read as spaces, so every line
// parses back into the same path.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/calltree/call_tree.h"

namespace tw {

enum class FlameMeasure { kCpu, kGpu };

// One line per node whose own value (self CPU time, or GPU time launched by the node itself) is
// above zero, in node order.
std::string collapsed_stacks(const TraceModel& m, const CallTree& t, FlameMeasure measure);

// A frame as it appears on a line.
std::string collapsed_frame(std::string_view name);

struct CollapsedLine {
  std::vector<std::string> frames;
  int64_t value = 0;
};
// Lines that do not end in " <integer>" are skipped (flamegraph.pl does the same).
std::vector<CollapsedLine> parse_collapsed(std::string_view text);

}  // namespace tw
