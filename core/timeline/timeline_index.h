// TimelineIndex: what the timeline queries need on top of the TraceModel, built once after import.
//  - the list of timeline tracks (lanes), grouped by process, with names and order (track_list.cc);
//  - for every (model track, depth) a row: the slice ids at that depth in time order. Slices at one
//    depth never overlap (finalize.cc puts an overlapping slice one row deeper), so both starts and
//    ends are sorted in a row and a time window is found by binary search, plus a MaxIndex of
//    durations to pick the longest slice of a pixel column without scanning it;
//  - counter and memory series sorted by time, the derived overlap lanes, and colour classes;
//  - instant events per thread / process / globally (instants.h).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/analysis/intervals.h"
#include "core/model/trace_model.h"
#include "core/timeline/instants.h"
#include "core/timeline/max_index.h"

namespace tw {

// Colour classes sent with each window item (the page maps them to colours).
enum class SliceClass : uint8_t {
  kOther = 0,
  kCpuOp = 1,
  kPython = 2,
  kRuntime = 3,        // CUDA runtime / driver calls (launches)
  kCompute = 4,        // GPU kernel classed computation
  kCommunication = 5,  // GPU kernel classed communication
  kMemory = 6,         // memcpy / memset
  kAnnotation = 7,
  kSync = 8,
  kCommHidden = 9,    // overlap lane: communication overlapped by computation
  kCommExposed = 10,  // overlap lane: communication with no computation beside it
};

enum class LaneKind : uint8_t { kSlices = 0, kCounter = 1, kMemory = 2, kOverlap = 3 };

struct TimelineGroup {
  std::string name;
  int64_t pid = 0;
  bool gpu = false;               // holds GPU streams
  uint32_t process = UINT32_MAX;  // model.processes index; UINT32_MAX for the derived / memory group
};

struct TimelineTrack {
  LaneKind kind = LaneKind::kSlices;
  uint32_t group = 0;
  uint32_t source = 0;  // model track / series (counters, memory) / overlap lane index
  std::string name;
  uint32_t rows = 1;  // depth of a slice lane, 1 for counters, 3 for an overlap lane
};

// One sampled series (a counter or a memory total), sorted by time.
struct SeriesData {
  std::vector<int64_t> ts_ns;
  std::vector<double> value;
};

// Overlap lane of one GPU device: row 0 computation busy, row 1 communication hidden behind
// computation, row 2 communication exposed.
struct OverlapLane {
  int32_t device = -1;
  IntervalSet rows[3];
  MaxIndex longest[3];
};

class TimelineIndex {
 public:
  explicit TimelineIndex(const TraceModel& m);

  const TraceModel& model() const { return m_; }
  int64_t origin_ns() const { return m_.min_ts_ns; }
  // The latest time anything ends (model.max_ts_ns is the latest start).
  int64_t end_ns() const { return end_ns_; }
  const std::vector<TimelineGroup>& groups() const { return groups_; }
  const std::vector<TimelineTrack>& tracks() const { return tracks_; }
  // Timeline track of a model track (slice lane), UINT32_MAX if none.
  uint32_t lane_of_model_track(uint32_t model_track) const { return lane_of_track_[model_track]; }

  // Every kStartEvery-th slice's start time of a row, in a column of their own: a window's search
  // for a pixel column's end runs over these (contiguous) before it reads slices through their ids
  // (each read a random access into the model's columns). 8 bytes per kStartEvery slices.
  static constexpr uint32_t kStartEvery = 32;
  // Slice ids of one row (model track, depth) in time order.
  struct Row {
    const uint32_t* ids = nullptr;
    uint32_t size = 0;
    const MaxIndex* longest = nullptr;
    const int64_t* starts = nullptr;  // starts[i]: the start time of ids[i * kStartEvery]
  };
  Row row(uint32_t model_track, uint32_t depth) const;
  // Rows of a model track: its max_depth, capped at 65536 (the depth column is 16-bit; deeper
  // slices share the last row) so a hostile nesting chain cannot make millions of rows.
  uint32_t depth_rows(uint32_t model_track) const { return first_row_[model_track + 1] - first_row_[model_track]; }

  SliceClass slice_class(uint32_t slice) const;
  // Row of model.gpu_ops for a GPU slice, UINT32_MAX if none.
  uint32_t gpu_op_row(uint32_t slice) const;
  // dur minus the durations of the direct children (clipped to the slice).
  int64_t self_ns(uint32_t slice) const;

  const std::vector<SeriesData>& series() const { return series_; }
  const std::vector<OverlapLane>& overlap_lanes() const { return overlap_; }
  const InstantIndex& instants() const { return instants_; }
  // Group of a process (model.processes index), UINT32_MAX when it has no lanes.
  uint32_t group_of_process(uint32_t process) const {
    return process < group_of_process_.size() ? group_of_process_[process] : UINT32_MAX;
  }
  size_t memory_bytes() const;

 private:
  void build_rows();
  void build_classes();
  void build_series();
  void build_overlap();
  void build_tracks();  // track_list.cc

  const TraceModel& m_;
  int64_t end_ns_ = 0;
  std::vector<TimelineGroup> groups_;
  std::vector<TimelineTrack> tracks_;
  std::vector<uint32_t> lane_of_track_;
  std::vector<uint32_t> row_ids_;     // slice ids ordered by (track, depth, ts)
  std::vector<uint32_t> row_offset_;  // per row: begin in row_ids_ (size rows + 1)
  std::vector<uint32_t> first_row_;   // per model track: its first row (rows = max_depth)
  std::vector<MaxIndex> row_longest_;
  std::vector<int64_t> row_starts_;         // per row: its Row::starts, rows one after another
  std::vector<uint32_t> row_start_offset_;  // per row: begin in row_starts_ (size rows + 1)
  std::vector<uint8_t> gpu_class_;          // KernelClass per gpu_ops row
  std::vector<SeriesData> series_;          // counters first (model order), then memory series
  std::vector<uint32_t> memory_series_device_;
  std::vector<OverlapLane> overlap_;
  InstantIndex instants_;
  std::vector<uint32_t> group_of_process_;
};

}  // namespace tw
