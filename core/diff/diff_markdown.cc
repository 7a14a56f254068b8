#include "core/diff/diff_markdown.h"

#include "core/diff/diff_words.h"

namespace tw {
namespace {

using nlohmann::json;

constexpr size_t kRowsShown = 10;
constexpr size_t kMaxNameBytes = 160;

const json& at(const json& j, const char* key) {
  static const json kNull;
  if (!j.is_object()) return kNull;
  auto it = j.find(key);
  return it == j.end() ? kNull : *it;
}
double num(const json& j) { return j.is_number() ? j.get<double>() : 0; }
std::string str(const json& j) { return j.is_string() ? j.get<std::string>() : ""; }

// A name from a trace as inline code: no backtick can end it, no pipe can split the table row,
// nothing inside is read as Markdown or HTML. Long names are cut (on a UTF-8 boundary).
std::string code(const std::string& name) {
  std::string s;
  size_t n = name.size();
  if (n > kMaxNameBytes) {
    n = kMaxNameBytes;
    while (n > 0 && (static_cast<unsigned char>(name[n]) & 0xC0) == 0x80) --n;
  }
  for (size_t i = 0; i < n; ++i) {
    const char c = name[i];
    if (c == '`') s += '\'';
    else if (c == '|') s += "\\|";
    else if (c == '\n' || c == '\r' || c == '\t') s += ' ';
    else s += c;
  }
  if (n < name.size()) s += "\xE2\x80\xA6";
  return "`" + s + "`";
}

std::string value(const json& v, bool pct) {
  if (!v.is_number()) return "\xE2\x80\x94";  // —
  return pct ? printf_double("%.1f %%", num(v)) : duration_words(num(v));
}

std::string change(const json& m) {
  const bool pct = str(at(m, "unit")) == "pct";
  const json& d = at(m, "delta");
  if (!d.is_number()) return "\xE2\x80\x94";
  if (pct) return printf_double("%+.1f pt", num(d));
  std::string s = signed_duration_words(num(d));
  if (at(m, "delta_pct").is_number()) s += printf_double(" (%+.1f %%)", num(at(m, "delta_pct")));
  return s;
}

std::string verdict(const json& m) {
  std::string v = str(at(m, "verdict"));
  for (char& c : v)
    if (c == '_') c = ' ';
  const json& t = at(m, "test");
  // A confidence is that of a change: "unchanged (40 % confidence)" would read as doubt about no change.
  if (t.is_object() && v != "unchanged") v += printf_double(" (%.1f %% confidence)", num(at(t, "confidence_pct")));
  if (at(m, "beyond_gate").is_boolean() && at(m, "beyond_gate").get<bool>()) v = "**" + v + ", beyond the gate**";
  return v;
}

std::string side_words(const json& s) {
  const size_t files = static_cast<size_t>(num(at(s, "files")));
  std::string w = code(str(at(s, "label"))) + " (" + std::to_string(files) + (files == 1 ? " file" : " files");
  if (at(s, "per_step").is_boolean() && at(s, "per_step").get<bool>())
    w += ", " + std::to_string(static_cast<size_t>(num(at(s, "steps")))) + " steps";
  const json& devices = at(s, "devices");
  if (devices.is_array() && !devices.empty()) {
    std::string d;
    for (const json& x : devices) d += (d.empty() ? "" : ", ") + str(x);
    w += ", " + code(d);
  }
  return w + ")";
}

void names_table(std::string& out, const json& table, const char* title, const char* what) {
  const json& rows = at(table, "rows");
  if (!rows.is_array() || rows.empty()) return;
  out += "\n### " + std::string(title) + "\n\n";
  out += "| " + std::string(what) + " | Baseline | Candidate | Change | Verdict |\n|---|---:|---:|---:|---|\n";
  for (size_t i = 0; i < rows.size() && i < kRowsShown; ++i) {
    const json& r = rows[i];
    const std::string status = str(at(r, "status"));
    std::string name = code(str(at(r, "name")));
    if (status == "added" || status == "removed") name += " *(" + status + ")*";
    out += "| " + name + " | " + value(at(r, "base"), false) + " | " + value(at(r, "cand"), false) + " | " + change(r) +
           " | " + verdict(r) + " |\n";
  }
  out += "\n" + std::to_string(static_cast<size_t>(num(at(table, "total")))) +
         " names: " + std::to_string(static_cast<size_t>(num(at(table, "changed")))) + " changed, " +
         std::to_string(static_cast<size_t>(num(at(table, "added")))) + " added, " +
         std::to_string(static_cast<size_t>(num(at(table, "removed")))) + " removed.\n";
}

}  // namespace

std::string diff_markdown(const json& d) {
  std::string out = "## tracewise diff\n\n";
  const json& v = at(d, "verdict");
  const bool regression = at(v, "regression").is_boolean() && at(v, "regression").get<bool>();
  out += (regression ? "**\xE2\x9D\x8C " : "**") + str(at(v, "sentence")) + "**\n\n";
  out += "Baseline: " + side_words(at(d, "base")) + "  \nCandidate: " + side_words(at(d, "cand")) + "\n";
  const bool per_step = at(at(d, "base"), "per_step").is_boolean() && at(at(d, "base"), "per_step").get<bool>();

  out += std::string("\n### ") + (per_step ? "Per step" : "Whole trace") + "\n\n";
  out += "| Metric | Baseline | Candidate | Change | Verdict |\n|---|---:|---:|---:|---|\n";
  const json& metrics = at(d, "metrics");
  if (metrics.is_array())
    for (const json& m : metrics) {
      const bool pct = str(at(m, "unit")) == "pct";
      out += "| " + str(at(m, "label")) + " | " + value(at(m, "base"), pct) + " | " + value(at(m, "cand"), pct) +
             " | " + change(m) + " | " + verdict(m) + " |\n";
    }
  names_table(out, at(d, "kernels"),
              per_step ? "Kernels that changed most (time per step)" : "Kernels that changed most", "Kernel");
  names_table(out, at(d, "operators"),
              per_step ? "Operators that changed most (time per step)" : "Operators that changed most", "Operator");
  const json& notes = at(d, "notes");
  if (notes.is_array() && !notes.empty()) {
    out += "\n### Notes\n\n";
    for (const json& n : notes) out += "- " + str(n) + "\n";
  }
  const json& o = at(d, "options");
  out += "\n<sub>Verdicts: Mann\xE2\x80\x93Whitney rank test over per-step values at " +
         printf_double("%g", num(at(o, "confidence_pct"))) +
         " % confidence; fewer than 5 steps give no noise estimate.</sub>\n";
  return out;
}

std::string diff_markdown_text(const std::string& diff_json) {
  const json d = json::parse(diff_json, nullptr, false);
  if (!d.is_object() || str(at(d, "schema")) != "tracewise.diff/1") return "";
  return diff_markdown(d);
}

}  // namespace tw
