#include "core/diff/diff.h"

#include <algorithm>
#include <cmath>

#include "core/diff/diff_words.h"

namespace tw {
namespace {

double mean(const Samples& v) {
  double s = 0;
  for (double x : v) s += x;
  return v.empty() ? 0 : s / static_cast<double>(v.size());
}

// A change worth a sentence: "+6.2 %" for relative metrics, "+1.1 points" for shares.
std::string change_words(const MetricDiff& m) {
  const std::optional<double> d = m.delta(), p = m.delta_pct();
  if (!d) return "not comparable";
  if (m.unit == Unit::kPct) return printf_double("%+.1f points", *d);
  if (p) return printf_double("%+.1f %%", *p);
  return signed_duration_words(*d) + " per step";
}

// Fills the verdict of a metric from its samples.
void judge(MetricDiff& m, const Samples& base, const Samples& cand, double confidence) {
  m.base_samples = base.size();
  m.cand_samples = cand.size();
  m.test = rank_test(base, cand, confidence);
  if (!m.base || !m.cand) {
    m.verdict = Verdict::kNotComparable;
    return;
  }
  if (!m.test) {
    m.verdict = Verdict::kNoNoiseEstimate;
    return;
  }
  const bool significant = m.test->p_value < 1 - confidence && m.test->shift != 0;
  if (!significant) {
    m.verdict = Verdict::kUnchanged;
  } else if (m.worse == Worse::kNone) {
    m.verdict = m.test->shift > 0 ? Verdict::kHigher : Verdict::kLower;
  } else {
    const bool up = m.test->shift > 0;
    m.verdict = up == (m.worse == Worse::kUp) ? Verdict::kWorse : Verdict::kBetter;
  }
}

// Beyond the gate: a confident (or unestimable) change the worse way, larger than the gate.
bool beyond(const MetricDiff& m, double gate, double min_impact) {
  const std::optional<double> d = m.delta();
  if (!d || m.worse == Worse::kNone) return false;
  const double worse_by = m.worse == Worse::kUp ? *d : -*d;
  if (worse_by <= 0) return false;
  if (m.verdict != Verdict::kWorse && m.verdict != Verdict::kNoNoiseEstimate && m.verdict != Verdict::kAdded)
    return false;
  if (m.id.rfind("kernel:", 0) == 0 || m.id.rfind("operator:", 0) == 0)
    if (m.impact_pct < min_impact) return false;
  if (m.gate == Gate::kPoints) return worse_by > gate;
  if (m.gate == Gate::kRelative) {
    const std::optional<double> p = m.delta_pct();
    return !p || std::fabs(*p) > gate;  // from zero (an added name): any growth
  }
  return false;
}

struct MetricSpec {
  const char* id;
  const char* label;
  Unit unit;
  Gate gate;
  Worse worse;
  bool gated_by_default;
};

constexpr MetricSpec kStepMetrics[] = {
    {"step_time", "Step time", Unit::kNs, Gate::kRelative, Worse::kUp, true},
    {"gpu_busy", "GPU busy", Unit::kPct, Gate::kPoints, Worse::kDown, false},
    {"gpu_idle", "GPU idle", Unit::kPct, Gate::kPoints, Worse::kUp, true},
    {"compute", "Computation", Unit::kPct, Gate::kNone, Worse::kNone, false},
    {"exposed_communication", "Exposed communication", Unit::kPct, Gate::kPoints, Worse::kUp, true},
    {"overlap", "Communication under computation", Unit::kPct, Gate::kPoints, Worse::kDown, true},
    {"class:computation", "Computation kernels", Unit::kNs, Gate::kRelative, Worse::kUp, false},
    {"class:communication", "Communication kernels", Unit::kNs, Gate::kRelative, Worse::kUp, false},
    {"class:memory", "Memory operations", Unit::kNs, Gate::kRelative, Worse::kUp, false},
    {"class:other", "Other GPU work", Unit::kNs, Gate::kRelative, Worse::kUp, false},
};

Samples side_samples(const DiffSide& s, const std::string& id, bool per_step) {
  if (per_step) {
    auto it = s.step_samples.find(id);
    return it == s.step_samples.end() ? Samples{} : it->second;
  }
  auto it = s.whole.find(id);
  return it == s.whole.end() ? Samples{} : Samples{it->second};
}

NameStats name_stats(const NameTotals& n, double share_of) {
  NameStats st;
  st.count = n.count;
  st.total_ns = n.total_ns;
  st.mean_ns = n.count ? static_cast<double>(n.total_ns) / static_cast<double>(n.count) : 0;
  st.share_pct = share_of > 0 ? 100 * static_cast<double>(n.total_ns) / share_of : 0;
  return st;
}

// `per_step`: both sides have step columns for names (else whole-trace totals, one sample a side).
NameTable diff_names(const std::map<std::string, NameTotals>& base, const std::map<std::string, NameTotals>& cand,
                     const char* prefix, bool kernels, const RunDiff& d, bool per_step, double impact_of) {
  NameTable t;
  const double conf = d.options.confidence_pct / 100;
  const size_t columns_base = d.base->name_columns, columns_cand = d.cand->name_columns;
  // Without step columns a name's value is its whole-trace total (per file).
  auto samples = [&](const NameTotals* n, size_t columns, size_t files) -> Samples {
    if (per_step) return n ? n->samples : Samples(columns, 0.0);
    return Samples{n ? static_cast<double>(n->total_ns) / static_cast<double>(files) : 0.0};
  };
  std::vector<std::string> names;
  for (const auto& [n, _] : base) names.push_back(n);
  for (const auto& [n, _] : cand)
    if (!base.count(n)) names.push_back(n);
  for (const std::string& name : names) {
    auto b = base.find(name), c = cand.find(name);
    const NameTotals* bn = b == base.end() ? nullptr : &b->second;
    const NameTotals* cn = c == cand.end() ? nullptr : &c->second;
    NameDiff r;
    r.name = name;
    r.metric.id = std::string(prefix) + name;
    r.metric.label = name;
    r.metric.unit = Unit::kNs;
    r.metric.gate = Gate::kRelative;
    r.metric.worse = Worse::kUp;
    r.metric.gated = true;
    const Samples bs = samples(bn, columns_base, d.base->files), cs = samples(cn, columns_cand, d.cand->files);
    r.metric.base = mean(bs);
    r.metric.cand = mean(cs);
    judge(r.metric, bs, cs, conf);
    if (!bn || !cn) r.metric.verdict = bn ? Verdict::kRemoved : Verdict::kAdded;
    if (bn) r.base = name_stats(*bn, kernels ? double(d.base->gpu_op_total_ns) : double(d.base->operator_self_ns));
    if (cn) r.cand = name_stats(*cn, kernels ? double(d.cand->gpu_op_total_ns) : double(d.cand->operator_self_ns));
    if (!kernels) {
      if (bn)
        r.base->share_pct =
            d.base->operator_self_ns > 0 ? 100 * double(bn->self_ns) / double(d.base->operator_self_ns) : 0;
      if (cn)
        r.cand->share_pct =
            d.cand->operator_self_ns > 0 ? 100 * double(cn->self_ns) / double(d.cand->operator_self_ns) : 0;
    }
    r.base_variants = bn ? bn->variants : 0;
    r.cand_variants = cn ? cn->variants : 0;
    const NameTotals* any = bn ? bn : cn;
    r.kind = any->kind;
    r.cls = any->cls;
    r.status = !bn                                                        ? "added"
               : !cn                                                      ? "removed"
               : (bn->count != cn->count || bn->total_ns != cn->total_ns) ? "changed"
                                                                          : "same";
    t.added += !bn;
    t.removed += !cn;
    t.changed += bn && cn && r.status == "changed";
    r.metric.impact_pct = impact_of > 0 ? 100 * std::fabs(*r.metric.delta()) / impact_of : 0;
    t.rows.push_back(std::move(r));
  }
  std::sort(t.rows.begin(), t.rows.end(), [](const NameDiff& a, const NameDiff& b) {
    const double da = std::fabs(*a.metric.delta()), db = std::fabs(*b.metric.delta());
    if (da != db) return da > db;
    return a.name < b.name;
  });
  return t;
}

std::string plural_steps(size_t n) { return std::to_string(n) + (n == 1 ? " step" : " steps"); }

}  // namespace

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::kWorse: return "worse";
    case Verdict::kBetter: return "better";
    case Verdict::kHigher: return "higher";
    case Verdict::kLower: return "lower";
    case Verdict::kUnchanged: return "unchanged";
    case Verdict::kNoNoiseEstimate: return "no_noise_estimate";
    case Verdict::kAdded: return "added";
    case Verdict::kRemoved: return "removed";
    case Verdict::kNotComparable: return "not_comparable";
  }
  return "not_comparable";
}

std::optional<double> MetricDiff::delta() const {
  if (!base || !cand) return std::nullopt;
  return *cand - *base;
}

std::optional<double> MetricDiff::delta_pct() const {
  const std::optional<double> d = delta();
  if (!d || *base == 0) return std::nullopt;
  return 100 * *d / std::fabs(*base);
}

std::vector<std::string> metric_ids(const RunDiff& d) {
  std::vector<std::string> ids;
  for (const MetricDiff& m : d.metrics)
    if (m.worse != Worse::kNone) ids.push_back(m.id);
  for (const NameTable* t : {&d.kernels, &d.operators})
    for (const NameDiff& r : t->rows) ids.push_back(r.metric.id);
  return ids;
}

RunDiff diff_runs(const DiffSide& base, const DiffSide& cand, const DiffOptions& options) {
  RunDiff d;
  d.base = &base;
  d.cand = &cand;
  d.options = options;
  if (!(options.confidence_pct > 50 && options.confidence_pct < 100))
    d.usage_error = "--confidence must be above 50 and below 100 (percent)";
  else if (options.fail_above_pct && !(*options.fail_above_pct >= 0))
    d.usage_error = "--fail-above must be a percentage of 0 or more";
  else if (!(options.min_impact_pct >= 0)) d.usage_error = "--min-impact must be 0 or more (percent)";
  if (!d.usage_error.empty()) return d;
  d.per_step = base.has_steps && cand.has_steps;
  const double conf = options.confidence_pct / 100;

  for (const MetricSpec& spec : kStepMetrics) {
    MetricDiff m;
    m.id = spec.id;
    m.label = spec.label;
    m.unit = spec.unit;
    m.gate = spec.gate;
    m.worse = spec.worse;
    m.gated = spec.gated_by_default;
    const Samples bs = side_samples(base, m.id, d.per_step), cs = side_samples(cand, m.id, d.per_step);
    if (!bs.empty()) m.base = mean(bs);
    if (!cs.empty()) m.cand = mean(cs);
    judge(m, bs, cs, conf);
    d.metrics.push_back(std::move(m));
  }

  // Kernels and operators per step need step columns on both sides.
  const bool name_steps = d.per_step && base.name_columns > 0 && cand.name_columns > 0;
  const double impact_of = d.per_step ? d.metrics[0].base.value_or(0) : base.trace_span_ns;
  if (base.names_complete && cand.names_complete) {
    d.kernels = diff_names(base.kernels, cand.kernels, "kernel:", true, d, name_steps, impact_of);
    d.operators = diff_names(base.operators, cand.operators, "operator:", false, d, name_steps, impact_of);
  }

  // --metric: that one metric only.
  if (options.metric) {
    bool found = false;
    auto pick = [&](MetricDiff& m) {
      m.gated = m.id == *options.metric && m.worse != Worse::kNone;
      found = found || m.gated;
    };
    for (MetricDiff& m : d.metrics) pick(m);
    for (NameTable* t : {&d.kernels, &d.operators})
      for (NameDiff& r : t->rows) pick(r.metric);
    if (!found) {
      std::string ids;
      for (const MetricSpec& s : kStepMetrics)
        if (s.worse != Worse::kNone) ids += std::string(ids.empty() ? "" : ", ") + s.id;
      RunDiff bad;
      bad.base = &base;
      bad.cand = &cand;
      bad.options = options;
      bad.usage_error = "--metric " + *options.metric + " is not a metric of this comparison; use one of " + ids +
                        ", kernel:NAME or operator:NAME (a name as the diff lists it)";
      return bad;
    }
  }
  if (options.fail_above_pct) {
    auto check = [&](MetricDiff& m) {
      m.beyond_gate = m.gated && beyond(m, *options.fail_above_pct, options.min_impact_pct);
      if (m.beyond_gate) d.beyond_gate.push_back(m.id);
    };
    for (MetricDiff& m : d.metrics) check(m);
    for (NameTable* t : {&d.kernels, &d.operators})
      for (NameDiff& r : t->rows) check(r.metric);
  }

  // Streams by (rank, device, stream).
  for (const DiffSide::Stream& s : base.streams) d.streams.push_back({s.rank, s.device, s.stream, s, std::nullopt});
  for (const DiffSide::Stream& s : cand.streams) {
    auto it = std::find_if(d.streams.begin(), d.streams.end(), [&](const StreamDiff& x) {
      return x.rank == s.rank && x.device == s.device && x.stream == s.stream;
    });
    if (it != d.streams.end()) it->cand = s;
    else d.streams.push_back({s.rank, s.device, s.stream, std::nullopt, s});
  }

  // Notes: what makes the comparison weaker than it looks.
  for (const DiffSide* s : {&base, &cand}) d.notes.insert(d.notes.end(), s->notes.begin(), s->notes.end());
  if (!d.per_step)
    d.notes.push_back(std::string(base.has_steps ? "The candidate" : "The baseline") +
                      (base.has_steps || cand.has_steps ? " has" : " and the candidate have") +
                      " no profiler steps: whole-trace values are compared, without a noise estimate");
  else if (base.steps < kMinTestSamples || cand.steps < kMinTestSamples)
    d.notes.push_back("Fewer than " + std::to_string(kMinTestSamples) + " steps on a side (" +
                      plural_steps(base.steps) + " against " + plural_steps(cand.steps) +
                      "): no noise estimate is possible; a change may be noise");
  if (name_steps && (base.name_columns < base.steps || cand.name_columns < cand.steps))
    d.notes.push_back("Kernels and operators are compared over the first " +
                      std::to_string(std::min(base.name_columns, cand.name_columns)) + " steps");
  if (base.devices != cand.devices)
    d.notes.push_back("The runs used different GPUs: a hardware change, not only a code change");
  if (base.mode != cand.mode)
    d.notes.push_back("The sides were analysed in different modes (" + base.mode + ", " + cand.mode + ")");
  if (base.files != cand.files)
    d.notes.push_back("The sides have different numbers of files (" + std::to_string(base.files) + " against " +
                      std::to_string(cand.files) + ")");

  // The headline.
  const MetricDiff& step = d.metrics[0];
  auto metric_words = [&](const MetricDiff& m) {
    std::string w = m.label + " " + change_words(m);
    switch (m.verdict) {
      case Verdict::kWorse:
      case Verdict::kBetter:
      case Verdict::kHigher:
      case Verdict::kLower: w += printf_double(" (%.1f %% confidence)", 100 * (1 - m.test->p_value)); break;
      case Verdict::kUnchanged: w += " (within noise)"; break;
      case Verdict::kNoNoiseEstimate: w += " (no noise estimate)"; break;
      case Verdict::kAdded: w += " (new)"; break;
      case Verdict::kRemoved: w += " (gone)"; break;
      case Verdict::kNotComparable: break;
    }
    return w;
  };
  if (options.fail_above_pct) {
    const std::string gate = printf_double("%g", *options.fail_above_pct);
    if (d.beyond_gate.empty()) {
      d.sentence = "No regression beyond the " + gate + " % gate";
      if (step.delta()) d.sentence += "; " + metric_words(step);
      d.sentence += ".";
    } else {
      d.sentence = "Regression beyond the " + gate + " % gate: ";
      size_t said = 0;
      for (const std::string& id : d.beyond_gate) {
        if (said == 3) break;
        const MetricDiff* m = nullptr;
        for (const MetricDiff& x : d.metrics) m = x.id == id ? &x : m;
        for (const NameTable* t : {&d.kernels, &d.operators})
          for (const NameDiff& r : t->rows) m = r.metric.id == id ? &r.metric : m;
        d.sentence += std::string(said++ ? "; " : "") +
                      (m->id.rfind("kernel:", 0) == 0     ? "kernel "
                       : m->id.rfind("operator:", 0) == 0 ? "operator "
                                                          : "") +
                      metric_words(*m);
      }
      if (d.beyond_gate.size() > 3) d.sentence += "; " + std::to_string(d.beyond_gate.size() - 3) + " more";
      d.sentence += ".";
    }
  } else {
    d.sentence = step.delta() ? metric_words(step) + "." : "No step time to compare.";
  }
  return d;
}

}  // namespace tw
