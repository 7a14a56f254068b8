#include "core/session.h"

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

}  // namespace tw
