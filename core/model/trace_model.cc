#include "core/model/trace_model.h"

#include <algorithm>

#include "core/model/side_rows.h"

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
}  // namespace

void SliceTable::reserve(size_t n) {
  for_each_import_column([n](auto& c) { c.reserve(n); });
}

void SliceTable::shrink_to_fit() {
  for_each_column([](auto& c) { c.shrink_to_fit(); });
}

uint32_t SliceTable::track_at(size_t i) const {
  const auto after = std::upper_bound(track_start.begin(), track_start.end(), static_cast<uint32_t>(i));
  return static_cast<uint32_t>(after - track_start.begin() - 1);
}

void GpuOpTable::shrink_to_fit() {
  for_each_column([](auto& c) { c.shrink_to_fit(); });
}

void GpuOpTable::reserve(size_t n) {
  for_each_row_column([n](auto& c) { c.reserve(n); });
}

int64_t GpuOpTable::bytes_at(size_t row) const {
  const size_t k = find_side_row(bytes_op, static_cast<uint32_t>(row));
  return k < bytes_op.size() ? bytes_value[k] : -1;
}

void GpuOpTable::push_back(uint32_t slice_row, uint32_t config_row, int64_t bytes) {
  if (bytes != -1) bytes_op.push_back(static_cast<uint32_t>(slice.size())), bytes_value.push_back(bytes);
  slice.push_back(slice_row), config.push_back(config_row);
}

CollectiveArgs GpuOpTable::collective_args(uint32_t row) const {
  const size_t k = find_side_row(collectives.op, row);
  return k < collectives.size() ? collectives.at(k) : CollectiveArgs{};
}

void InstantTable::reserve(size_t n) { reserve_all(n, ts_ns, track, name, cat, scope, src_offset, src_length); }

std::vector<TableBytes> TraceModel::memory_by_table() const {
  size_t slice_bytes = 0, gpu_bytes = 0, counter_bytes = 0;
  slices.for_each_column([&slice_bytes](const auto& c) { slice_bytes += bytes_of(c); });
  gpu_ops.for_each_column([&gpu_bytes](const auto& c) { gpu_bytes += bytes_of(c); });
  for (const CounterSeries& c : counters) counter_bytes += sizeof(c) + bytes_of(c.ts_ns) + bytes_of(c.value);
  const InstantTable& i = instants;
  return {{"strings", strings.memory_bytes()},
          {"tracks", bytes_of(processes) + bytes_of(tracks)},
          {"slices", slice_bytes},
          {"gpu_ops", gpu_bytes},
          {"instants", bytes_of(i.ts_ns) + bytes_of(i.track) + bytes_of(i.name) + bytes_of(i.cat) + bytes_of(i.scope) +
                           bytes_of(i.src_offset) + bytes_of(i.src_length)},
          {"counters", counter_bytes},
          {"memory", bytes_of(memory.ts_ns) + bytes_of(memory.device) + bytes_of(memory.total_allocated) +
                         bytes_of(memory.total_reserved) + bytes_of(memory.bytes)},
          {"flows", bytes_of(flows)},
          {"launches", bytes_of(launches)}};
}

size_t TraceModel::memory_bytes() const {
  size_t n = 0;
  for (const TableBytes& t : memory_by_table()) n += t.bytes;
  return n;
}

}  // namespace tw
