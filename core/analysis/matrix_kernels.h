// Matrix kernels: whether a GPU kernel, by its name, is a matrix multiply (GEMM) or a convolution,
// and whether it runs on the device's matrix units (NVIDIA tensor cores, AMD MFMA / WMMA).
//
// Names are read as words, not substrings: a demangled name is cut to the kernel's own declarator
// (no return type, no parameter list: `std::enable_if<vllm::_typeConvert<T>::exists>::type
// vllm::fused_add_rms_norm_kernel<...>(...)` is about `fused_add_rms_norm_kernel`), split into
// identifiers and those into words at '_' and camelCase (`_typeConvert` is "type" + "convert", not
// "conv"). GEMM / convolution words count only outside namespaces and enclosing classes
// (`dpsk::grouped_gemm::...::transpose` is a transpose; `cutlass::device_kernel<...::GemmKernel>`
// is a GEMM); matrix-unit markers count anywhere. Mangled names (`_Z...`, when Kineto could not
// demangle) are read as their length-prefixed identifiers, all of them.
//
// Decisions:
//  - Inductor's pointwise / reduction / foreach kernels (`triton_poi_`, `triton_red_`,
//    `triton_per_`, `triton_for_`) are named after every aten op they fused: the
//    `triton_poi_fused_convolution_relu_0` after an extern cuDNN convolution adds its bias and ReLU,
//    so these are never GEMMs or convolutions. A kernel whose own name says `conv_bias_relu` is a
//    convolution with a fused epilogue, and is one.
//  - Depthwise and grouped-direct convolutions (`conv_depthwise2d_*`, cuDNN
//    `conv2d_grouped_direct_kernel`) run on CUDA cores in every precision: not candidates.
//  - Triton GEMMs (`triton_tem_*` templates, triton_kernels' `matmul_ogs`) lower tl.dot to MMA /
//    WGMMA / MFMA for 16-, 8- and 4-bit inputs, but FP32 inputs run on FMA units unless TF32 is
//    allowed: the name shows the dtype (`_matmul_ogs_NNT_bf16xbf16xmxfp4_...`) or the use is unknown.
#pragma once
#include <cstdint>
#include <string_view>

#include "core/analysis/gpu_family.h"

namespace tw {

enum class MatrixOp : uint8_t { kNone = 0, kGemm, kConvolution };
enum class MatrixUse : uint8_t { kNo = 0, kYes, kUnknown };

struct MatrixKernel {
  MatrixOp op = MatrixOp::kNone;
  // Whether it runs on the matrix units, judged with the vendor's names (an AMD Tensile name says
  // `_FMA_` even for MFMA kernels; an NVIDIA name with `ffma` runs on CUDA cores). Unknown vendor:
  // any vendor's markers count, none says no.
  MatrixUse use = MatrixUse::kNo;
};

MatrixKernel matrix_kernel(std::string_view name, GpuVendor vendor);

}  // namespace tw
