// TraceModel: the imported trace as struct-of-arrays tables with interned strings.
// Analyses and the timeline read only this; they never see JSON. Per-event fields that analyses need
// are columns; everything else (the full args) is re-read from the event's byte range on demand.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/base/string_pool.h"
#include "core/model/collective_table.h"
#include "core/model/compact_int_column.h"
#include "core/model/dict_column.h"
#include "core/model/gpu_config_table.h"
#include "core/model/id_pair_column.h"
#include "core/model/source_column.h"
#include "core/model/time_column.h"

namespace tw {

// What a track holds, decided from the categories of its events (Kineto puts GPU work on
// pid = device, tid = stream) and from process names.
enum class TrackKind : uint8_t { kThread = 0, kGpuStream = 1, kAsync = 2, kCounter = 3 };

// Event class derived from the Kineto category at import time, so analyses test a byte.
enum class EventKind : uint8_t {
  kOther = 0,
  kKernel,
  kMemcpy,
  kMemset,
  kCudaRuntime,
  kCudaDriver,
  kCpuOp,
  kUserAnnotation,
  kGpuUserAnnotation,
  kPythonFunction,
  kCudaSync,
};
const char* event_kind_name(EventKind k);

struct Process {
  int64_t pid = 0;
  StringId pid_label = 0;  // the pid as written when it was not a number
  StringId name = 0;
  StringId labels = 0;
  int64_t sort_index = 0;
  bool has_sort_index = false;
};

struct Track {
  TrackKind kind = TrackKind::kThread;
  uint32_t process = 0;  // index into processes
  int64_t tid = 0;
  StringId tid_label = 0;  // tid as written when it was not a number
  StringId name = 0;
  int64_t sort_index = 0;
  bool has_sort_index = false;
  // For GPU streams: device and stream from the kernel args, -1 if unknown.
  int32_t device = -1;
  int64_t stream = -1;
  uint32_t max_depth = 0;
  // Its slices after finish(): SliceTable::rows_of(track).
};

// Slice flags.
enum : uint8_t {
  kSliceFromBE = 1,       // built from a B/E pair
  kSliceUnclosed = 2,     // B without E: closed at the end of the trace
  kSliceOverlapping = 4,  // partially overlaps an earlier slice on its track (not nested)
  kSliceNoDur = 8,        // X without dur: treated as zero length
  // The event's own "stream" arg, read as HTA reads it (stream_arg_flags in core/import/kineto_fields.h):
  // only --hta-compat looks at these, because HTA counts every event whose stream is not -1 as GPU
  // work, cpu_ops and cuda_sync events included.
  kSliceStreamArg = 16,        // a "stream" arg that reads as a number other than -1
  kSliceStreamArgNonNeg = 32,  // ... and that number is >= 0
};

// Slices (X, matched B/E, async b/e), sorted by (track, ts, longer first) after import.
struct SliceTable {
  TimeColumn ts_ns;      // in ns, 4 bytes a row (time_column.h)
  CompactIntColumn dur;  // in ns (read with dur_at): below 4.29 s but for a few long spans
  // Each row's track while the import fills the table; finish() sorts the rows by track and then
  // keeps only where each track's rows start (track_start): read a row's track with track_at.
  IdColumn track;      // two bytes a row (read with track.at)
  IdColumn name;       // two bytes a row (read with name.at)
  CategoryColumn cat;  // one byte a row (read with cat.at)
  // A slice's kind is its category's (kineto_kind_from_category), so it is kept once per category
  // id (a string id), not once a row: set by the import for every category a row has.
  std::vector<EventKind> cat_kinds;
  std::vector<uint8_t> flags;
  std::vector<uint16_t> depth;        // nesting row on its track; by finish()
  std::vector<uint32_t> parent;       // the slice this one is nested in (one row up), kNoParent; by finish()
  IdPairColumn ids;                   // Kineto "correlation" and "External id" (correlation_at, external_id_at)
  SourceColumn src;                   // the event object's byte range in the input (src_offset_at, src_length_at)
  std::vector<uint32_t> track_start;  // by finish(): track t's rows are [track_start[t], track_start[t + 1])
  size_t size() const { return ts_ns.size(); }
  uint32_t track_at(size_t i) const;  // after finish(): a binary search of track_start
  // After finish(): track t's rows, in start order (empty before finish() and for a track without slices).
  struct Rows {
    uint32_t begin, end;
    bool empty() const { return begin == end; }
    uint32_t size() const { return end - begin; }
  };
  Rows rows_of(size_t t) const {
    return t + 1 < track_start.size() ? Rows{track_start[t], track_start[t + 1]} : Rows{0, 0};
  }
  EventKind kind_at(size_t i) const {
    const StringId c = cat.at(i);
    return c < cat_kinds.size() ? cat_kinds[c] : EventKind::kOther;
  }
  int64_t dur_at(size_t i) const { return dur.at(i); }
  int64_t end_ns(size_t i) const { return ts_ns[i] + dur_at(i); }
  int64_t correlation_at(size_t i) const { return ids.correlation_at(i); }  // kNoId when absent
  int64_t external_id_at(size_t i) const { return ids.external_id_at(i); }  // kNoId when absent
  uint64_t src_offset_at(size_t i) const { return src.offset_at(i); }
  uint32_t src_length_at(size_t i) const { return src.length_at(i); }
  void reserve(size_t n);  // the import's columns
  void shrink_to_fit();    // every column

  // f(column) for each per-row column the import reserves and fills (all but depth, parent and
  // track_start, which only finish() fills: the import and a part's transfer do not carry them); for the
  // side tables of the ids that do not fit their column (their own sizes); then for every column
  // (cat_kinds too, which finish() derives from the categories the rows have: a part does not carry it):
  // the one list reserve, shrink_to_fit, memory_bytes and the part codec go through.
  template <class F>
  void for_each_import_column(F&& f) {
    import_columns(*this, f);
  }
  template <class F>
  void for_each_side_column(F&& f) {
    side_columns(*this, f);
  }
  template <class F>
  void for_each_column(F&& f) {
    import_columns(*this, f), f(depth), f(parent), f(track_start), f(cat_kinds), side_columns(*this, f);
  }
  template <class F>
  void for_each_column(F&& f) const {
    import_columns(*this, f), f(depth), f(parent), f(track_start), f(cat_kinds), side_columns(*this, f);
  }

 private:
  template <class Table, class F>
  static void import_columns(Table& t, F& f) {
    f(t.ts_ns.codes), f(t.dur.codes), f(t.track.codes), f(t.name.codes), f(t.cat.codes), f(t.flags), f(t.ids.codes),
        f(t.src.lo), f(t.src.hi);
  }
  template <class Table, class F>
  static void side_columns(Table& t, F& f) {
    t.ts_ns.for_each_side_column(f), t.dur.for_each_side_column(f), t.track.for_each_side_column(f),
        t.name.for_each_side_column(f), t.cat.for_each_side_column(f), t.ids.for_each_side_column(f),
        t.src.for_each_side_column(f);
  }
};

constexpr uint32_t kNoParent = UINT32_MAX;

// GPU-side details, one row per kernel / memcpy / memset slice (sparse: most slices are CPU).
struct GpuOpTable {
  std::vector<uint32_t> slice;
  std::vector<uint32_t> config;  // row of `configs`: device, stream, grid, block
  GpuConfigTable configs;        // the distinct ones (few)
  // Memcpy / memset "bytes": a side table of the ops that have it (side_rows.h), ascending.
  std::vector<uint32_t> bytes_op;
  std::vector<int64_t> bytes_value;
  CollectiveTable collectives;  // the rows with collective args (few)
  size_t size() const { return slice.size(); }
  int32_t device_at(size_t row) const { return configs.device[config[row]]; }
  int64_t stream_at(size_t row) const { return configs.stream[config[row]]; }
  GpuConfig config_at(size_t row) const { return configs.at(config[row]); }
  int64_t bytes_at(size_t row) const;  // -1 when the op has none: a binary search of the side table
  void push_back(uint32_t slice_row, uint32_t config_row, int64_t bytes);
  void reserve(size_t n);  // the per-row columns
  void shrink_to_fit();    // every column
  // Row `row`'s collective args (the defaults when it has none): a binary search of the side table.
  CollectiveArgs collective_args(uint32_t row) const;

  // f(column) for each per-row column (reserve, the part codec); for the dictionary's and the side
  // tables' columns (their own sizes); then for every column (shrink_to_fit, memory_bytes): the
  // one list they go through.
  template <class F>
  void for_each_row_column(F&& f) {
    f(slice), f(config);
  }
  template <class F>
  void for_each_side_column(F&& f) {
    side_columns(*this, f);
  }
  template <class F>
  void for_each_column(F&& f) {
    f(slice), f(config), side_columns(*this, f);
  }
  template <class F>
  void for_each_column(F&& f) const {
    f(slice), f(config), side_columns(*this, f);
  }

 private:
  template <class Table, class F>
  static void side_columns(Table& t, F& f) {
    t.configs.for_each_column(f), f(t.bytes_op), f(t.bytes_value), t.collectives.for_each_column(f);
  }
};

enum class InstantScope : uint8_t { kThread = 0, kProcess = 1, kGlobal = 2 };

struct InstantTable {
  std::vector<int64_t> ts_ns;
  std::vector<uint32_t> track;  // thread track (process/global scope instants keep the emitting thread)
  std::vector<StringId> name;
  std::vector<StringId> cat;
  std::vector<InstantScope> scope;
  std::vector<uint64_t> src_offset;
  std::vector<uint32_t> src_length;
  size_t size() const { return ts_ns.size(); }
  void reserve(size_t n);
};

// Counter series: one per (process, counter name, args key).
struct CounterSeries {
  uint32_t process = 0;
  StringId name = 0;  // "<event name> <key>" (Perfetto's naming), or "<event name>" for a lone "value" key
  std::vector<int64_t> ts_ns;
  std::vector<double> value;
};

// Kineto "[memory]" instants: allocator state after each event.
struct MemoryTable {
  std::vector<int64_t> ts_ns;
  std::vector<int32_t> device;  // "Device Id" (-1 = CPU)
  std::vector<int64_t> total_allocated;
  std::vector<int64_t> total_reserved;
  std::vector<int64_t> bytes;  // signed change of this event
  size_t size() const { return ts_ns.size(); }
};

struct Flow {
  uint32_t from_slice = UINT32_MAX;  // UINT32_MAX when the endpoint bound to no slice
  uint32_t to_slice = UINT32_MAX;
  StringId cat = 0;
  StringId name = 0;
};

// CPU launch -> GPU op, matched by correlation id (Kineto), so analyses need no flow resolution.
struct LaunchLink {
  uint32_t launch_slice;
  uint32_t gpu_slice;
};

// Which runtime wrote a device's deviceProperties entry, told by the keys only it writes: Kineto
// adds regsPerMultiprocessor / sharedMemPerBlockOptin / sharedMemPerMultiprocessor under CUPTI and
// maxSharedMemoryPerMultiProcessor under roctracer (Enflame's GCU writes that key too, with
// sipCount); the MTIA plugin writes runtimeMajorVersion and no compute capability.
enum class DeviceRuntime : uint8_t { kUnknown = 0, kCuda, kRocm, kMtia };

struct DeviceInfo {
  int64_t id = 0;
  std::string name;
  int64_t total_global_mem = 0;
  // CUDA: the compute capability. ROCm: the gfx version (gfx90a -> 9.0, gfx942 -> 9.4, gfx1100 -> 11.0).
  int32_t compute_major = 0;
  int32_t compute_minor = 0;
  int32_t num_sms = 0;
  int32_t warp_size = 0;  // 32 on NVIDIA and RDNA, 64 on AMD CDNA / GCN; 0 when not written
  DeviceRuntime runtime = DeviceRuntime::kUnknown;
};

struct TraceMeta {
  bool has_rank = false;
  int64_t rank = 0;
  bool has_world_size = false;
  int64_t world_size = 0;
  std::string backend;
  std::string pg_config_json;  // distributedInfo.pg_config as compact JSON
  std::vector<DeviceInfo> devices;
  std::string display_time_unit;  // "ms" (default) or "ns"
  bool has_base_time = false;
  int64_t base_time_ns = 0;
  std::string trace_name;
  int64_t schema_version = -1;
};

struct TableBytes {
  const char* table;
  size_t bytes;
};

struct TraceModel {
  StringPool strings;
  std::vector<Process> processes;
  std::vector<Track> tracks;
  SliceTable slices;
  GpuOpTable gpu_ops;
  InstantTable instants;
  std::vector<CounterSeries> counters;
  MemoryTable memory;
  std::vector<Flow> flows;
  std::vector<LaunchLink> launches;
  TraceMeta meta;
  int64_t min_ts_ns = 0;  // over all timed events, 0 when there are none
  int64_t max_ts_ns = 0;

  size_t memory_bytes() const;
  std::vector<TableBytes> memory_by_table() const;  // what memory_bytes() adds up, table by table
};

}  // namespace tw
