#include "core/analysis/matrix_kernels.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

namespace tw {

namespace {

// ---- Reading a name as words ----

struct Word {
  std::string text;  // lowercase
  bool qualifier;    // a namespace or enclosing class (followed by ::)
  bool first;        // the first word of its identifier
};

struct NameWords {
  std::string lower;  // the declarator (the whole name when mangled), lowercase
  std::vector<Word> words;
};

bool is_ident(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }
bool is_upper(char c) { return std::isupper(static_cast<unsigned char>(c)) != 0; }
bool is_lower(char c) { return std::islower(static_cast<unsigned char>(c)) != 0; }

// Splits an identifier at '_' and camelCase (typeConvert -> type convert, GEMMKernel -> gemm
// kernel, Conv2dWgrad -> conv2d wgrad), never between letters and digits (s1688gemm, MI16x16x1).
void split_words(std::string_view id, bool qualifier, std::vector<Word>& out) {
  std::string w;
  bool first = true;
  auto flush = [&] {
    if (w.empty()) return;
    out.push_back({std::move(w), qualifier, first});
    first = false;
    w.clear();
  };
  for (size_t i = 0; i < id.size(); ++i) {
    const char c = id[i];
    if (c == '_') {
      flush();
      continue;
    }
    if (i > 0 && is_upper(c)) {
      const char prev = id[i - 1];
      const bool next_lower = i + 1 < id.size() && is_lower(id[i + 1]);
      if (is_lower(prev) || is_digit(prev) || (is_upper(prev) && next_lower)) flush();
    }
    w += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  flush();
}

// Bracket matching that tolerates what C++ names hold: '>' inside parentheses is a comparison
// (enable_if<(8>0)>), and "->" closes nothing.
struct Brackets {
  std::vector<char> open;
  void step(char c) {
    switch (c) {
      case '<':
      case '(':
      case '{':
      case '[': open.push_back(c); break;
      case '>':
        if (!open.empty() && open.back() == '<') open.pop_back();
        break;
      case ')': close('('); break;
      case '}': close('{'); break;
      case ']': close('['); break;
      default: break;
    }
  }
  void close(char opener) {
    if (std::find(open.begin(), open.end(), opener) == open.end()) return;  // stray
    while (open.back() != opener) open.pop_back();
    open.pop_back();
  }
};

// The position after the bracket group that starts at s[i].
size_t group_end(std::string_view s, size_t i) {
  Brackets b;
  for (b.step(s[i++]); i < s.size() && !b.open.empty(); ++i) b.step(s[i]);
  return i;
}

// The kernel's own declarator: after the return type, before the parameter list.
std::string_view declarator(std::string_view s) {
  constexpr std::string_view kAnon = "(anonymous namespace)";
  Brackets b;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (b.open.empty() && c == ' ') start = i + 1;
    if (b.open.empty() && c == '(') {
      if (s.substr(i, kAnon.size()) == kAnon) {
        i += kAnon.size() - 1;
        continue;
      }
      const bool call_operator = i >= 8 && s.substr(i - 8, 8) == "operator" && i + 1 < s.size() && s[i + 1] == ')';
      if (!call_operator) return s.substr(start, i - start);
    }
    b.step(c);
  }
  return s.substr(start);
}

void demangled_words(std::string_view d, std::vector<Word>& out) {
  size_t i = 0;
  while (i < d.size()) {
    if (!is_ident(d[i])) {
      ++i;
      continue;
    }
    const size_t begin = i;
    while (i < d.size() && is_ident(d[i])) ++i;
    size_t j = i;  // a class template or a function can enclose too: A<T>::x, f(int)::{lambda()#1}
    if (j < d.size() && (d[j] == '<' || d[j] == '(')) j = group_end(d, j);
    split_words(d.substr(begin, i - begin), d.substr(j, 2) == "::", out);
  }
}

// Itanium-mangled names hold their identifiers as <length><chars>. Digits after 'S' / 'T' are
// substitution and template-parameter numbers (S1_, T0_), after 'L' and a type letter literal values
// (Li128E): not lengths.
void mangled_words(std::string_view s, std::vector<Word>& out) {
  size_t i = 2;  // after "_Z"
  while (i < s.size()) {
    if (!is_digit(s[i])) {
      ++i;
      continue;
    }
    const char before = s[i - 1];
    const bool numbered = before == 'S' || before == 'T';
    const bool literal = is_lower(before) && s[i - 2] == 'L';
    size_t n = 0;
    while (i < s.size() && is_digit(s[i]) && n <= s.size()) n = n * 10 + static_cast<size_t>(s[i++] - '0');
    if (numbered || literal || n == 0 || n > s.size() - i) continue;
    split_words(s.substr(i, n), false, out);
    i += n;
  }
}

NameWords read_name(std::string_view name) {
  NameWords r;
  const bool mangled = name.substr(0, 2) == "_Z";
  const std::string_view d = mangled ? name : declarator(name);
  r.lower.reserve(d.size());
  for (char c : d) r.lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (mangled) mangled_words(name, r.words);
  else demangled_words(d, r.words);
  return r;
}

// ---- Word tables ----

enum class How : uint8_t {
  kWord,      // the whole word
  kPrefix,    // starts the word, followed by nothing or a digit (hgmma64x128x16, gtcx3)
  kNumbered,  // starts the word, followed by a digit (tensor16x8x16)
  kInside,    // anywhere, followed by nothing or a digit (3dconv, deconv, conv2d, s1688dgrad)
  kContains,  // anywhere
  kEnds,      // ends a longer word (scudnn, h884cudnn)
};
struct WordRule {
  std::string_view text;
  How how;
};

bool rest_ok(std::string_view w, size_t end, bool need_digit) {
  return end == w.size() ? !need_digit : is_digit(w[end]);
}

bool matches(const WordRule& r, std::string_view w) {
  const std::string_view t = r.text;
  switch (r.how) {
    case How::kWord: return w == t;
    case How::kPrefix: return w.substr(0, t.size()) == t && rest_ok(w, t.size(), false);
    case How::kNumbered: return w.substr(0, t.size()) == t && rest_ok(w, t.size(), true);
    case How::kInside:
      for (size_t p = w.find(t); p != std::string_view::npos; p = w.find(t, p + 1))
        if (rest_ok(w, p + t.size(), false)) return true;
      return false;
    case How::kContains: return w.find(t) != std::string_view::npos;
    case How::kEnds: return w.size() > t.size() && w.substr(w.size() - t.size()) == t;
  }
  return false;
}

template <size_t N>
bool any_word(const WordRule (&rules)[N], std::string_view w) {
  return std::any_of(std::begin(rules), std::end(rules), [w](const WordRule& r) { return matches(r, w); });
}

template <size_t N>
bool any_mark(const std::string_view (&marks)[N], std::string_view lower) {
  return std::any_of(std::begin(marks), std::end(marks),
                     [lower](std::string_view m) { return lower.find(m) != std::string_view::npos; });
}

// Inductor's pointwise, reduction, persistent-reduction and foreach kernels: named after the ops
// they fused, never GEMMs themselves (matrix_kernels.h).
constexpr std::string_view kInductorNonGemmPrefixes[] = {"triton_poi_", "triton_red_", "triton_per_", "triton_for_"};
// Convolutions that use no matrix units in any precision: PyTorch's conv_depthwise2d / 3d kernels,
// cuDNN's conv2d_grouped_direct_kernel.
constexpr std::string_view kNeverMatrixMarks[] = {"depthwise", "grouped_direct"};
// Words that contain a GEMM word but name something else: Meta's FBGEMM library (fbgemm_gpu::
// embedding kernels), Google's Gemma models (vLLM / SGLang gemma_rms_norm kernels).
constexpr WordRule kNotGemmWords[] = {{"fbgemm", How::kPrefix}, {"gemma", How::kPrefix}};
// GEMMs: BLAS names (sgemm, hgemm, h884gemm, s1688gemm, gemmk1, gemmSN, implicit_gemm, MIOpen's
// igemm_*, CUTLASS's GemmKernel / GemmUniversal, CK's kernel_gemm_xdl_*), matmul (triton_kernels'
// matmul_ogs, MTIA's batch_matmul), the aten op names Inductor templates and MTIA kernels carry
// (triton_tem_fused_addmm_1, mm, bmm, baddbmm; TensorRT-LLM's bmm_E4m3_*), Tensile / hipBLASLt
// contractions (Cijk_Ailk_Bljk_...: C[i,j,k] = sum over l of A[i,l,k] B[l,j,k]), and the cuBLAS
// families that are GEMMs whatever their name says next (sm90_xmma_*, cuBLASLt's nvjet_*).
constexpr WordRule kGemmWords[] = {{"gemm", How::kContains}, {"matmul", How::kContains}, {"mm", How::kWord},
                                   {"bmm", How::kWord},      {"addmm", How::kWord},      {"baddbmm", How::kWord},
                                   {"addbmm", How::kWord},   {"cijk", How::kWord},       {"xmma", How::kPrefix},
                                   {"nvjet", How::kPrefix}};
// Convolutions: conv, conv2d, Conv3d, deconv (not convert or conversion), convolve, convolution, and
// cuDNN's SASS convolutions (volta_scudnn_128x64_relu_*, volta_h884cudnn_*, turing_fp16_s1688cudnn_*).
constexpr WordRule kConvWords[] = {{"conv", How::kInside},
                                   {"convolve", How::kWord},
                                   {"convolution", How::kWord},
                                   {"convolutions", How::kWord},
                                   {"cudnn", How::kEnds}};
// cuDNN's pass names, convolutions where they start the kernel's name (wgrad_alg0_engine,
// dgrad2d_alg1_1), follow an MMA shape (cutlass_tensorop_s1688dgrad_*) or come with a GEMM word
// (sm80_xmma_fprop_implicit_gemm_*); its helpers only mention them (cask_cudnn::
// computeWgradBOffsetsKernel, reduce_wgrad_nchw_helper, winogradWgradData4x4).
constexpr WordRule kConvPassWords[] = {{"dgrad", How::kPrefix}, {"wgrad", How::kPrefix}, {"fprop", How::kPrefix}};

// Number formats only matrix units compute: FP8 (Ada, Hopper, Blackwell, CDNA3), FP6 / FP4
// (Blackwell, CDNA4), as cuBLASLt, CUTLASS, TensorRT-LLM, DeepGEMM / DeepSeek and hipBLASLt names
// spell them (E4m3, e5m2, E2m1, Mxf8, mxfp4, nvfp4, fp8_ptp128c).
constexpr std::string_view kLowPrecisionMarks[] = {"e4m3", "e5m2", "e2m1", "e2m3", "e3m2", "mxf8", "mxf6",
                                                   "mxf4", "mxfp", "nvfp", "fp8",  "fp6",  "fp4",  "f8f6f4"};
// Operand types Triton's tl.dot always lowers to MMA / WGMMA / MFMA (FP32 only with TF32 allowed).
constexpr std::string_view kTritonDotMarks[] = {"bf16", "fp16", "f16", "e4m3", "e5m2", "fp8", "mxfp", "fp4"};

// NVIDIA, CUDA cores: names of FMA instructions and SIMT paths win over everything else: cuBLAS xmma
// kernels name their instruction (sm80_xmma_gemm_f32f32_f32f32_f32_..._ffma_... is FP32 FFMA),
// CUTLASS its SIMT path (cutlass_80_simt_sgemm_*, MmaSimt, CuTe's UniversalFMA atom).
constexpr WordRule kNvidiaCudaCoreWords[] = {
    {"ffma", How::kPrefix}, {"hfma", How::kPrefix}, {"dfma", How::kPrefix}, {"fma", How::kWord}, {"simt", How::kWord}};
// NVIDIA, tensor cores: the MMA instructions (HMMA, IMMA, DMMA, BMMA, WMMA; Hopper's HGMMA / IGMMA
// / QGMMA / WGMMA; Blackwell's UMMA / tcgen05) as xmma, CUTLASS and CuTe names spell them
// (hgmma64x128x16, SM90_64x128x16_..., MmaTensorOp, MainloopSm100TmaUmmaWarpSpecialized); xmma's
// tensor16x8x16 / sptensor16x8x32; and the cuBLAS families built only for tensor cores once FMA
// names are ruled out: xmma (sm80_xmma_*, sm90_xmma_*, sm100_xmma_*) and cuBLASLt's JIT kernels on
// Hopper / Blackwell (nvjet_tst_*, nvjet_hsh_*, nvjet_sm90_hss_*).
constexpr WordRule kNvidiaTensorWords[] = {
    {"mma", How::kPrefix},       {"hmma", How::kPrefix},  {"imma", How::kPrefix},    {"dmma", How::kPrefix},
    {"bmma", How::kPrefix},      {"wmma", How::kPrefix},  {"gmma", How::kPrefix},    {"hgmma", How::kPrefix},
    {"igmma", How::kPrefix},     {"qgmma", How::kPrefix}, {"wgmma", How::kPrefix},   {"umma", How::kPrefix},
    {"xmma", How::kPrefix},      {"nvjet", How::kPrefix}, {"tcgen05", How::kPrefix}, {"tensor", How::kNumbered},
    {"sptensor", How::kNumbered}};
// ...and CUTLASS's TensorOp anywhere (cutlass_80_tensorop_s1688gemm_*, OpClassTensorOp, also in
// mangled names).
constexpr std::string_view kNvidiaTensorMarks[] = {"tensorop"};
// cuBLAS / cuDNN / CUTLASS 2 SASS names spell the MMA shape after a type letter: volta_h884gemm,
// turing_fp16_s1688gemm, ampere_bf16_s16816gemm, ampere_fp32_s1684tf32gemm, ampere_int32_i16832gemm,
// cutlass_tensorop_d884gemm, cutlass_70_wmma_tensorop_f16_s161616gemm, volta_h884cudnn.
constexpr std::string_view kMmaShapes[] = {"884",   "1684",  "1688",   "8816",  "16816",
                                           "16832", "16864", "161616", "168256"};

// AMD, MFMA / WMMA: Composable Kernel's xdl ops (kernel_gemm_xdl_cshuffle_v3,
// DeviceGroupedConvFwdMultipleABD_Xdl_CShuffle), MIOpen's xdlops implicit GEMM
// (gridwise_convolution_implicit_gemm_v4r4_xdlops_*) and its assembly igemm in the gtcx flavours
// (igemm_fwd_gtcx3_nhwc_fp16_*; plain gtc is the FMA one), and mfma / wmma in CK, ck_tile and
// hand-written names (WarpGemmMfmaF16F16F32M32N32K8, kernel_gemm_wmma_cshuffle_v3).
constexpr WordRule kAmdMatrixWords[] = {{"xdl", How::kWord},
                                        {"xdlops", How::kWord},
                                        {"gtcx", How::kPrefix},
                                        {"wmma", How::kPrefix},
                                        {"mfma", How::kContains}};

size_t digits_end(std::string_view w, size_t i) {
  while (i < w.size() && is_digit(w[i])) ++i;
  return i;
}

// The length of the word's MMA shape prefix ("s1688" in s1688gemm), 0 when it has none.
size_t sass_mma_shape(std::string_view w) {
  const size_t b = !w.empty() && !is_digit(w[0]) ? 1 : 0;  // the type letter (h, s, i, d), if any
  const size_t e = digits_end(w, b);
  if (e == b || e == w.size()) return 0;
  const std::string_view shape = w.substr(b, e - b);
  return std::find(std::begin(kMmaShapes), std::end(kMmaShapes), shape) != std::end(kMmaShapes) ? e : 0;
}

// Architecture-specific builds (sm90a, sm100a, sm100f, sm120a): only the wgmma and tcgen05 tensor
// core instructions need them (TensorRT-LLM's trtllm-gen bmm_*_sm100a, CUTLASS 3 sm90a kernels).
bool arch_specific_build(std::string_view w) {
  if (w.substr(0, 2) != "sm") return false;
  const size_t e = digits_end(w, 2);
  if (e == 2 || e + 1 != w.size() || (w[e] != 'a' && w[e] != 'f')) return false;
  return e - 2 >= 3 || w[2] == '9';  // sm90a and up
}

// Tensile / hipBLASLt's MatrixInstruction, MI<M>x<N>x<K>[x<B>] (MI16x16x1, MI32x32x8x1; VALU
// kernels have none: Cijk_Ailk_Bljk_SB_MT64x64x8_SN_..._ISA1030_...).
bool tensile_matrix_instruction(std::string_view w) {
  if (w.substr(0, 2) != "mi") return false;
  size_t i = 2;
  for (int dim = 0; dim < 3; ++dim) {
    const size_t e = digits_end(w, i);
    if (e == i) return false;
    i = e;
    if (dim < 2) {
      if (i >= w.size() || w[i] != 'x') return false;
      ++i;
    }
  }
  return true;
}

bool nvidia_tensor_core(const NameWords& n) {
  if (any_mark(kNvidiaTensorMarks, n.lower)) return true;
  return std::any_of(n.words.begin(), n.words.end(), [](const Word& w) {
    return any_word(kNvidiaTensorWords, w.text) || sass_mma_shape(w.text) > 0 || arch_specific_build(w.text);
  });
}

bool amd_matrix_core(const NameWords& n) {
  return std::any_of(n.words.begin(), n.words.end(), [](const Word& w) {
    return any_word(kAmdMatrixWords, w.text) || tensile_matrix_instruction(w.text);
  });
}

MatrixOp op_of(std::string_view name, const NameWords& n) {
  for (std::string_view p : kInductorNonGemmPrefixes)
    if (name.substr(0, p.size()) == p) return MatrixOp::kNone;
  if (any_mark(kNeverMatrixMarks, n.lower)) return MatrixOp::kNone;
  bool gemm = false, conv = false, pass = false, pass_anywhere = false;
  for (const Word& w : n.words) {
    if (w.qualifier || any_word(kNotGemmWords, w.text)) continue;
    conv = conv || any_word(kConvWords, w.text);
    gemm = gemm || any_word(kGemmWords, w.text);
    const size_t shape = sass_mma_shape(w.text);
    const bool is_pass = any_word(kConvPassWords, std::string_view(w.text).substr(shape));
    pass = pass || (is_pass && (w.first || shape > 0));
    pass_anywhere = pass_anywhere || any_word(kConvPassWords, w.text);
  }
  return conv || pass || (gemm && pass_anywhere) ? MatrixOp::kConvolution : gemm ? MatrixOp::kGemm : MatrixOp::kNone;
}

MatrixUse use_of(std::string_view name, const NameWords& n, GpuVendor vendor) {
  if (name.substr(0, 11) == "triton_tem_" || n.lower.find("matmul_ogs") != std::string::npos)
    return any_mark(kTritonDotMarks, n.lower) ? MatrixUse::kYes : MatrixUse::kUnknown;
  const bool nvidia = vendor == GpuVendor::kNvidia || vendor == GpuVendor::kUnknown;
  const bool amd = vendor == GpuVendor::kAmd || vendor == GpuVendor::kUnknown;
  if (vendor == GpuVendor::kNvidia &&
      std::any_of(n.words.begin(), n.words.end(), [](const Word& w) { return any_word(kNvidiaCudaCoreWords, w.text); }))
    return MatrixUse::kNo;
  if (any_mark(kLowPrecisionMarks, n.lower)) return MatrixUse::kYes;
  if ((nvidia && nvidia_tensor_core(n)) || (amd && amd_matrix_core(n))) return MatrixUse::kYes;
  return MatrixUse::kNo;
}

}  // namespace

MatrixKernel matrix_kernel(std::string_view name, GpuVendor vendor) {
  const NameWords n = read_name(name);
  MatrixKernel k;
  k.op = op_of(name, n);
  k.use = use_of(name, n, vendor);
  return k;
}

}  // namespace tw
