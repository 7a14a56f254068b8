#include "core/session.h"

namespace tw {

nlohmann::json Session::file_summary(const SummaryOptions& opts) {
  FileInput in{name_, file_bytes_ ? file_bytes_ : importer_.stats().bytes, &importer_.model(), &importer_.stats()};
  return tw::file_summary(in, opts);
}

std::string Session::summary_json(const SummaryOptions& opts) {
  return dump_json(summary_document({file_summary(opts)}));
}

}  // namespace tw
