// Instant events (phases i / I / R, and async 'n') for the timeline, built once with the
// TimelineIndex. Thread-scope instants sit on their thread's lane; process-scope ones (and 'R'
// marks) span the lanes of their process; global ones span the whole view. Kineto's "[memory]"
// instants are left out: they are drawn as the memory lanes already.
//
// The window query keeps at most one instant per pixel column per lane (and per process, and for
// the global list), represented by the first instant of the column, with the number it stands for.
#pragma once
#include <cstdint>
#include <vector>

#include "core/model/trace_model.h"

namespace tw {

struct WindowResult;

class InstantIndex {
 public:
  void build(const TraceModel& m);

  // Instant ids (rows of model.instants) in time order, per model track (thread scope), per process
  // (process scope) and global.
  struct Span {
    const uint32_t* ids = nullptr;
    uint32_t size = 0;
  };
  Span of_track(uint32_t model_track) const { return span(by_track_, track_offset_, model_track); }
  Span of_process(uint32_t process) const { return span(by_process_, process_offset_, process); }
  Span global() const { return {global_.data(), static_cast<uint32_t>(global_.size())}; }
  bool track_has_instants(uint32_t model_track) const { return of_track(model_track).size > 0; }
  size_t memory_bytes() const;

  // Appends the instants of `s` that fall in [a, b), one per pixel column of width w, as
  // (start relative to `origin`, id, name, count) into the given columns of `out`.
  static void decimate(const TraceModel& m, Span s, int64_t origin, int64_t a, int64_t b, double w,
                       std::vector<double>& ts, std::vector<uint32_t>& id, std::vector<uint32_t>& name,
                       std::vector<uint32_t>& count);

 private:
  static Span span(const std::vector<uint32_t>& ids, const std::vector<uint32_t>& offset, uint32_t k) {
    if (k + 1 >= offset.size()) return {};
    return {ids.data() + offset[k], offset[k + 1] - offset[k]};
  }
  std::vector<uint32_t> by_track_, track_offset_;
  std::vector<uint32_t> by_process_, process_offset_;
  std::vector<uint32_t> global_;
};

}  // namespace tw
