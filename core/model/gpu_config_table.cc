#include "core/model/gpu_config_table.h"

namespace tw {

GpuConfig GpuConfigTable::at(size_t k) const {
  GpuConfig c;
  c.device = device[k], c.stream = stream[k];
  for (int i = 0; i < 3; ++i) c.grid[i] = grid[i][k], c.block[i] = block[i][k];
  return c;
}

void GpuConfigTable::push_back(const GpuConfig& c) {
  device.push_back(c.device), stream.push_back(c.stream);
  for (int i = 0; i < 3; ++i) grid[i].push_back(c.grid[i]), block[i].push_back(c.block[i]);
}

size_t GpuConfigIndex::Hash::operator()(const GpuConfig& c) const {
  uint64_t h = static_cast<uint32_t>(c.device) * 0x9E3779B97F4A7C15ULL ^ static_cast<uint64_t>(c.stream);
  for (int i = 0; i < 3; ++i) h = (h ^ c.grid[i]) * 0x100000001B3ULL, h = (h ^ c.block[i]) * 0x100000001B3ULL;
  return static_cast<size_t>(h ^ (h >> 29));
}

uint32_t GpuConfigIndex::intern(GpuConfigTable& table, const GpuConfig& c) {
  const auto [it, added] = rows_.try_emplace(c, static_cast<uint32_t>(table.size()));
  if (added) table.push_back(c);
  return it->second;
}

}  // namespace tw
