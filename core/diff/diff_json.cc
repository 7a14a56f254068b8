#include "core/diff/diff_json.h"

#include <cmath>

#include "core/base/json_depth.h"

namespace tw {
namespace {

using nlohmann::json;

// Four decimals: what libm's last bits could change (the rank test's erfc) never reaches the output.
json r4(double x) { return std::isfinite(x) ? json(std::round(x * 1e4) / 1e4) : json(nullptr); }
json r4(const std::optional<double>& x) { return x ? r4(*x) : json(nullptr); }

const char* unit_name(Unit u) { return u == Unit::kPct ? "pct" : "ns"; }
json gate_name(Gate g) {
  return g == Gate::kRelative ? json("relative") : g == Gate::kPoints ? json("points") : json(nullptr);
}
json worse_name(Worse w) { return w == Worse::kUp ? json("up") : w == Worse::kDown ? json("down") : json(nullptr); }

json metric_json(const MetricDiff& m) {
  json test = nullptr;
  if (m.test)
    test = {{"shift", r4(m.test->shift)},
            {"ci_low", r4(m.test->ci_low)},
            {"ci_high", r4(m.test->ci_high)},
            {"p_value", r4(m.test->p_value)},
            {"confidence_pct", r4(100 * (1 - m.test->p_value))},
            {"exact", m.test->exact}};
  return {{"id", m.id},
          {"label", m.label},
          {"unit", unit_name(m.unit)},
          {"gate", gate_name(m.gate)},
          {"worse", worse_name(m.worse)},
          {"base", r4(m.base)},
          {"cand", r4(m.cand)},
          {"delta", r4(m.delta())},
          {"delta_pct", r4(m.delta_pct())},
          {"samples", {{"base", m.base_samples}, {"cand", m.cand_samples}}},
          {"test", test},
          {"verdict", verdict_name(m.verdict)},
          {"gated", m.gated},
          {"beyond_gate", m.beyond_gate}};
}

json stats_json(const std::optional<NameStats>& s) {
  if (!s) return nullptr;
  return {{"count", s->count}, {"total_ns", s->total_ns}, {"mean_ns", r4(s->mean_ns)}, {"share_pct", r4(s->share_pct)}};
}

constexpr size_t kListedRows = 200;

json table_json(const NameTable& t, bool kernels) {
  json rows = json::array();
  for (size_t i = 0; i < t.rows.size() && i < kListedRows; ++i) {
    const NameDiff& r = t.rows[i];
    json row = metric_json(r.metric);
    row["name"] = r.name;
    row["status"] = r.status;
    row["variants"] = {{"base", r.base_variants}, {"cand", r.cand_variants}};
    row["base_stats"] = stats_json(r.base);
    row["cand_stats"] = stats_json(r.cand);
    row["impact_pct"] = r4(r.metric.impact_pct);
    if (kernels) {
      row["kind"] = r.kind;
      row["class"] = r.cls;
    }
    rows.push_back(std::move(row));
  }
  return {{"rows", rows}, {"total", t.rows.size()}, {"added", t.added}, {"removed", t.removed}, {"changed", t.changed}};
}

json side_json(const DiffSide& s, bool per_step) {
  json ranks = json::array();
  for (int64_t r : s.ranks) ranks.push_back(r < 0 ? json(nullptr) : json(r));
  return {{"label", s.label},     {"files", s.files},     {"ranks", ranks}, {"steps", s.steps},
          {"per_step", per_step}, {"devices", s.devices}, {"mode", s.mode}, {"names_complete", s.names_complete}};
}

json stream_side(const std::optional<DiffSide::Stream>& s) {
  if (!s) return nullptr;
  return {{"ops", s->ops}, {"busy_ns", s->busy_ns}};
}

}  // namespace

json diff_json(const RunDiff& d) {
  json metrics = json::array();
  for (const MetricDiff& m : d.metrics) metrics.push_back(metric_json(m));
  json streams = json::array();
  for (const StreamDiff& s : d.streams)
    streams.push_back({{"rank", s.rank < 0 ? json(nullptr) : json(s.rank)},
                       {"device", s.device},
                       {"stream", s.stream},
                       {"base", stream_side(s.base)},
                       {"cand", stream_side(s.cand)}});
  json samples = {{"base", json::array()}, {"cand", json::array()}};
  if (d.per_step) {
    for (const DiffSide* side : {d.base, d.cand})
      if (auto it = side->step_samples.find("step_time"); it != side->step_samples.end())
        for (double v : it->second) samples[side == d.base ? "base" : "cand"].push_back(r4(v));
  }
  const DiffOptions& o = d.options;
  return {
      {"schema", "tracewise.diff/1"},
      {"base", side_json(*d.base, d.per_step)},
      {"cand", side_json(*d.cand, d.per_step)},
      {"options",
       {{"fail_above_pct", r4(o.fail_above_pct)},
        {"metric", o.metric ? json(*o.metric) : json(nullptr)},
        {"confidence_pct", r4(o.confidence_pct)},
        {"min_impact_pct", r4(o.min_impact_pct)}}},
      {"verdict", {{"regression", !d.beyond_gate.empty()}, {"beyond_gate", d.beyond_gate}, {"sentence", d.sentence}}},
      {"metrics", metrics},
      {"kernels", table_json(d.kernels, true)},
      {"operators", table_json(d.operators, false)},
      {"streams", streams},
      {"step_samples", samples},
      {"notes", d.notes}};
}

bool diff_options_from_json(std::string_view options_json, DiffOptions* out, std::string* error) {
  *out = DiffOptions{};
  if (options_json.empty()) return true;
  const json j = json::parse(options_json, nullptr, false);
  if (!j.is_object()) {
    *error = "diff options are not a JSON object";
    return false;
  }
  for (const char* key : {"fail_above_pct", "confidence_pct", "min_impact_pct"}) {
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) continue;
    if (!it->is_number()) {
      *error = std::string("diff option ") + key + " is not a number";
      return false;
    }
    const double v = it->get<double>();
    if (key[0] == 'f') out->fail_above_pct = v;
    else if (key[0] == 'c') out->confidence_pct = v;
    else out->min_impact_pct = v;
  }
  auto it = j.find("metric");
  if (it != j.end() && it->is_string()) out->metric = it->get<std::string>();
  return true;
}

namespace {

DiffSide read_side(std::string_view text, const std::string& label) {
  DiffSide s;
  // A summary nests a few levels; deeper input is refused before nlohmann recurses into it.
  if (!json_nesting_within(text, 64)) {
    s.error = label + " nests deeper than a summary does";
    return s;
  }
  const json j = json::parse(text, nullptr, false);
  if (j.is_discarded()) {
    s.error = label + " is not JSON";
    return s;
  }
  return diff_side(j, label);
}

}  // namespace

DiffText diff_summaries(std::string_view base_doc, std::string_view cand_doc, const DiffOptions& options,
                        const std::string& base_label, const std::string& cand_label) {
  DiffText out;
  const DiffSide base = read_side(base_doc, base_label);
  const DiffSide cand = read_side(cand_doc, cand_label);
  if (!base.error.empty() || !cand.error.empty()) {
    out.error = base.error.empty() ? cand.error : base.error;
    return out;
  }
  const RunDiff d = diff_runs(base, cand, options);
  if (!d.usage_error.empty()) {
    out.usage_error = d.usage_error;
    return out;
  }
  out.regression = !d.beyond_gate.empty();
  out.json = diff_json(d).dump(-1, ' ', false, json::error_handler_t::replace);
  return out;
}

std::string diff_summaries_json(std::string_view base_doc, std::string_view cand_doc, std::string_view options_json) {
  std::string labels[2] = {"baseline", "candidate"};
  DiffOptions options;
  std::string error;
  if (!diff_options_from_json(options_json, &options, &error)) return json{{"error", error}}.dump();
  const json j = json::parse(options_json, nullptr, false);
  if (j.is_object())
    for (int i = 0; i < 2; ++i)
      if (auto it = j.find(i ? "cand_label" : "base_label"); it != j.end() && it->is_string()) labels[i] = *it;
  DiffText t = diff_summaries(base_doc, cand_doc, options, labels[0], labels[1]);
  if (!t.error.empty() || !t.usage_error.empty())
    return json{{"error", t.error.empty() ? t.usage_error : t.error}}.dump(-1, ' ', false,
                                                                           json::error_handler_t::replace);
  return t.json;
}

}  // namespace tw
