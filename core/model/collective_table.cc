#include "core/model/collective_table.h"

#include "core/model/side_rows.h"

namespace tw {

bool CollectiveArgs::any() const {
  const CollectiveArgs none;
  return collective != none.collective || in_nelems != none.in_nelems || out_nelems != none.out_nelems ||
         group_size != none.group_size || seq != none.seq || dtype != none.dtype || pg_name != none.pg_name;
}

CollectiveArgs CollectiveTable::at(size_t k) const {
  return CollectiveArgs{collective[k], in_nelems[k], out_nelems[k], group_size[k], seq[k], dtype[k], pg_name[k]};
}

void CollectiveTable::push_back(uint32_t op_row, const CollectiveArgs& a) {
  op.push_back(op_row);
  collective.push_back(a.collective);
  in_nelems.push_back(a.in_nelems);
  out_nelems.push_back(a.out_nelems);
  group_size.push_back(a.group_size);
  seq.push_back(a.seq);
  dtype.push_back(a.dtype);
  pg_name.push_back(a.pg_name);
}

void CollectiveTable::renumber(const std::vector<uint32_t>& new_index) {
  renumber_side_rows(new_index, op, collective, in_nelems, out_nelems, group_size, seq, dtype, pg_name);
}

}  // namespace tw
