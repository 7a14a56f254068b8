#include "core/model/trace_model.h"

namespace tw {

namespace {
template <typename T>
size_t bytes_of(const std::vector<T>& v) {
  return v.capacity() * sizeof(T);
}
template <typename... V>
void reserve_all(size_t n, V&... v) {
  (v.reserve(n), ...);
}
template <typename... V>
void shrink_all(V&... v) {
  (v.shrink_to_fit(), ...);
}
}  // namespace

void SliceTable::reserve(size_t n) {
  reserve_all(n, ts_ns, dur_ns, track, name, cat, kind, flags, depth, correlation, external_id, src_offset,
              src_length);
}

void SliceTable::shrink_to_fit() {
  shrink_all(ts_ns, dur_ns, track, name, cat, kind, flags, depth, parent, correlation, external_id, src_offset, src_length);
}

void GpuOpTable::shrink_to_fit() {
  shrink_all(slice, device, stream, bytes, collective, in_nelems, out_nelems, group_size, dtype, pg_name, grid[0],
             grid[1], grid[2], block[0], block[1], block[2]);
}

void GpuOpTable::reserve(size_t n) {
  reserve_all(n, slice, device, stream, bytes, collective, in_nelems, out_nelems, group_size, dtype, pg_name,
              grid[0], grid[1], grid[2], block[0], block[1], block[2]);
}

void InstantTable::reserve(size_t n) { reserve_all(n, ts_ns, track, name, cat, scope, src_offset, src_length); }

size_t TraceModel::memory_bytes() const {
  size_t n = strings.memory_bytes();
  n += bytes_of(processes) + bytes_of(tracks);
  const SliceTable& s = slices;
  n += bytes_of(s.ts_ns) + bytes_of(s.dur_ns) + bytes_of(s.track) + bytes_of(s.name) + bytes_of(s.cat) +
       bytes_of(s.kind) + bytes_of(s.flags) + bytes_of(s.depth) + bytes_of(s.parent) + bytes_of(s.correlation) +
       bytes_of(s.external_id) + bytes_of(s.src_offset) + bytes_of(s.src_length);
  const GpuOpTable& g = gpu_ops;
  n += bytes_of(g.slice) + bytes_of(g.device) + bytes_of(g.stream) + bytes_of(g.bytes) + bytes_of(g.collective) +
       bytes_of(g.in_nelems) + bytes_of(g.out_nelems) + bytes_of(g.group_size) + bytes_of(g.dtype) +
       bytes_of(g.pg_name);
  for (int k = 0; k < 3; ++k) n += bytes_of(g.grid[k]) + bytes_of(g.block[k]);
  const InstantTable& i = instants;
  n += bytes_of(i.ts_ns) + bytes_of(i.track) + bytes_of(i.name) + bytes_of(i.cat) + bytes_of(i.scope) +
       bytes_of(i.src_offset) + bytes_of(i.src_length);
  for (const CounterSeries& c : counters) n += sizeof(c) + bytes_of(c.ts_ns) + bytes_of(c.value);
  n += bytes_of(memory.ts_ns) + bytes_of(memory.device) + bytes_of(memory.total_allocated) +
       bytes_of(memory.total_reserved) + bytes_of(memory.bytes);
  n += bytes_of(flows) + bytes_of(launches);
  return n;
}

}  // namespace tw
