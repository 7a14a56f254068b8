#include "core/timeline/area_aggregate.h"

#include <algorithm>
#include <unordered_map>

namespace tw {

nlohmann::json area_aggregate(const TimelineIndex& index, const std::vector<uint32_t>& lanes, int64_t a, int64_t b,
                              size_t max_rows) {
  struct Acc {
    uint64_t count = 0;
    int64_t total = 0, self = 0, in_range = 0;
  };
  const TraceModel& m = index.model();
  const SliceTable& s = m.slices;
  std::unordered_map<StringId, Acc> by_name;
  uint64_t slices = 0;
  std::vector<uint32_t> seen(lanes);
  std::sort(seen.begin(), seen.end());
  seen.erase(std::unique(seen.begin(), seen.end()), seen.end());
  for (uint32_t lane : seen) {
    if (lane >= index.tracks().size() || index.tracks()[lane].kind != LaneKind::kSlices) continue;
    uint32_t track = index.tracks()[lane].source;
    for (uint32_t d = 0; d < index.depth_rows(track); ++d) {
      TimelineIndex::Row row = index.row(track, d);
      const uint32_t* p =
          std::partition_point(row.ids, row.ids + row.size, [&s, a](uint32_t id) { return s.end_ns(id) <= a; });
      for (; p != row.ids + row.size && s.ts_ns[*p] < b; ++p) {
        // Zero-length slices at the edge still count when they sit inside [a, b).
        Acc& acc = by_name[s.name.at(*p)];
        ++acc.count;
        acc.total += s.dur_at(*p);
        acc.self += index.self_ns(*p);
        acc.in_range += std::max<int64_t>(0, std::min(s.end_ns(*p), b) - std::max(s.ts_ns[*p], a));
        ++slices;
      }
    }
  }
  std::vector<std::pair<StringId, Acc>> rows(by_name.begin(), by_name.end());
  std::sort(rows.begin(), rows.end(), [](const auto& x, const auto& y) {
    return x.second.total != y.second.total ? x.second.total > y.second.total : x.first < y.first;
  });
  nlohmann::json out;
  out["slices"] = slices;
  out["names"] = rows.size();
  out["truncated"] = rows.size() > max_rows;
  nlohmann::json list = nlohmann::json::array();
  for (size_t i = 0; i < rows.size() && i < max_rows; ++i) {
    const Acc& acc = rows[i].second;
    list.push_back({{"name", std::string(m.strings.get(rows[i].first))},
                    {"count", acc.count},
                    {"totalNs", static_cast<double>(acc.total)},
                    {"selfNs", static_cast<double>(acc.self)},
                    {"inRangeNs", static_cast<double>(acc.in_range)}});
  }
  out["rows"] = std::move(list);
  return out;
}

}  // namespace tw
