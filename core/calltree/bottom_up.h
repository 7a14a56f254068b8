// The bottom-up (inverted) call tree: each function at the top with the time spent in it itself
// (self CPU time, and the GPU time it launched itself), and below it the callers that time came
// through, as Chrome DevTools' Bottom-Up and speedscope's sandwich show it.
#pragma once
#include "core/calltree/call_tree.h"

namespace tw {

// Nodes of the result: `total_ns` = self CPU time of the top function through this caller path,
// `gpu_ns` = the GPU time it launched itself through it, `count` = slices; the self fields are 0.
// The thread is the outermost caller.
CallTree bottom_up(const CallTree& top_down);

}  // namespace tw
