#include "core/summary/summary_rules.h"

namespace tw {

KernelRules summary_kernel_rules(const SummaryOptions& opts) {
  KernelRules base = opts.hta_compat ? hta_rules() : default_rules();
  if (opts.kernel_rules_json.empty()) return base;
  KernelRules user;
  std::string error;
  if (!kernel_rules_from_json(opts.kernel_rules_json, base, &user, &error)) return base;
  return user;
}

std::string check_user_kernel_rules(const std::string& json_text, bool hta_compat) {
  KernelRules user;
  std::string error;
  if (kernel_rules_from_json(json_text, hta_compat ? hta_rules() : default_rules(), &user, &error)) return "";
  return error.empty() ? "invalid kernel rules" : error;
}

}  // namespace tw
