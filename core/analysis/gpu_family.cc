#include "core/analysis/gpu_family.h"

#include <algorithm>
#include <cctype>
#include <string_view>
#include <utility>
#include <vector>

namespace tw {

namespace {

bool contains_icase(std::string_view hay, std::string_view needle) {
  return std::search(hay.begin(), hay.end(), needle.begin(), needle.end(), [](char a, char b) {
           return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
         }) != hay.end();
}

// Words in device names that only one vendor uses (hipDeviceProp / cudaDeviceProp names, and the
// names the MTIA plugin writes: "ARTEMIS" in HTA's mtia_inference_trace).
struct NameVendor {
  const char* word;
  GpuVendor vendor;
};
constexpr NameVendor kNameVendors[] = {
    {"NVIDIA", GpuVendor::kNvidia},  {"Tesla", GpuVendor::kNvidia}, {"Quadro", GpuVendor::kNvidia},
    {"GeForce", GpuVendor::kNvidia}, {"TITAN", GpuVendor::kNvidia}, {"AMD", GpuVendor::kAmd},
    {"Radeon", GpuVendor::kAmd},     {"Instinct", GpuVendor::kAmd}, {"MTIA", GpuVendor::kMtia},
    {"ARTEMIS", GpuVendor::kMtia},
};

GpuFamily nvidia_family(const DeviceInfo& d) {
  GpuFamily f;
  f.vendor = GpuVendor::kNvidia;
  const int major = d.compute_major, minor = d.compute_minor;
  if (major <= 0) return f;  // capability not written: generation and units unknown
  if (major < 7) {
    f.units = MatrixUnits::kNone;
    f.generation = major == 6 ? "Pascal" : major == 5 ? "Maxwell" : "";
    return f;
  }
  f.units = MatrixUnits::kTensorCores;
  f.tf32 = f.bf16 = major >= 8;
  if (major == 7) f.generation = minor >= 5 ? "Turing" : "Volta";
  else if (major == 8) f.generation = minor == 9 ? "Ada" : "Ampere";
  else if (major == 9) f.generation = "Hopper";
  else if (major >= 10 && major <= 12) f.generation = "Blackwell";
  return f;
}

// The number after "MI" in an Instinct name (MI300X -> 300), 0 when there is none.
int instinct_number(std::string_view name) {
  for (size_t p = name.find("MI"); p != std::string_view::npos; p = name.find("MI", p + 1)) {
    int n = 0;
    size_t i = p + 2;
    while (i < name.size() && std::isdigit(static_cast<unsigned char>(name[i])) && n < 10000)
      n = n * 10 + (name[i++] - '0');
    if (i > p + 2 && (p == 0 || !std::isalpha(static_cast<unsigned char>(name[p - 1])))) return n;
  }
  return 0;
}

GpuFamily amd_family(const DeviceInfo& d) {
  GpuFamily f;
  f.vendor = GpuVendor::kAmd;
  auto set = [&f](const char* generation, MatrixUnits units) {
    f.generation = generation;
    f.units = units;
    f.bf16 = units == MatrixUnits::kMfma || units == MatrixUnits::kWmma;
  };
  const int mi = instinct_number(d.name);
  if (mi >= 350 && mi < 400) set("CDNA4", MatrixUnits::kMfma);
  else if (mi >= 300 && mi < 350) set("CDNA3", MatrixUnits::kMfma);
  else if (mi >= 200 && mi < 300) set("CDNA2", MatrixUnits::kMfma);
  else if (mi == 100) set("CDNA1", MatrixUnits::kMfma);
  else if (mi > 0 && mi < 100) set("GCN", MatrixUnits::kNone);
  else if (d.compute_major == 9 && d.compute_minor == 5) set("CDNA4", MatrixUnits::kMfma);
  else if (d.compute_major == 9 && d.compute_minor == 4) set("CDNA3", MatrixUnits::kMfma);
  else if (d.compute_major == 12) set("RDNA4", MatrixUnits::kWmma);
  else if (d.compute_major == 11) set("RDNA3", MatrixUnits::kWmma);
  else if (d.compute_major == 10) set("RDNA", MatrixUnits::kNone);
  else if (d.compute_major > 0 && d.compute_major < 9) set("GCN", MatrixUnits::kNone);
  else if (d.compute_major == 9) f.generation = "gfx9";  // gfx906, gfx908 or gfx90a
  return f;
}

}  // namespace

GpuVendor gpu_vendor(const DeviceInfo& d) {
  for (const NameVendor& nv : kNameVendors)
    if (contains_icase(d.name, nv.word)) return nv.vendor;
  switch (d.runtime) {
    case DeviceRuntime::kCuda: return GpuVendor::kNvidia;
    case DeviceRuntime::kRocm: return GpuVendor::kAmd;
    case DeviceRuntime::kMtia: return GpuVendor::kMtia;
    case DeviceRuntime::kUnknown: break;
  }
  return GpuVendor::kUnknown;
}

GpuFamily gpu_family(const DeviceInfo& d) {
  switch (gpu_vendor(d)) {
    case GpuVendor::kNvidia: return nvidia_family(d);
    case GpuVendor::kAmd: return amd_family(d);
    case GpuVendor::kMtia: {
      GpuFamily f;
      f.vendor = GpuVendor::kMtia;
      return f;
    }
    case GpuVendor::kUnknown: break;
  }
  return GpuFamily{};
}

const DeviceInfo* busiest_device(const TraceModel& m) {
  const std::vector<DeviceInfo>& devs = m.meta.devices;
  if (devs.empty()) return nullptr;
  std::vector<std::pair<int32_t, uint64_t>> ops;  // device -> kernels (a handful of devices)
  for (size_t row = 0; row < m.gpu_ops.size(); ++row) {
    if (m.slices.kind_at(m.gpu_ops.slice[row]) != EventKind::kKernel) continue;
    const int32_t dev = m.gpu_ops.device_at(row);
    auto it = std::find_if(ops.begin(), ops.end(), [dev](const auto& p) { return p.first == dev; });
    if (it == ops.end()) ops.emplace_back(dev, 1);
    else it->second++;
  }
  std::stable_sort(ops.begin(), ops.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  for (const auto& [dev, n] : ops)
    for (const DeviceInfo& d : devs)
      if (d.id == dev) return &d;
  return &devs.front();
}

std::string device_label(const DeviceInfo& d, const GpuFamily& f) {
  std::string what = f.generation;
  if (f.vendor == GpuVendor::kNvidia && d.compute_major > 0)
    what += (what.empty() ? "" : ", ") + std::string("compute capability ") + std::to_string(d.compute_major) + "." +
            std::to_string(d.compute_minor);
  return (d.name.empty() ? std::string("device") : d.name) + (what.empty() ? "" : " (" + what + ")");
}

const char* matrix_units_name(MatrixUnits u) {
  switch (u) {
    case MatrixUnits::kTensorCores: return "tensor cores";
    case MatrixUnits::kMfma: return "matrix cores (MFMA)";
    case MatrixUnits::kWmma: return "matrix units (WMMA)";
    case MatrixUnits::kUnknown:
    case MatrixUnits::kNone: break;
  }
  return "matrix units";
}

}  // namespace tw
