// Matrix kernels and GPU families: which kernel names are GEMMs / convolutions and run on the
// matrix units, per vendor and generation, and which devices have those units. Real names come from
// the traces in tests/data (HTA's MI250 and MTIA traces, DeepSeek's H800 train.json, the Kineto and
// HTA A100 / V100 traces); the others are written the way the libraries name their kernels (the
// comments in core/analysis/matrix_kernels.cc say where each family comes from).
#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

#include "core/analysis/gpu_family.h"
#include "core/analysis/matrix_kernels.h"
#include "tests/core/detail_test_util.h"

namespace tw {
namespace {

struct Case {
  const char* name;
  MatrixOp op;
  MatrixUse use;
};

constexpr MatrixOp kGemm = MatrixOp::kGemm, kConv = MatrixOp::kConvolution, kNone = MatrixOp::kNone;
constexpr MatrixUse kYes = MatrixUse::kYes, kNo = MatrixUse::kNo, kUnknown = MatrixUse::kUnknown;

void check(GpuVendor vendor, const std::vector<Case>& cases) {
  for (const Case& c : cases) {
    CAPTURE(c.name);
    const MatrixKernel k = matrix_kernel(c.name, vendor);
    CHECK(k.op == c.op);
    if (c.op != kNone) CHECK(k.use == c.use);
  }
}

DeviceInfo device(const char* name, int major, int minor, DeviceRuntime runtime = DeviceRuntime::kUnknown) {
  DeviceInfo d;
  d.name = name;
  d.compute_major = major;
  d.compute_minor = minor;
  d.runtime = runtime;
  return d;
}

}  // namespace

TEST_CASE("matrix kernels: NVIDIA Volta and Turing") {
  check(GpuVendor::kNvidia,
        {
            {"volta_sgemm_128x64_nn", kGemm, kNo},                    // tests/data V100 traces
            {"volta_sgemm_32x32_sliced1x4_tn", kGemm, kNo},           // "
            {"volta_cgemm_32x32_tn", kGemm, kNo},                     // " (FFT convolution)
            {"volta_scudnn_128x64_relu_interior_nn_v1", kConv, kNo},  // "
            {"volta_scudnn_winograd_128x128_ldg1_ldg4_relu_tile148t_nt_v1", kConv, kNo},
            {"void cudnn::detail::dgrad_engine<float, 512, 6, 5, 3, 3, 3, false>(int, int, int, "
             "float const*, int, float const*, int, float*, kernel_grad_params, unsigned long long, "
             "int, unsigned long long, int, float, int, int, int)",
             kConv, kNo},
            {"void implicit_convolve_sgemm<float, float, 128, 6, 7, 3, 3, 5, 1, false, true, "
             "true>(int, int, int, float const*, int, float*, float const*, kernel_conv_params, "
             "unsigned long long, int, float, float, int, float const*, float const*, bool, int, int)",
             kConv, kNo},
            {"volta_h884gemm_256x128_ldg8_nn", kGemm, kYes},
            {"volta_h884cudnn_256x64_ldg8_relu_exp_small_nhwc_tn_v1", kConv, kYes},
            {"volta_fp16_sgemm_fp16_64x32_sliced1x4_nn", kGemm, kNo},  // FP16 on CUDA cores
            {"turing_fp16_s1688gemm_fp16_128x128_ldg8_f2f_tn", kGemm, kYes},
            {"turing_fp16_s1688cudnn_fp16_128x128_ldg8_relu_f2f_exp_small_nhwc_tn_v1", kConv, kYes},
            {"void cutlass::Kernel<cutlass_70_wmma_tensorop_f16_s161616gemm_f16_32x32_64x2_tn_"
             "align8>(cutlass_70_wmma_tensorop_f16_s161616gemm_f16_32x32_64x2_tn_align8::Params)",
             kGemm, kYes},  // tests/data
        });
}

TEST_CASE("matrix kernels: NVIDIA Ampere (real names of the A100 traces in tests/data)") {
  check(
      GpuVendor::kNvidia,
      {
          {"ampere_sgemm_128x64_nn", kGemm, kNo},
          {"ampere_gcgemm_64x64_nt", kGemm, kNo},
          {"void cutlass::Kernel<cutlass_80_simt_sgemm_128x32_8x5_nn_align1>(cutlass_80_simt_sgemm_128x32_8x5_nn_"
           "align1::Params)",
           kGemm, kNo},
          {"void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_64x64_32x6_tn_align4>(cutlass_80_tensorop_s1688gemm_"
           "64x64_32x6_tn_align4::Params)",
           kGemm, kYes},
          {"sm80_xmma_fprop_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x128x16_stage4_"
           "warpsize2x2x1_g1_tensor16x8x8_execute_kernel_cudnn_infer",
           kConv, kYes},
          {"void cutlass_cudnn_train::Kernel<cutlass_tensorop_s1688wgrad_optimized_tf32_256x64_16x4_nhwc_align4>("
           "cutlass_tensorop_s1688wgrad_optimized_tf32_256x64_16x4_nhwc_align4::Params)",
           kConv, kYes},
          // Undemangled CUTLASS convolution (nccl_parser_config trace): TensorOp in the mangled name.
          {"_ZN19cutlass_cudnn_train6KernelINS_4conv6kernel23ImplicitGemmConvolutionINS1_11threadblock22Implicit"
           "GemmMultistageINS_4gemm9GemmShapeILi128ELi128ELi32EEENS4_52Conv2dWgradOutputGradientTileAccessIterator"
           "OptimizedINS_11MatrixShapeILi128ELi32EEENS_10tfloat32_tENS6_4warp11MmaTensorOpINS7_ILi64ELi64ELi32EEE"
           "EEEEvNT_6ParamsE",
           kConv, kYes},
          {"sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize128x128x8_stage3_warpsize2x2x1_ffma_aligna4_alignc4_"
           "execute_kernel__5x_cublas",
           kGemm, kNo},  // FP32 FFMA although xmma
          {"ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_stages_64x3_nt", kGemm, kYes},
          {"ampere_fp32_s1684tf32gemm_fp32_128x128_ldg4_nt_v1", kGemm, kYes},
          // cuDNN helpers and transforms only mention convolution passes: not convolutions.
          {"cask_cudnn::computeWgradBOffsetsKernel(cask_cudnn::ComputeWgradBOffsetsParams)", kNone, kNo},
          {"void cudnn::cnn::reduce_wgrad_nchw_helper<float, float>(void*, void const*, float, int, int)", kNone, kNo},
          {"void cudnn::winograd_nonfused::winogradWgradData4x4<float, float>(cudnn::winograd_nonfused::"
           "WinogradDataParams<float, float>)",
           kNone, kNo},
          {"void cudnn::ops::nchwToNhwcKernel<float, float, float, false, true, (cudnnKernelDataType_t)2>(cudnn::"
           "ops::nchw2nhwc_params_t<float>, float const*, float*)",
           kNone, kNo},
          {"void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, 512, true, 1>(cudnnTensorStruct, float const*, "
           "cudnnTensorStruct, float*, float const*, float const*, float, float, float*, float*, float*, float*, "
           "float, float)",
           kNone, kNo},
          // Depthwise and grouped-direct convolutions use no tensor cores in any precision.
          {"void at::native::(anonymous namespace)::conv_depthwise2d_forward_kernel<1, float, int>(at::"
           "GenericPackedTensorAccessor<float const, 4ul, at::DefaultPtrTraits, int>, int)",
           kNone, kNo},
          {"void cudnn::cnn::conv2d_grouped_direct_kernel<false, true, false, false, 0, 0, int, float, float, float, "
           "float, float, float>(cudnn::cnn::GroupedDirectFpropParams, float const*, float const*, float*, float, "
           "float, float const*, float const*, float)",
           kNone, kNo},
      });
}

TEST_CASE("matrix kernels: NVIDIA Hopper (DeepSeek's H800 trace) and Blackwell") {
  check(GpuVendor::kNvidia,
        {
            {"sm90_xmma_gemm_bf16bf16_bf16f32_f32_nn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_"
             "kernel__5x_cublas",
             kGemm, kYes},
            {"void cutlass::device_kernel<dpsk::grouped_gemm::cuda::fp8_ptp128c::GemmKernel>(dpsk::grouped_gemm::"
             "cuda::fp8_ptp128c::GemmKernel::Params)",
             kGemm, kYes},
            // A GEMM library's namespace around a transpose: not a GEMM.
            {"void dpsk::grouped_gemm::cuda::utils::transpose<512, 128, 4, 4>(unsigned char const*, unsigned char*, "
             "int, int, int, int)",
             kNone, kNo},
            {"void cuda::per_token_cast_to_fp8_with_channels<__nv_bfloat16, 128, false, 128, false>(__nv_bfloat16 "
             "const*, int, unsigned char*, float*, int, int, int, int, bool, float, __nv_fp8_interpretation_t)",
             kNone, kNo},
            {"nvjet_tst_128x256_64x4_1x2_h_bz_coopA_TNT", kGemm, kYes},
            {"nvjet_hsh_256x128_64x4_2x1_v_bz_TNN", kGemm, kYes},
            {"nvjet_sss_tf32_128x256_TNT", kGemm, kYes},
            {"sm90_xmma_gemm_e4m3bf16_e4m3f32_f32_tn_n_tilesize128x128x128_warpgroupsize1x1x1_execute_segment_k_off_"
             "kernel__5x_cublas",
             kGemm, kYes},
            {"void cutlass::device_kernel<cutlass::gemm::kernel::GemmUniversal<cute::tuple<int, int, int, int>, "
             "cutlass::gemm::collective::CollectiveMma<cutlass::gemm::MainloopSm90TmaGmmaWarpSpecialized<4, "
             "cute::tuple<cute::C<1>, cute::C<1>, cute::C<1> >, cutlass::gemm::KernelTmaWarpSpecialized> > > >("
             "cutlass::gemm::kernel::GemmUniversal<int>::Params)",
             kGemm, kYes},
            {"sm90_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize128x128x8_stage3_warpsize2x2x1_ffma_aligna4_alignc4_"
             "execute_kernel__5x_cublas",
             kGemm, kNo},
            // Blackwell: cuBLASLt, CUTLASS 3 and TensorRT-LLM (trtllm-gen) names.
            {"nvjet_sm100_tst_256x128_64x4_2x1_2cta_v_bz_TNT", kGemm, kYes},
            {"cutlass3x_sm100_tensorop_gemm_bf16_bf16_f32_bf16_bf16_256x128x64_2x1x1_0_tnn_align8_2sm", kGemm, kYes},
            {"bmm_E4m3_E4m3E4m3_Fp32_t128x8x128u2_s6_et64x8_m64x8x32_cga1x1x1_16dp256b_TN_transOut_schedS_sm100a",
             kGemm, kYes},
            {"bmm_E2m1_E2m1E2m1_Fp32_t128x8x256u2_s3_et64x8_m64x8x64_cga1x1x1_16dp256b_TN_transOut_schedS_sm100f",
             kGemm, kYes},
            {"bmm_Bfloat16_Bfloat16Bfloat16_Fp32_t128x8x64u2_s5_et64x8_m64x8x16_cga1x1x1_16dp256b_TN_schedS_sm100a",
             kGemm, kYes},
            {"void gemm::block_scaled_gemm_kernel<Mxf8Mxf8, 128, 128>(gemm::Params)", kGemm, kYes},
            {"void cutlass::Kernel2<cutlass_80_simt_sgemm_256x128_8x4_nn_align1>(cutlass_80_simt_sgemm_256x128_8x4_"
             "nn_align1::Params)",
             kGemm, kNo},
            // vLLM's norm: `conv` only inside _typeConvert of the return type.
            {"std::enable_if<(((8)>(0)))&&_typeConvert<c10::BFloat16>::exists, void>::type vllm::fused_add_rms_norm_"
             "kernel<c10::BFloat16, 8>(c10::BFloat16*, c10::BFloat16*, c10::BFloat16 const*, float, int, int)",
             kNone, kNo},
            {"std::enable_if<((8)==(0))||(!vllm::_typeConvert<c10::BFloat16>::exists), void>::type vllm::fused_add_"
             "rms_norm_kernel<c10::BFloat16, 8, 0>(c10::BFloat16*, long, c10::BFloat16*, c10::BFloat16 const*, float, "
             "int, int, long)",
             kNone, kNo},
            {"void vllm::gemma_rms_norm_kernel<c10::BFloat16>(c10::BFloat16*, c10::BFloat16 const*, float, int, int)",
             kNone, kNo},
            {"void at::native::vectorized_elementwise_kernel<4, at::native::convert_kernel<float>, at::detail::Array<"
             "char*, 2> >(int, at::native::convert_kernel<float>, at::detail::Array<char*, 2>)",
             kNone, kNo},
            {"conv_bias_relu_kernel", kConv, kNo},  // a convolution with its epilogue fused
            {"_conv2d_kernel", kConv, kNo},
        });
}

TEST_CASE("matrix kernels: Triton and Inductor") {
  for (GpuVendor v : {GpuVendor::kNvidia, GpuVendor::kAmd}) {
    check(v, {
                 {"triton_tem_fused_mm_0", kGemm, kUnknown},  // FP32 or not: the name does not say
                 {"triton_tem_fused_addmm_relu_t_1", kGemm, kUnknown},
                 {"triton_tem_fused__to_copy_convolution_repeat_unsqueeze_view_2", kConv, kUnknown},
                 {"_matmul_ogs_NNT_bf16xbf16xmxfp4_16x256x128x1_swiglu", kGemm, kYes},
                 {"_p_matmul_ogs_NNT_bf16xbf16xbf16_128x256x64x1", kGemm, kYes},
                 {"triton_tem_fused_flex_attention_0", kNone, kUnknown},
                 // Pointwise / reduction kernels named after the ops they fused.
                 {"triton_poi_fused_convolution_relu_0", kNone, kNo},
                 {"triton_poi_fused_addmm_gelu_3", kNone, kNo},
                 {"triton_red_fused__native_batch_norm_legit_functional_convolution_1", kNone, kNo},
                 {"triton_per_fused_bmm_softmax_2", kNone, kNo},
             });
  }
}

TEST_CASE("matrix kernels: AMD (real names of HTA's MI250 trace, hipBLASLt, CK, MIOpen)") {
  check(
      GpuVendor::kAmd,
      {
          {"Cijk_Ailk_Bjlk_SB_Bias_AS_SAV_UserArgs_MT64x16x16_MI16x16x1_SN_LDSB0_AFC1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_"
           "EPS0_GRVWA1_GRVWB1_GSUAMB_ISA90a_IU1_K1_LBSPPA0_LBSPPB0_LBSPPM0_LPA0_LPB0_LPM0_LRVW1_LWPMn1_MIAV0_MIWT1_1_"
           "MO40_NTn1_NTA0_NTB0_NTC0_NTD0_NTM0_NEPBS0_NLCA1_NLCB1_ONLL1_PGR2_PLR1_PKA1_SIA3_SS1_SPO0_SRVW0_SSO0_SVW1_"
           "SK0_SKXCCM0_TLDS0_ULSGRO0_USL1_UIOFGRO0_USFGROn1_VSn1_VWA1_VWB1_WSGRA0_WSGRB0_WS64_WG64_4_1",
           kGemm, kYes},
          {"Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT256x256x64_MI16x16x1_SN_LDSB1_AFC1_AFEM1_AFEM1_ASEM1_"
           "CLR1_CADS0_EPS0_GRVWA8_GRVWB8_GSUAMB_ISA942_IU1_K1_LBSPPA128_LBSPPB128_LBSPPM0_LPA16_LPB16_LPM0_LRVW8_"
           "LWPMn1_MIAV0_MIWT4_4_MO40_NTn1_NTA0_NTB0_NTC0_NTD0_NTM0_NEPBS16_NLCA1_NLCB1_ONLL1_PGR2_PLR1_PKA1_SIA3_SS1",
           kGemm, kYes},
          // Tensile's VALU kernel (gfx1030, no MatrixInstruction); `_FMA_` is its MAC flag, MFMA or not.
          {"Cijk_Ailk_Bljk_SB_MT64x64x8_SN_1LDSB0_APM1_ABV0_ACED0_AF0EM1_AF1EM1_AMAS3_ASE_ASGT_ASLT_ASM_ASAE01_"
           "ASCE01_ASEM1_AAC0_BL1_BS1_CLR0_DTLA0_DTLB0_DTVA0_DTVB0_DVO0_ETSP_EPS1_ELFLR0_EMLL0_FSSC10_FL0_GLVWA4_"
           "GLVWB4_GRCGA1_GRCGB1_GRPM1_GRVW4_GSU1_GSUASB_GLS0_ISA1030_IU1_K1_KLA_LBSPPA0_LBSPPB0_LPA0_LPB0_LDL1_"
           "LRVW4_LWPMn1_LDW0_FMA_MIAV0_MDA2_MO40",
           kGemm, kNo},
          {"void ck::kernel_grouped_conv_fwd_multiple_abd_xdl_cshuffle<ck::GridwiseGemmMultipleABD_xdl_cshuffle<ck::"
           "tuple<ck::half_t>, ck::half_t, float>, true>(int)",
           kConv, kYes},
          {"void ck::kernel_gemm_xdl_cshuffle_v3<ck::GridwiseGemm_xdl_cshuffle_v3<ck::tensor_layout::gemm::"
           "RowMajor, ck::half_t, float>, true, (ck::InMemoryDataOperationEnum)0, 1>(ck::GridwiseGemm_xdl_cshuffle_"
           "v3<ck::half_t>::Argument)",
           kGemm, kYes},
          {"void ck::kernel_gemm_dl_v1r3<ck::GridwiseGemmDl_km_kn_mn_v1r3<256, ck::half_t, float>, true>(int)", kGemm,
           kNo},
          {"igemm_fwd_gtcx3_nhwc_fp16_bx0_ex1_bt128x128x32_wt32x32x8_ws1x1_wr2x2_ta1x8x2x1_1x4x1x64_tb1x8x2x1_1x4x1x64_"
           "gkgs",
           kGemm, kYes},
          {"igemm_fwd_gtc_nchwc_fp16_bx0_ex1_bt128x128x32", kGemm, kNo},
          {"gridwise_convolution_implicit_gemm_v4r4_xdlops_nchw_kcyx_nkhw", kConv, kYes},
          {"naive_conv_ab_nonpacked_fwd_nchw_float_double_float", kConv, kNo},
          {"miopenSp3AsmConv_v21_1_3_gfx9_fp32_stride1", kConv, kNo},
          {"MIOpenConvUni", kConv, kNo},
          {"kernel_gemm_wmma_cshuffle_v3", kGemm, kYes},
          // Real non-GEMM kernels of the MI250 trace.
          {"void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps<float, float, "
           "float, float>, unsigned int, float, 4> >(at::native::ReduceOp<float, at::native::MeanOps<float, float, "
           "float, float>, unsigned int, float, 4>)",
           kNone, kNo},
      });
  // The vendor decides what a marker means: Tensile's MI shape is no NVIDIA marker, and its `_FMA_`
  // does not make an MFMA kernel a CUDA-core one.
  const char* tensile = "Cijk_Ailk_Bljk_HHS_BH_MT128x128x16_MI16x16x16x1_SN_1LDSB0_ISA1100_IU1_K1_LDW0_FMA_MIAV1";
  CHECK(matrix_kernel(tensile, GpuVendor::kAmd).use == kYes);
  CHECK(matrix_kernel(tensile, GpuVendor::kNvidia).use == kNo);
  CHECK(matrix_kernel(tensile, GpuVendor::kUnknown).use == kYes);
}

TEST_CASE("matrix kernels: MTIA (real names of HTA's MTIA traces)") {
  check(GpuVendor::kMtia, {
                              {"batch_matmul-dtype_Float", kGemm, kNo},
                              {"fc-dtype_Float", kNone, kNo},
                              {"aten::mul.out-dtype_Float", kNone, kNo},
                              {"fbgemm::split_embedding_codegen_forward_cpu-dtype_Half", kNone, kNo},
                              {"dma_request", kNone, kNo},
                          });
}

TEST_CASE("gpu family: vendor, generation and matrix units of each device") {
  struct FamilyCase {
    DeviceInfo d;
    GpuVendor vendor;
    const char* generation;
    MatrixUnits units;
    bool tf32;
  };
  const FamilyCase cases[] = {
      {device("Tesla V100-SXM2-32GB", 7, 0), GpuVendor::kNvidia, "Volta", MatrixUnits::kTensorCores, false},
      {device("NVIDIA GeForce RTX 2080 Ti", 7, 5), GpuVendor::kNvidia, "Turing", MatrixUnits::kTensorCores, false},
      {device("NVIDIA A100-SXM4-80GB", 8, 0), GpuVendor::kNvidia, "Ampere", MatrixUnits::kTensorCores, true},
      {device("NVIDIA L4", 8, 9), GpuVendor::kNvidia, "Ada", MatrixUnits::kTensorCores, true},
      {device("NVIDIA H800", 9, 0), GpuVendor::kNvidia, "Hopper", MatrixUnits::kTensorCores, true},
      {device("NVIDIA B200", 10, 0), GpuVendor::kNvidia, "Blackwell", MatrixUnits::kTensorCores, true},
      {device("NVIDIA GeForce RTX 5090", 12, 0), GpuVendor::kNvidia, "Blackwell", MatrixUnits::kTensorCores, true},
      {device("Quadro GP100", 6, 0), GpuVendor::kNvidia, "Pascal", MatrixUnits::kNone, false},
      {device("", 8, 0, DeviceRuntime::kCuda), GpuVendor::kNvidia, "Ampere", MatrixUnits::kTensorCores, true},
      {device("NVIDIA H100", 0, 0), GpuVendor::kNvidia, "", MatrixUnits::kUnknown, false},
      {device("AMD Instinct MI300X", 9, 4), GpuVendor::kAmd, "CDNA3", MatrixUnits::kMfma, false},
      {device("AMD Instinct MI250X", 9, 0), GpuVendor::kAmd, "CDNA2", MatrixUnits::kMfma, false},
      {device("AMD Instinct MI100", 9, 0), GpuVendor::kAmd, "CDNA1", MatrixUnits::kMfma, false},
      {device("AMD Instinct MI355X", 9, 5), GpuVendor::kAmd, "CDNA4", MatrixUnits::kMfma, false},
      {device("AMD Instinct MI50", 9, 0), GpuVendor::kAmd, "GCN", MatrixUnits::kNone, false},
      {device("AMD Radeon Graphics", 9, 4), GpuVendor::kAmd, "CDNA3", MatrixUnits::kMfma, false},
      {device("AMD Radeon Graphics", 9, 0), GpuVendor::kAmd, "gfx9", MatrixUnits::kUnknown, false},  // HTA MI250
      {device("AMD Radeon RX 7900 XTX", 11, 0), GpuVendor::kAmd, "RDNA3", MatrixUnits::kWmma, false},
      {device("AMD Radeon RX 6900 XT", 10, 3), GpuVendor::kAmd, "RDNA", MatrixUnits::kNone, false},
      {device("Device 74a1", 9, 4, DeviceRuntime::kRocm), GpuVendor::kAmd, "CDNA3", MatrixUnits::kMfma, false},
      {device("ARTEMIS", 0, 0, DeviceRuntime::kMtia), GpuVendor::kMtia, "", MatrixUnits::kUnknown, false},
      {device("", 8, 0), GpuVendor::kUnknown, "", MatrixUnits::kUnknown, false},
  };
  for (const FamilyCase& c : cases) {
    CAPTURE(c.d.name);
    const GpuFamily f = gpu_family(c.d);
    CHECK(f.vendor == c.vendor);
    CHECK(f.generation == c.generation);
    CHECK(f.units == c.units);
    CHECK(f.tf32 == c.tf32);
  }
  CHECK(device_label(device("Tesla V100-SXM2-32GB", 7, 0), gpu_family(device("Tesla V100-SXM2-32GB", 7, 0))) ==
        "Tesla V100-SXM2-32GB (Volta, compute capability 7.0)");
  CHECK(device_label(device("AMD Instinct MI300X", 9, 4), gpu_family(device("AMD Instinct MI300X", 9, 4))) ==
        "AMD Instinct MI300X (CDNA3)");
  CHECK(std::string(matrix_units_name(MatrixUnits::kMfma)) == "matrix cores (MFMA)");
}

// The real traces: every GEMM of DeepSeek's H800 training step and of HTA's MI250 trace runs on the
// matrix units, and the devices are what their files say.
TEST_CASE("matrix kernels: the GEMMs of real Hopper and MI250 traces") {
  struct Real {
    const char* path;
    GpuVendor vendor;
    size_t gemms;  // distinct GEMM / convolution names
  };
  for (const Real& r :
       {Real{"deepseek_profile_data/train.json", GpuVendor::kNvidia, 6},
        Real{"hta/tests/data/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz", GpuVendor::kAmd, 2}}) {
    CAPTURE(r.path);
    const TraceModel& m = detail_test::data_trace(r.path);
    const DeviceInfo* d = busiest_device(m);
    REQUIRE(d);
    CHECK(gpu_vendor(*d) == r.vendor);
    std::set<std::string> gemms;
    for (size_t row = 0; row < m.gpu_ops.size(); ++row) {
      const std::string_view name = m.strings.get(m.slices.name.at(m.gpu_ops.slice[row]));
      const MatrixKernel k = matrix_kernel(name, r.vendor);
      if (k.op == MatrixOp::kNone) continue;
      gemms.insert(std::string(name));
      CHECK_MESSAGE(k.use == MatrixUse::kYes, name);
    }
    CHECK(gemms.size() == r.gemms);
  }
  const TraceModel& mi250 =
      detail_test::data_trace("hta/tests/data/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz");
  CHECK(gpu_family(*busiest_device(mi250)).generation == "gfx9");
  CHECK(busiest_device(mi250)->runtime == DeviceRuntime::kRocm);
}

}  // namespace tw
