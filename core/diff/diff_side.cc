#include "core/diff/diff_side.h"

#include <algorithm>
#include <unordered_map>

namespace tw {
namespace {

using nlohmann::json;

constexpr size_t kMaxSamples = 1000;  // steps compared per side (the summary lists at most this many)

const json& at(const json& j, const char* key) {
  static const json kNull;
  if (!j.is_object()) return kNull;
  auto it = j.find(key);
  return it == j.end() ? kNull : *it;
}
std::optional<double> num(const json& j) {
  if (j.is_number()) return j.get<double>();
  return std::nullopt;
}
int64_t int_or(const json& j, int64_t fallback) {
  if (j.is_number_integer()) return j.get<int64_t>();
  if (j.is_number_unsigned()) return static_cast<int64_t>(std::min<uint64_t>(j.get<uint64_t>(), INT64_MAX));
  return fallback;
}
std::string str_or(const json& j, const std::string& fallback) {
  return j.is_string() ? j.get<std::string>() : fallback;
}
double pct(double part, double whole) { return whole > 0 ? 100 * part / whole : 0; }

// The share metrics of a span (one step: a `steps[i]` object; the whole trace: the file's
// `temporal` and `overlap`) and each kernel class's busy time in it.
void span_metrics(const json& temporal, const json& overlap, const json& classes_ns,
                  std::map<std::string, double>& out) {
  const double span = num(at(temporal, "span_ns")).value_or(0);
  const double idle = num(at(temporal, "idle_ns")).value_or(0);
  out["gpu_busy"] = span > 0 ? 100 - pct(idle, span) : 0;
  out["gpu_idle"] = pct(idle, span);
  out["compute"] = pct(num(at(temporal, "compute_ns")).value_or(0), span);
  out["exposed_communication"] = pct(num(at(at(temporal, "exposed"), "communication_ns")).value_or(0), span);
  out["overlap"] = pct(num(at(overlap, "overlapped_ns")).value_or(0), span);
  for (const char* c : {"computation", "communication", "memory", "other"})
    out[std::string("class:") + c] = num(at(classes_ns, c)).value_or(0);
}

struct FileSteps {
  std::unordered_map<int64_t, size_t> index;  // step number -> position in step_breakdown.steps
  const json* breakdown = nullptr;            // step_breakdown.steps
  const json* details = nullptr;              // steps
};

FileSteps file_steps(const json& f) {
  FileSteps s;
  const json& b = at(at(f, "step_breakdown"), "steps");
  if (!b.is_array()) return s;
  s.breakdown = &b;
  const json& d = at(f, "steps");
  if (d.is_array()) s.details = &d;
  for (size_t i = 0; i < b.size(); ++i)
    if (b[i].is_object() && at(b[i], "number").is_number_integer())
      s.index.emplace(at(b[i], "number").get<int64_t>(), i);
  return s;
}

std::vector<std::string> device_list(const json& f) {
  std::vector<std::pair<std::string, size_t>> names;
  const json& d = at(f, "devices");
  if (d.is_array())
    for (const json& dev : d) {
      const std::string name = str_or(at(dev, "name"), "GPU (no name in trace)");
      auto it = std::find_if(names.begin(), names.end(), [&](const auto& p) { return p.first == name; });
      if (it == names.end()) names.push_back({name, 1});
      else it->second++;
    }
  std::vector<std::string> out;
  for (const auto& [name, n] : names) out.push_back(n > 1 ? name + " \xC3\x97 " + std::to_string(n) : name);
  return out;
}

// Adds one file's name table (by_name.kernels or .operators) into `into`; `columns` are the
// positions of the compared steps in this file's step columns.
void add_names(const json& rows, bool kernels, const std::vector<size_t>& columns, size_t files,
               std::map<std::string, NameTotals>& into) {
  if (!rows.is_array()) return;
  for (const json& r : rows) {
    const std::string name = str_or(at(r, "name"), "");
    auto [it, fresh] = into.try_emplace(name);
    NameTotals& n = it->second;
    if (fresh) {
      n.samples.assign(columns.size(), 0);
      if (kernels) {
        n.kind = str_or(at(r, "kind"), "kernel");
        n.cls = str_or(at(r, "class"), "computation");
      }
    }
    n.count += static_cast<uint64_t>(std::max<int64_t>(0, int_or(at(r, "count"), 0)));
    n.total_ns += int_or(at(r, "total_ns"), 0);
    n.self_ns += int_or(at(r, "self_ns"), 0);
    n.variants = std::max<uint32_t>(n.variants, static_cast<uint32_t>(int_or(at(r, "variants"), 1)));
    const json& steps = at(r, "steps_ns");
    for (size_t c = 0; c < columns.size(); ++c)
      if (steps.is_array() && columns[c] < steps.size())
        n.samples[c] += num(steps[columns[c]]).value_or(0) / static_cast<double>(files);
  }
}

}  // namespace

DiffSide diff_side(const json& doc, const std::string& label) {
  const json& files = at(doc, "files");
  DiffSide s;
  s.label = label;
  if (!files.is_array() || files.empty() || !files[0].is_object()) {
    s.error = label + " is not a tracewise summary (no \"files\")";
    return s;
  }
  s.files = files.size();
  const double nfiles = static_cast<double>(files.size());
  s.devices = device_list(files[0]);
  s.mode = str_or(at(at(files[0], "analysis_mode"), "name"), "default");

  // The steps every rank recorded, in the first file's order.
  std::vector<FileSteps> fs;
  s.has_steps = true;
  for (const json& f : files) {
    fs.push_back(file_steps(f));
    if (fs.back().index.empty()) s.has_steps = false;
  }
  std::vector<int64_t> common;
  if (s.has_steps)
    for (const json& st : *fs[0].breakdown) {
      const int64_t number = int_or(at(st, "number"), INT64_MIN);
      bool everywhere = true;
      for (const FileSteps& x : fs) everywhere = everywhere && x.index.count(number);
      if (everywhere && common.size() < kMaxSamples) common.push_back(number);
    }
  if (s.has_steps && common.empty()) {
    s.has_steps = false;
    s.notes.push_back(label + ": the ranks share no profiler step number; whole-trace values are compared");
  }
  s.steps = common.size();

  // Step samples: the slowest rank's step time, the mean over ranks of the rest.
  for (int64_t number : common) {
    double step_time = 0;
    std::map<std::string, double> sum;
    for (const FileSteps& x : fs) {
      const size_t i = x.index.find(number)->second;
      step_time = std::max(step_time, num(at((*x.breakdown)[i], "duration_ns")).value_or(0));
      std::map<std::string, double> one;
      if (x.details && i < x.details->size()) {
        const json& st = (*x.details)[i];
        span_metrics(at(st, "temporal"), at(st, "overlap"), at(at(st, "temporal"), "classes_ns"), one);
      }
      for (const auto& [k, v] : one) sum[k] += v / nfiles;
    }
    s.step_samples["step_time"].push_back(step_time);
    for (const auto& [k, v] : sum) s.step_samples[k].push_back(v);
  }

  // Kernel and operator samples: the compared steps that every file has a name column for.
  std::vector<std::vector<size_t>> columns(files.size());
  for (int64_t number : common) {
    bool all = true;
    for (size_t i = 0; i < files.size(); ++i) {
      const int64_t cols = int_or(at(at(files[i], "by_name"), "step_columns"), 0);
      all = all && static_cast<int64_t>(fs[i].index.find(number)->second) < cols;
    }
    if (!all) continue;
    for (size_t i = 0; i < files.size(); ++i) columns[i].push_back(fs[i].index.find(number)->second);
  }
  s.name_columns = columns[0].size();

  double span_sum = 0;
  for (size_t i = 0; i < files.size(); ++i) {
    const json& f = files[i];
    s.ranks.push_back(int_or(at(f, "rank"), -1));
    std::map<std::string, double> one;
    span_metrics(at(f, "temporal"), at(f, "overlap"), at(f, "kernel_classes_ns"), one);
    for (const auto& [k, v] : one) s.whole[k] += v / nfiles;
    const json& model = at(f, "model");
    // In integers: timestamps near 2^61 ns lose whole microseconds as doubles.
    const __int128 span =
        static_cast<__int128>(int_or(at(model, "last_ts_ns"), 0)) - int_or(at(model, "first_ts_ns"), 0);
    span_sum += span > 0 ? static_cast<double>(span) : 0.0;
    s.gpu_op_total_ns += int_or(at(at(f, "kernels"), "total_ns"), 0);
    const json& streams = at(at(f, "stream_overlap"), "streams");
    if (streams.is_array())
      for (const json& st : streams)
        s.streams.push_back(
            {int_or(at(f, "rank"), static_cast<int64_t>(i)), int_or(at(st, "device"), 0), int_or(at(st, "stream"), 0),
             static_cast<uint64_t>(std::max<int64_t>(0, int_or(at(st, "ops"), 0))), int_or(at(st, "busy_ns"), 0)});
    const json& by_name = at(f, "by_name");
    if (!by_name.is_object()) {
      s.names_complete = false;
      continue;
    }
    add_names(at(by_name, "kernels"), true, columns[i], files.size(), s.kernels);
    add_names(at(by_name, "operators"), false, columns[i], files.size(), s.operators);
  }
  for (const auto& [name, n] : s.operators) s.operator_self_ns += n.self_ns;
  s.trace_span_ns = span_sum / nfiles;
  if (!s.names_complete) {
    s.kernels.clear();
    s.operators.clear();
    s.notes.push_back(label + ": a summary without the by_name table (written by an older tracewise): kernels and "
                              "operators are not compared");
  }
  return s;
}

}  // namespace tw
