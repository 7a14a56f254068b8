// Summary: the deterministic JSON document that the CLI prints and the web app shows
// (schema "tracewise.summary/1", documented in docs/summary-schema.md). Keys are sorted (nlohmann's
// std::map objects) and numbers are integers or nlohmann's shortest round-trip doubles, so the
// native and the wasm builds produce the same bytes.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/model/import_stats.h"
#include "core/model/trace_model.h"

namespace tw {

struct RankRecord;  // core/job/rank_record.h

struct SummaryOptions {
  bool hta_compat = false;  // compute analyses with HTA's exact rules
  // User kernel-classification rules as JSON (see kernel_rules_from_json); empty = built-in rules.
  std::string kernel_rules_json;
  // Runs two independent parts of a summary, each of which reads the model and writes only its own
  // results: the CLI runs them on two threads. Unset, they run one after the other in the order
  // given, the order that keeps the peak of a wasm heap (which never shrinks) low.
  std::function<void(const std::function<void()>&, const std::function<void()>&)> both;
};

// a() and b() through opts.both, or one after the other.
inline void run_both(const SummaryOptions& opts, const std::function<void()>& a, const std::function<void()>& b) {
  if (opts.both) {
    opts.both(a, b);
  } else {
    a();
    b();
  }
}

struct FileInput {
  std::string name;
  uint64_t bytes = 0;  // size of the file as given (compressed size for .gz)
  const TraceModel* model = nullptr;
  const ImportStats* stats = nullptr;
};

nlohmann::json file_summary(const FileInput& in, const SummaryOptions& opts);
// With two files or more, the document's `job` (core/summary/job_summary.h); `records`, one per
// file when given, add the job analysis.
nlohmann::json summary_document(const std::vector<nlohmann::json>& files,
                                const std::vector<RankRecord>* records = nullptr);
std::string dump_json(const nlohmann::json& j);

}  // namespace tw
