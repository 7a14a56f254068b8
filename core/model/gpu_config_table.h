// Where and how a GPU op ran: its device and stream and, for a kernel, its launch grid and block.
// A trace repeats few of them (each step launches the same kernels with the same shapes on the
// same streams), so the op table keeps a 4-byte index into this dictionary instead of 40 bytes of
// columns per op. A trace is untrusted input: any values read back exactly, and a trace whose every
// op differs costs one dictionary row per op, no more.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace tw {

struct GpuConfig {
  int32_t device = -1;
  int64_t stream = -1;
  std::array<uint32_t, 3> grid{0, 0, 0}, block{0, 0, 0};  // 0 0 0 when the op has none (memcpy, memset)
  bool operator==(const GpuConfig&) const = default;
};

// The distinct configs, one row each, in the order they were first seen.
struct GpuConfigTable {
  std::vector<int32_t> device;
  std::vector<int64_t> stream;
  std::vector<uint32_t> grid[3];
  std::vector<uint32_t> block[3];
  size_t size() const { return device.size(); }
  GpuConfig at(size_t k) const;
  void push_back(const GpuConfig& c);

  template <class F>
  void for_each_column(F&& f) {
    columns(*this, f);
  }
  template <class F>
  void for_each_column(F&& f) const {
    columns(*this, f);
  }

 private:
  template <class Table, class F>
  static void columns(Table& t, F& f) {
    f(t.device), f(t.stream);
    for (auto& c : t.grid) f(c);
    for (auto& c : t.block) f(c);
  }
};

// The import's index of a table: each config gets one row. Not part of the model (finish() and the
// analyses only read rows), so the model does not carry a hash map beside the dictionary.
class GpuConfigIndex {
 public:
  // The row of `c` in `table`, appended when it is new here (a row interned elsewhere, e.g. in a
  // part decoded from bytes, may be appended again: a duplicate, never a wrong value).
  uint32_t intern(GpuConfigTable& table, const GpuConfig& c);

 private:
  struct Hash {
    size_t operator()(const GpuConfig& c) const;
  };
  std::unordered_map<GpuConfig, uint32_t, Hash> rows_;
};

}  // namespace tw
