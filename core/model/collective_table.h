// The collective args Kineto writes on NCCL / RCCL kernels ("Collective name", "In msg nelems",
// ...): a side table of the GPU ops (side_rows.h), because only the communication kernels, a few
// per step, have them while a column would cost every op 40 bytes.
#pragma once
#include <cstdint>
#include <vector>

#include "core/base/string_pool.h"

namespace tw {

// One GPU op's collective args; an op without any has these defaults.
struct CollectiveArgs {
  StringId collective = 0;  // "Collective name"
  int64_t in_nelems = -1;   // "In msg nelems", -1 if absent
  int64_t out_nelems = -1;  // "Out msg nelems"
  int32_t group_size = -1;  // "Group size"
  int64_t seq = -1;         // "Seq" (the collective's number in its process group)
  StringId dtype = 0;
  StringId pg_name = 0;  // "Process Group Name"
  bool any() const;      // other than the defaults
};

// The args of the ops that have any, by op row (GpuOpTable), ascending.
struct CollectiveTable {
  std::vector<uint32_t> op;
  std::vector<StringId> collective;
  std::vector<int64_t> in_nelems;
  std::vector<int64_t> out_nelems;
  std::vector<int32_t> group_size;
  std::vector<int64_t> seq;
  std::vector<StringId> dtype;
  std::vector<StringId> pg_name;
  size_t size() const { return op.size(); }
  CollectiveArgs at(size_t k) const;  // of side row k
  void push_back(uint32_t op_row, const CollectiveArgs& a);
  // Every op row renumbered (old row -> new row) and the side rows sorted by it again.
  void renumber(const std::vector<uint32_t>& new_index);

  // f(column) for every column, keys first.
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
    f(t.op), f(t.collective), f(t.in_nelems), f(t.out_nelems), f(t.group_size), f(t.seq), f(t.dtype), f(t.pg_name);
  }
};

}  // namespace tw
