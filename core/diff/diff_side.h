// One side of a run comparison, read from a summary document (`tracewise.summary/1`: one file, or
// several ranks): per-step samples of every compared metric, and the whole run's totals per
// kernel and operator name. Summaries are untrusted input: a missing or mistyped value reads as
// absent, never as an error.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tw {

// A metric's values: one per step (per_step), or the whole trace's single value.
using Samples = std::vector<double>;

struct NameTotals {
  uint64_t count = 0;
  int64_t total_ns = 0;
  int64_t self_ns = 0;    // operators
  uint32_t variants = 0;  // distinct full names merged
  std::string kind, cls;  // kernels: of the first file's row
  Samples samples;        // per step (per_step), or {total} for the whole trace
};

struct DiffSide {
  std::string label;
  size_t files = 0;
  std::vector<int64_t> ranks;
  size_t steps = 0;                  // steps compared (common to every rank)
  bool has_steps = false;            // every file has profiler steps
  std::vector<std::string> devices;  // "NVIDIA A100-SXM4-80GB × 8"
  std::string mode;                  // analysis_mode.name of the first file
  bool names_complete = true;        // every file has `by_name` (else only the top rows of `kernels` / `operators`)
  size_t name_columns = 0;           // steps with kernel / operator samples
  // Whole-trace values, for when the other side has no steps.
  std::map<std::string, double> whole;
  // Per-step samples of the step metrics (step_time, gpu_idle, class:..., ...), by metric id.
  std::map<std::string, Samples> step_samples;
  std::map<std::string, NameTotals> kernels, operators;
  int64_t gpu_op_total_ns = 0;  // summed over files: share denominators
  int64_t operator_self_ns = 0;
  double trace_span_ns = 0;  // mean over files of model.last_ts_ns - first_ts_ns
  struct Stream {
    int64_t rank = -1;
    int64_t device = 0, stream = 0;
    uint64_t ops = 0;
    int64_t busy_ns = 0;
  };
  std::vector<Stream> streams;
  std::vector<std::string> notes;
  std::string error;  // not a summary document: the sentence says why (the rest is empty)
};

// `doc`: a summary document; `label`: how the comparison names this side (a path, a file name).
// `error` is set when `doc` is not a summary document. (No exceptions: the wasm build has none.)
DiffSide diff_side(const nlohmann::json& doc, const std::string& label);

}  // namespace tw
