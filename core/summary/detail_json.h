// JSON writers of the detail sections (docs/summary-detail-sections.md), shared by the whole-trace
// sections and the per-step details. Row limits are parameters so each caller bounds its tables.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "core/analysis/collectives.h"
#include "core/analysis/device_idle.h"
#include "core/analysis/idle.h"
#include "core/analysis/kernels.h"
#include "core/analysis/launches.h"
#include "core/analysis/memory.h"
#include "core/analysis/operators.h"
#include "core/model/trace_model.h"

namespace tw {

constexpr size_t kMaxChartPoints = 1000;  // chart series length in the summary

std::string model_str(const TraceModel& m, StringId id);
// Fractions are rounded to 4 decimals so the native and wasm builds print the same shortest form.
double round4(double x);
nlohmann::json range_json(int64_t begin, int64_t end);

// The per-stream breakdown; with `devices` (the whole trace's) also the per-device one ("devices").
nlohmann::json idle_json(const IdleResult& r, const std::vector<DeviceIdle>* devices = nullptr);
nlohmann::json kernels_json(const TraceModel& m, const KernelsResult& r, size_t top);
nlohmann::json distribution_json(const Distribution& d);
// `opt` gives the thresholds shown; `queues` only when opt.queues.
nlohmann::json launches_json(const TraceModel& m, const LaunchesResult& r, const LaunchOptions& opt);
nlohmann::json memory_json(const MemoryResult& r, bool series);
nlohmann::json collectives_json(const CollectivesResult& r);
// `top` bounds each table (operators, modules, operator -> kernel pairs).
nlohmann::json operators_json(const TraceModel& m, const OperatorsResult& r, size_t top);

}  // namespace tw
