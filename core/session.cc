#include "core/session.h"

#include <algorithm>
#include <optional>

#include "core/calltree/bottom_up.h"
#include "core/calltree/call_tree_json.h"
#include "core/calltree/collapsed.h"

#include "core/job/rank_record_json.h"
#include "core/summary/summary_rules.h"

namespace tw {

namespace {
bool same_options(const SummaryOptions& a, const SummaryOptions& b) {
  return a.hta_compat == b.hta_compat && a.kernel_rules_json == b.kernel_rules_json;
}
}  // namespace

nlohmann::json Session::file_summary(const SummaryOptions& opts) {
  FileInput in{name_, file_bytes_ ? file_bytes_ : importer_.stats().bytes, &importer_.model(), &importer_.stats()};
  last_summary_ = tw::file_summary(in, opts);
  last_opts_ = opts;
  has_last_summary_ = true;
  return last_summary_;
}

std::string Session::summary_json(const SummaryOptions& opts) {
  return dump_json(summary_document({file_summary(opts)}));
}

RankRecord Session::rank_record(const SummaryOptions& opts) {
  if (!has_last_summary_ || !same_options(opts, last_opts_)) file_summary(opts);
  return tw::rank_record(importer_.model(), summary_kernel_rules(opts), last_summary_);
}

std::string Session::rank_json(const SummaryOptions& opts) { return dump_json(rank_record_json(rank_record(opts))); }

namespace {
// A range from the facade's arguments: none when from < 0; an empty range when to < from.
std::optional<Interval> call_tree_range(int64_t from_ns, int64_t to_ns) {
  if (from_ns < 0) return std::nullopt;
  return Interval{from_ns, std::max(from_ns, to_ns)};
}
}  // namespace

std::string Session::call_tree_json(int64_t from_ns, int64_t to_ns, bool bottom_up) {
  const std::optional<Interval> range = call_tree_range(from_ns, to_ns);
  const CallTree t = build_call_tree(model(), range ? &*range : nullptr);
  return tw::call_tree_json(model(), bottom_up ? tw::bottom_up(t) : t, bottom_up);
}

std::string Session::collapsed_stacks(int64_t from_ns, int64_t to_ns, bool gpu) {
  const std::optional<Interval> range = call_tree_range(from_ns, to_ns);
  return tw::collapsed_stacks(model(), build_call_tree(model(), range ? &*range : nullptr),
                              gpu ? FlameMeasure::kGpu : FlameMeasure::kCpu);
}

}  // namespace tw
