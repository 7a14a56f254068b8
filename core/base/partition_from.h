// partition_from: std::partition_point started from a guess. Where successive searches land near
// each other (a cursor moving through sorted rows), each costs O(log distance from the guess)
// instead of O(log n): the flow endpoints' slices, the launches of GPU ops.
#pragma once
#include <algorithm>
#include <cstddef>

namespace tw {

// The first element of [begin, end) for which pred fails (pred holds on a prefix: the same answer
// as std::partition_point), searched outward from `hint` (in [begin, end]) with doubling steps,
// then by bisection inside the bracket found.
template <class It, class Pred>
It partition_from(It begin, It end, It hint, Pred pred) {
  It lo = begin, hi = end;  // the answer is in [lo, hi]
  std::ptrdiff_t step = 1;
  if (hint < end && pred(*hint)) {
    lo = hint + 1;
    while (lo < end) {
      It probe = lo + (std::min(step, end - lo) - 1);
      if (!pred(*probe)) {
        hi = probe;
        break;
      }
      lo = probe + 1;
      step *= 2;
    }
  } else {
    hi = hint;
    while (hi > begin) {
      It probe = hi - std::min(step, hi - begin);
      if (pred(*probe)) {
        lo = probe + 1;
        break;
      }
      hi = probe;
      step *= 2;
    }
  }
  return std::partition_point(lo, hi, pred);
}

}  // namespace tw
