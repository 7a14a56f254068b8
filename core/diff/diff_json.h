// The comparison as a `tracewise.diff/1` document (docs/diff-schema.md), and the one entry point
// the CLI and the page share: two summary documents in, the diff document out.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "core/diff/diff.h"

namespace tw {

nlohmann::json diff_json(const RunDiff& d);

// Options as JSON: {"fail_above_pct": 5 | null, "metric": "step_time" | null, "confidence_pct": 95,
// "min_impact_pct": 0.5}; missing keys keep their defaults. False with `error` set on a bad value.
bool diff_options_from_json(std::string_view options_json, DiffOptions* out, std::string* error);

// The diff document as text (keys sorted, doubles rounded so the native and wasm builds print the same
// bytes), or an error: a side that is not a summary (`error`, the CLI's exit 1) or a bad option
// (`usage_error`, exit 2). No exceptions: the wasm build has none.
struct DiffText {
  std::string json;
  bool regression = false;
  std::string error;
  std::string usage_error;
};
DiffText diff_summaries(std::string_view base_doc, std::string_view cand_doc, const DiffOptions& options,
                        const std::string& base_label, const std::string& cand_label);
// The page's form: options as JSON ("" for the defaults) with the sides' labels, "base_label" and
// "cand_label" (default "baseline", "candidate"). The diff document, or {"error": sentence}.
std::string diff_summaries_json(std::string_view base_doc, std::string_view cand_doc, std::string_view options_json);

}  // namespace tw
