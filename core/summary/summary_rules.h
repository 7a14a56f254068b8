// The kernel classification rules a summary is computed with: ours or HTA's, optionally extended
// or replaced by the user's JSON rules (CLI --kernel-rules FILE, the page's rules box).
#pragma once
#include <string>

#include "core/analysis/kernel_classes.h"
#include "core/summary/summary.h"

namespace tw {

// Falls back to the base rules if the user's JSON is invalid; validate it first with
// check_user_kernel_rules to report the error.
KernelRules summary_kernel_rules(const SummaryOptions& opts);

// Empty string when `json_text` is valid user rules, else a one-sentence error.
std::string check_user_kernel_rules(const std::string& json_text, bool hta_compat);

}  // namespace tw
