// The no_tensor_cores rule per GPU family: one trace that must fire and one that must not for each
// of Volta, Turing, Ampere, Hopper, Blackwell, CDNA (MI300X, MI250), RDNA, MTIA and devices of no
// known vendor; its words fit the vendor and its advice the generation (never TF32 below 8.0).
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "tests/core/detail_test_util.h"

namespace tw {
namespace {

using detail_test::details_of;
using detail_test::recommendation;
using Kernels = std::vector<std::pair<std::string, int>>;  // name, duration in us

nlohmann::json nvidia(const char* name, int major, int minor) {
  return {{"id", 0},        {"name", name},  {"computeMajor", major},          {"computeMinor", minor},
          {"warpSize", 32}, {"numSms", 108}, {"regsPerMultiprocessor", 65536}, {"totalGlobalMem", 1 << 30}};
}
nlohmann::json amd(const char* name, int major, int minor) {
  return {{"id", 0},
          {"name", name},
          {"computeMajor", major},
          {"computeMinor", minor},
          {"warpSize", 64},
          {"numSms", 304},
          {"maxSharedMemoryPerMultiProcessor", 65536},
          {"totalGlobalMem", 1 << 30}};
}

// One device; the kernels run back to back on its stream 7, so GPU busy time is their sum.
std::string trace(const nlohmann::json& device, const Kernels& kernels) {
  nlohmann::json events = nlohmann::json::array();
  int ts = 0;
  for (const auto& [name, dur] : kernels) {
    events.push_back({{"ph", "X"},
                      {"cat", "kernel"},
                      {"name", name},
                      {"pid", 0},
                      {"tid", 7},
                      {"ts", ts},
                      {"dur", dur},
                      {"args", {{"device", 0}, {"stream", 7}}}});
    ts += dur;
  }
  nlohmann::json doc = {{"traceEvents", events}};
  if (!device.is_null()) doc["deviceProperties"] = nlohmann::json::array({device});
  return doc.dump();
}

struct Fired {
  nlohmann::json f;
  const nlohmann::json* r = nullptr;
  std::string text() const { return r ? (*r)["text"].get<std::string>() : ""; }
  std::string title() const { return r ? (*r)["title"].get<std::string>() : ""; }
  bool says(const char* words) const { return text().find(words) != std::string::npos; }
};

Fired rule(const nlohmann::json& device, const Kernels& kernels) {
  Fired out;
  out.f = details_of(trace(device, kernels));
  out.r = recommendation(out.f, "no_tensor_cores");
  return out;
}

// A real trace of tests/data.
nlohmann::json details_of_file(const char* rel) {
  nlohmann::json f = nlohmann::json::object();
  add_detail_sections(f, detail_test::data_trace(rel), SummaryOptions{});
  return f;
}

const char* const kElementwise = "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float> >";

}  // namespace

TEST_CASE("no_tensor_cores: Volta and Turing get FP16 advice, never TF32 or BF16") {
  const Fired v100 = rule(nvidia("Tesla V100-SXM2-32GB", 7, 0), {{"volta_sgemm_128x64_nn", 80}, {kElementwise, 20}});
  REQUIRE(v100.r);
  CHECK((*v100.r)["severity"] == "high");
  CHECK(v100.title() == "GEMMs do not use tensor cores");
  CHECK(v100.says("The Tesla V100-SXM2-32GB (Volta, compute capability 7.0) has tensor cores, but its 1 GEMM / "
                  "convolution kernel launch (80.0 us, 80.0% of GPU busy time) does not use them."));
  CHECK(v100.says("torch.float16"));
  CHECK(v100.says("multiples of 8"));
  for (const char* absent : {"TF32", "tf32", "BF16", "bfloat16", "MFMA"}) CHECK_MESSAGE(!v100.says(absent), absent);
  CHECK((*v100.r)["evidence"]["offenders"] == nlohmann::json::array({"volta_sgemm_128x64_nn"}));
  CHECK((*v100.r)["evidence"]["numbers"]["gemm_ns"] == 80000);
  CHECK((*v100.r)["evidence"]["numbers"]["share"] == doctest::Approx(0.8));

  CHECK(!rule(nvidia("Tesla V100-SXM2-32GB", 7, 0), {{"volta_h884gemm_256x128_ldg8_nn", 80}, {kElementwise, 20}}).r);

  const Fired turing = rule(nvidia("NVIDIA GeForce RTX 2080 Ti", 7, 5),
                            {{"volta_scudnn_128x64_relu_interior_nn_v1", 30}, {kElementwise, 70}});
  REQUIRE(turing.r);
  CHECK((*turing.r)["severity"] == "medium");
  CHECK(turing.says("Turing tensor cores take FP16 inputs only"));
  CHECK(!turing.says("TF32"));
  CHECK(!rule(nvidia("NVIDIA GeForce RTX 2080 Ti", 7, 5),
              {{"turing_fp16_s1688gemm_fp16_128x128_ldg8_f2f_tn", 30}, {kElementwise, 70}})
             .r);
}

TEST_CASE("no_tensor_cores: Ampere names the GEMMs that miss tensor cores even when others use them") {
  const Fired a100 =
      rule(nvidia("NVIDIA A100-SXM4-80GB", 8, 0), {{"ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_stages_64x3_nt", 60},
                                                   {"ampere_sgemm_128x64_nn", 30},
                                                   {kElementwise, 10}});
  REQUIRE(a100.r);
  CHECK(a100.title() == "Some GEMMs do not use tensor cores");
  CHECK(a100.says("1 GEMM / convolution kernel launch (30.0 us, 30.0% of GPU busy time) does not use the tensor "
                  "cores of the NVIDIA A100-SXM4-80GB (Ampere, compute capability 8.0), while other GEMMs and "
                  "convolutions (60.0 us) do."));
  CHECK(a100.says("torch.set_float32_matmul_precision(\"high\")"));
  CHECK(a100.says("torch.backends.cuda.matmul.allow_tf32"));
  CHECK((*a100.r)["evidence"]["offenders"] == nlohmann::json::array({"ampere_sgemm_128x64_nn"}));
  CHECK((*a100.r)["evidence"]["numbers"]["matrix_gemm_ns"] == 60000);
  // Under 5% of the busy time it is not worth a verdict.
  CHECK(
      !rule(nvidia("NVIDIA A100-SXM4-80GB", 8, 0), {{"ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_stages_64x3_nt", 60},
                                                    {"ampere_sgemm_128x64_nn", 4},
                                                    {kElementwise, 36}})
           .r);
}

TEST_CASE("no_tensor_cores: Hopper and Blackwell") {
  const char* ffma =
      "sm90_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize128x128x8_stage3_warpsize2x2x1_ffma_aligna4_alignc4_execute_"
      "kernel__5x_cublas";
  const Fired h100 = rule(nvidia("NVIDIA H100 80GB HBM3", 9, 0), {{ffma, 50}, {kElementwise, 50}});
  REQUIRE(h100.r);
  CHECK(h100.says("(Hopper, compute capability 9.0)"));
  CHECK(h100.says("TF32"));
  CHECK(!rule(nvidia("NVIDIA H100 80GB HBM3", 9, 0),
              {{"nvjet_tst_128x256_64x4_1x2_h_bz_coopA_TNT", 50},
               {"sm90_xmma_gemm_bf16bf16_bf16f32_f32_nn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_"
                "kernel__5x_cublas",
                30},
               {kElementwise, 20}})
             .r);

  const Fired b200 = rule(nvidia("NVIDIA B200", 10, 0),
                          {{"void cutlass::Kernel2<cutlass_80_simt_sgemm_256x128_8x4_nn_align1>(cutlass_80_simt_sgemm_"
                            "256x128_8x4_nn_align1::Params)",
                            40},
                           {kElementwise, 60}});
  REQUIRE(b200.r);
  CHECK(b200.says("(Blackwell, compute capability 10.0)"));
  CHECK(
      !rule(nvidia("NVIDIA B200", 10, 0),
            {{"bmm_E4m3_E4m3E4m3_Fp32_t128x8x128u2_s6_et64x8_m64x8x32_cga1x1x1_16dp256b_TN_transOut_schedS_sm100a", 40},
             {"nvjet_sm100_tst_256x128_64x4_2x1_2cta_v_bz_TNT", 40},
             {kElementwise, 20}})
           .r);
}

TEST_CASE("no_tensor_cores: kernels that only look like convolutions or GEMMs") {
  // vLLM's fused_add_rms_norm (`conv` inside _typeConvert) and Inductor's pointwise kernel after an
  // extern convolution: no GEMM, no verdict.
  CHECK(!rule(nvidia("NVIDIA H100 80GB HBM3", 9, 0),
              {{"std::enable_if<(((8)>(0)))&&_typeConvert<c10::BFloat16>::exists, void>::type vllm::fused_add_rms_norm_"
                "kernel<c10::BFloat16, 8>(c10::BFloat16*, c10::BFloat16*, c10::BFloat16 const*, float, int, int)",
                90},
               {"triton_poi_fused_convolution_relu_0", 10}})
             .r);
  // Triton GEMM templates: whether they use tensor cores depends on their (unnamed) dtype.
  const Fired triton = rule(nvidia("NVIDIA A100-SXM4-80GB", 8, 0),
                            {{"triton_tem_fused_mm_0", 50}, {"ampere_sgemm_128x64_nn", 30}, {kElementwise, 20}});
  REQUIRE(triton.r);
  CHECK(triton.title() == "Some GEMMs do not use tensor cores");
  CHECK((*triton.r)["evidence"]["numbers"]["unknown_gemm_ns"] == 50000);
  CHECK((*triton.r)["evidence"]["offenders"] == nlohmann::json::array({"ampere_sgemm_128x64_nn"}));
  CHECK(!triton.says("while other GEMMs"));
}

TEST_CASE("no_tensor_cores: AMD speaks of matrix cores (MFMA) and hipBLASLt") {
  const char* mfma =
      "Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT256x256x64_MI16x16x1_SN_LDSB1_AFC1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_"
      "EPS0_GRVWA8_GRVWB8_GSUAMB_ISA942_IU1_K1_LBSPPA128_LBSPPB128_LPA16_LPB16_LRVW8_LWPMn1_MIAV0_MIWT4_4_MO40";
  const char* valu =
      "Cijk_Ailk_Bljk_SB_MT64x64x8_SN_1LDSB0_APM1_ABV0_ACED0_AF0EM1_AF1EM1_AMAS3_ASE_ASGT_ASLT_ASM_ASAE01_ASCE01_ASEM1_"
      "AAC0_BL1_BS1_CLR0_DTLA0_DTLB0_DTVA0_DTVB0_DVO0_ETSP_EPS1_FL0_GLVWA4_GLVWB4_GRVW4_GSU1_GSUASB_GLS0_ISA942_IU1_K1_"
      "KLA_LBSPPA0_LBSPPB0_LPA0_LPB0_LDL1_LRVW4_LWPMn1_LDW0_FMA_MIAV0_MDA2_MO40";
  const nlohmann::json mi300x = amd("AMD Instinct MI300X", 9, 4);
  CHECK(!rule(mi300x, {{mfma, 80}, {kElementwise, 20}}).r);
  const Fired off =
      rule(mi300x, {{valu, 50}, {"naive_conv_ab_nonpacked_fwd_nchw_float_double_float", 30}, {kElementwise, 20}});
  REQUIRE(off.r);
  CHECK(off.title() == "GEMMs do not use matrix cores (MFMA)");
  CHECK(off.says("The AMD Instinct MI300X (CDNA3) has matrix cores (MFMA), but its 2 GEMM / convolution kernel "
                 "launches (80.0 us, 80.0% of GPU busy time) do not use them."));
  CHECK(off.says("hipBLASLt"));
  for (const char* absent : {"tensor cores", "TF32", "tf32", "compute capability"})
    CHECK_MESSAGE(!off.says(absent), absent);
  CHECK((*off.r)["evidence"]["offenders"].size() == 2);

  // HTA's MI250 ("AMD Radeon Graphics", gfx 9.0: gfx906, gfx908 or gfx90a): only MFMA kernels in
  // the trace show the device has matrix cores.
  const nlohmann::json generic = amd("AMD Radeon Graphics", 9, 0);
  CHECK(!rule(generic, {{valu, 80}, {kElementwise, 20}}).r);
  const Fired seen = rule(generic, {{mfma, 40}, {valu, 40}, {kElementwise, 20}});
  REQUIRE(seen.r);
  CHECK(seen.title() == "Some GEMMs do not use matrix cores (MFMA)");
  CHECK(!recommendation(details_of_file("hta/tests/data/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz"),
                        "no_tensor_cores"));

  // RDNA2 has no matrix units; RDNA3 has WMMA.
  CHECK(!rule(amd("AMD Radeon RX 6900 XT", 10, 3), {{valu, 80}, {kElementwise, 20}}).r);
  const Fired rdna3 = rule(amd("AMD Radeon RX 7900 XTX", 11, 0), {{valu, 80}, {kElementwise, 20}});
  REQUIRE(rdna3.r);
  CHECK(rdna3.title() == "GEMMs do not use matrix units (WMMA)");
}

TEST_CASE("no_tensor_cores: not on MTIA, Pascal or a device of no known vendor") {
  const nlohmann::json artemis = {{"id", 0}, {"name", "ARTEMIS"}, {"runtimeMajorVersion", 1}};
  CHECK(!rule(artemis, {{"batch_matmul-dtype_Float", 80}, {"add-dtype_Float", 20}}).r);
  CHECK(!rule(nvidia("Quadro GP100", 6, 0), {{"volta_sgemm_128x64_nn", 80}, {kElementwise, 20}}).r);
  CHECK(!rule(nlohmann::json(), {{"volta_sgemm_128x64_nn", 80}, {kElementwise, 20}}).r);
  CHECK(!rule({{"id", 0}, {"computeMajor", 8}, {"computeMinor", 0}}, {{"volta_sgemm_128x64_nn", 80}}).r);
  CHECK(!recommendation(details_of_file("hta/tests/data/mtia_inference_trace/mtia_inference_rank_0.json.gz"),
                        "no_tensor_cores"));
  CHECK(!recommendation(details_of_file("deepseek_profile_data/train.json"), "no_tensor_cores"));
}

}  // namespace tw
