// GPU families: the vendor and generation of a device from what Kineto wrote about it
// (model.meta.devices), and which matrix units it has (NVIDIA tensor cores, AMD MFMA or WMMA), so
// that a rule about those units fires only where they exist, names them as the vendor does and gives
// advice the generation can follow.
//   NVIDIA  by compute capability: below 7.0 no tensor cores; 7.0 / 7.2 Volta and 7.5 Turing (FP16
//           only: no TF32, no BF16); 8.0 / 8.6 / 8.7 Ampere and 8.9 Ada (TF32, BF16); 9.0 Hopper;
//           10.x, 11.0 and 12.x Blackwell.
//   AMD     ROCm Kineto writes hipDeviceProp: the marketing name ("AMD Instinct MI300X") or, when the
//           driver lacks it, "AMD Radeon Graphics" (HTA's MI250 trace); computeMajor / computeMinor
//           are the gfx version (gfx90a -> 9.0, gfx942 -> 9.4, gfx950 -> 9.5, gfx1100 -> 11.0) and
//           warpSize is 64 on CDNA. An MI number tells the generation: MI100 CDNA1, MI2xx CDNA2,
//           MI300 / MI325 CDNA3, MI350 / MI355 CDNA4 (all MFMA); MI50 / MI60 and older are GCN
//           (none). Without one: 9.4 CDNA3, 9.5 CDNA4, 11.x RDNA3 and 12.x RDNA4 (WMMA), 10.x RDNA1/2
//           and 8.x or lower (none). 9.0 is gfx906 (no MFMA), gfx908 or gfx90a: unknown, and only
//           the kernels that ran can tell.
//   MTIA    the "ARTEMIS" / "MTIA" names or the MTIA plugin's keys: its matrix engine has no public
//           description this could check kernel names against, so its units stay unknown.
#pragma once
#include <cstdint>
#include <string>

#include "core/model/trace_model.h"

namespace tw {

enum class GpuVendor : uint8_t { kUnknown = 0, kNvidia, kAmd, kMtia };

enum class MatrixUnits : uint8_t {
  kUnknown = 0,  // the device may or may not have them
  kNone,         // it has none: no rule about them applies
  kTensorCores,  // NVIDIA
  kMfma,         // AMD CDNA matrix cores
  kWmma,         // AMD RDNA3 / RDNA4 WMMA instructions
};

struct GpuFamily {
  GpuVendor vendor = GpuVendor::kUnknown;
  std::string generation;  // "Volta", "Hopper", "CDNA3", "RDNA3"...; empty when unknown
  MatrixUnits units = MatrixUnits::kUnknown;
  // Which precisions the matrix units take besides FP16 (and INT8).
  bool tf32 = false;  // NVIDIA 8.0+: FP32 matmuls may run as TF32
  bool bf16 = false;  // NVIDIA 8.0+, AMD CDNA and RDNA3+
};

GpuVendor gpu_vendor(const DeviceInfo& d);
GpuFamily gpu_family(const DeviceInfo& d);

// The device whose kernels the trace holds most of (a file lists every visible device, a rank uses
// one), or the first listed device when none of its kernels names a listed one; nullptr without
// devices.
const DeviceInfo* busiest_device(const TraceModel& m);

// The device as sentences name it: "NVIDIA V100 (Volta, compute capability 7.0)", "AMD Instinct
// MI300X (CDNA3)", "device" when it has no name.
std::string device_label(const DeviceInfo& d, const GpuFamily& f);

// How the vendor calls them: "tensor cores", "matrix cores (MFMA)", "matrix units (WMMA)"
// ("matrix units" when unknown or none).
const char* matrix_units_name(MatrixUnits u);

}  // namespace tw
