// The CLI's SummaryOptions::both: the summary's two independent parts on two threads when there is
// a second core to run them (`--jobs` above 1), so that the summary's serial tail after a parallel
// import is shorter. An exception in either part (out of memory) is passed on after both ended.
#pragma once
#include <exception>
#include <functional>
#include <thread>

#include "core/summary/summary.h"

namespace tw {

inline void run_on_two_threads(const std::function<void()>& a, const std::function<void()>& b) {
  std::exception_ptr failed_a;
  std::thread t([&] {
    try {
      a();
    } catch (...) {
      failed_a = std::current_exception();
    }
  });
  std::exception_ptr failed_b;
  try {
    b();
  } catch (...) {
    failed_b = std::current_exception();
  }
  t.join();
  if (failed_a) std::rethrow_exception(failed_a);
  if (failed_b) std::rethrow_exception(failed_b);
}

// opts.both set for `jobs` threads: two when there are two or more, else left unset (one after the other).
inline void use_threads(SummaryOptions& opts, unsigned jobs) {
  if (jobs > 1) opts.both = run_on_two_threads;
}

}  // namespace tw
