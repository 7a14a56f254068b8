#include "core/summary/by_name_json.h"

namespace tw {
namespace {

using nlohmann::json;

json rows_json(const std::vector<ShortNameRow>& rows, bool kernels) {
  json out = json::array();
  for (const ShortNameRow& r : rows) {
    json row = {{"name", r.name},
                {"variants", r.variants},
                {"count", r.count},
                {"total_ns", r.total_ns},
                {"steps_ns", r.steps_ns}};
    if (kernels) {
      row["kind"] = event_kind_name(r.kind);
      row["class"] = kernel_class_name(r.cls);
    } else {
      row["self_ns"] = r.self_ns;
    }
    out.push_back(std::move(row));
  }
  return out;
}

}  // namespace

json by_name_json(const ByShortName& r) {
  return {{"step_columns", r.step_columns},
          {"kernels", rows_json(r.kernels, true)},
          {"operators", rows_json(r.operators, false)}};
}

}  // namespace tw
