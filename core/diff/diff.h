// The comparison of a baseline and a candidate run (docs/diff-schema.md): every metric with its
// change, a rank test's verdict where both sides have enough steps, and the regression gate.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "core/diff/diff_side.h"
#include "core/diff/rank_test.h"

namespace tw {

struct DiffOptions {
  std::optional<double> fail_above_pct;  // the gate; none: report only
  std::optional<std::string> metric;     // gate this metric id only
  double confidence_pct = 95;
  double min_impact_pct = 0.5;  // kernels / operators: |change| as % of the baseline step (or trace)
};

enum class Unit { kNs, kPct };
enum class Gate { kNone, kRelative, kPoints };
enum class Worse { kNone, kUp, kDown };
enum class Verdict { kWorse, kBetter, kHigher, kLower, kUnchanged, kNoNoiseEstimate, kAdded, kRemoved, kNotComparable };
const char* verdict_name(Verdict v);

struct MetricDiff {
  std::string id, label;
  Unit unit = Unit::kNs;
  Gate gate = Gate::kNone;
  Worse worse = Worse::kNone;
  std::optional<double> base, cand;  // mean of the samples
  size_t base_samples = 0, cand_samples = 0;
  std::optional<RankTest> test;
  Verdict verdict = Verdict::kNotComparable;
  bool gated = false;  // in the set the gate looks at
  bool beyond_gate = false;
  double impact_pct = 0;  // |delta| as % of the baseline step time (names)
  std::optional<double> delta() const;
  std::optional<double> delta_pct() const;
};

struct NameStats {
  uint64_t count = 0;
  int64_t total_ns = 0;
  double mean_ns = 0;
  double share_pct = 0;
};

struct NameDiff {
  MetricDiff metric;
  std::string name, status;  // changed, same, added, removed
  uint32_t base_variants = 0, cand_variants = 0;
  std::optional<NameStats> base, cand;
  std::string kind, cls;  // kernels
};

struct NameTable {
  std::vector<NameDiff> rows;  // by |delta|, largest first
  size_t added = 0, removed = 0, changed = 0;
};

struct StreamDiff {
  int64_t rank = -1, device = 0, stream = 0;
  std::optional<DiffSide::Stream> base, cand;
};

struct RunDiff {
  const DiffSide* base = nullptr;
  const DiffSide* cand = nullptr;
  DiffOptions options;
  bool per_step = false;
  std::vector<MetricDiff> metrics;
  NameTable kernels, operators;
  std::vector<StreamDiff> streams;
  std::vector<std::string> beyond_gate;  // metric ids
  std::string sentence;
  std::vector<std::string> notes;
  std::string usage_error;  // a bad option (the CLI's exit 2): the sentence says which; the rest is empty
};

// Every gateable metric id of this comparison (for --metric's usage message).
std::vector<std::string> metric_ids(const RunDiff& d);

// `usage_error` is set when `options.metric` names no metric of the comparison with a worse direction,
// or an option is out of range.
RunDiff diff_runs(const DiffSide& base, const DiffSide& cand, const DiffOptions& options);

}  // namespace tw
