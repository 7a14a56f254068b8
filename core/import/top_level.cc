// Metadata outside the events array: Kineto's distributedInfo and deviceProperties (or the 2021
// schema's computeProperties), displayTimeUnit, baseTimeNanoseconds, traceName, schemaVersion.
// These values are small, so they are parsed with nlohmann, without exceptions.
#include <limits>

#include <nlohmann/json.hpp>

#include "core/base/json_depth.h"
#include "core/import/import_state.h"

namespace tw {

namespace {

// An integer value, or a number that converts to one; false for anything else, including a value
// beyond int64 ("rank": 18446744073709551616 reads as a double of 2^64, whose conversion would be
// undefined: found by make fuzz).
bool get_int(const nlohmann::json& j, const char* key, int64_t& out) {
  auto it = j.find(key);
  if (it == j.end()) return false;
  if (it->is_number_unsigned()) {
    const uint64_t u = it->get<uint64_t>();
    if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return false;
    out = static_cast<int64_t>(u);
    return true;
  }
  if (it->is_number_integer()) {
    out = it->get<int64_t>();
    return true;
  }
  if (it->is_number_float()) {
    const double d = it->get<double>();
    constexpr double kTwo63 = 9223372036854775808.0;
    if (!(d >= -kTwo63 && d < kTwo63)) return false;  // also NaN
    out = static_cast<int64_t>(d);
    return true;
  }
  return false;
}

std::string get_str(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

void read_devices(const nlohmann::json& j, TraceMeta& meta) {
  if (!j.is_array()) return;
  for (const auto& d : j) {
    if (!d.is_object()) continue;
    DeviceInfo info;
    get_int(d, "id", info.id);
    info.name = get_str(d, "name");
    get_int(d, "totalGlobalMem", info.total_global_mem);
    // The 2021 computeProperties schema wrote cudaDeviceProp's own names: major, minor,
    // multiProcessorCount.
    int64_t v = 0;
    if (get_int(d, "computeMajor", v) || get_int(d, "major", v)) info.compute_major = static_cast<int32_t>(v);
    if (get_int(d, "computeMinor", v) || get_int(d, "minor", v)) info.compute_minor = static_cast<int32_t>(v);
    if (get_int(d, "numSms", v) || get_int(d, "multiProcessorCount", v)) info.num_sms = static_cast<int32_t>(v);
    if (get_int(d, "warpSize", v)) info.warp_size = static_cast<int32_t>(v);
    if (d.contains("regsPerMultiprocessor") || d.contains("sharedMemPerBlockOptin") ||
        d.contains("sharedMemPerMultiprocessor"))
      info.runtime = DeviceRuntime::kCuda;
    else if (d.contains("maxSharedMemoryPerMultiProcessor") && !d.contains("sipCount"))
      info.runtime = DeviceRuntime::kRocm;
    else if (d.contains("runtimeMajorVersion")) info.runtime = DeviceRuntime::kMtia;
    meta.devices.push_back(std::move(info));
  }
}

// Deeper top-level values are not parsed (core/base/json_depth.h says why).
constexpr int kMaxTopLevelDepth = 256;

}  // namespace

void ImportState::on_top_level_value(std::string_view key, std::string_view raw, uint64_t offset) {
  if (later_part_) {  // handled after the events of the parts before, once absorbed
    later_values_.push_back(LaterValue{std::string(key), std::string(raw), offset});
    return;
  }
  handle_top_level(key, raw, offset);
}

void ImportState::handle_top_level(std::string_view key, std::string_view raw, uint64_t offset) {
  static const char* kKnown[] = {"distributedInfo",     "deviceProperties", "computeProperties", "displayTimeUnit",
                                 "baseTimeNanoseconds", "traceName",        "schemaVersion"};
  bool known = false;
  for (const char* k : kKnown) known = known || key == k;
  if (!known) return;  // other keys (INFO, record_shapes, ...) are not needed
  if (!json_nesting_within(raw, kMaxTopLevelDepth)) {
    stats.problem("nesting_too_deep", offset);
    return;
  }
  nlohmann::json j = nlohmann::json::parse(raw.begin(), raw.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) {
    stats.problem("bad_top_level_value", offset);
    return;
  }
  TraceMeta& meta = model.meta;
  if (key == "distributedInfo") {
    if (!j.is_object()) return;
    meta.has_rank = get_int(j, "rank", meta.rank);
    meta.has_world_size = get_int(j, "world_size", meta.world_size);
    meta.backend = get_str(j, "backend");
    auto it = j.find("pg_config");
    if (it != j.end()) meta.pg_config_json = it->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  } else if (key == "deviceProperties" || key == "computeProperties") {
    read_devices(j, meta);
  } else if (key == "displayTimeUnit") {
    if (j.is_string()) meta.display_time_unit = j.get<std::string>();
  } else if (key == "baseTimeNanoseconds") {
    if (j.is_number_integer() || j.is_number_unsigned()) {
      meta.base_time_ns = j.is_number_unsigned() ? static_cast<int64_t>(j.get<uint64_t>()) : j.get<int64_t>();
      meta.has_base_time = true;
    }
  } else if (key == "traceName") {
    if (j.is_string()) meta.trace_name = j.get<std::string>();
  } else if (key == "schemaVersion") {
    if (j.is_number_integer()) meta.schema_version = j.get<int64_t>();
  }
}

}  // namespace tw
