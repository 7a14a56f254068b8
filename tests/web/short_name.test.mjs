// Slice labels (web/timeline/short_name.ts, bundled with esbuild): demangled kernel signatures are
// shortened to their qualified name; a wrapper template keeps the kernel it wraps; other names stay.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadTs } from './load_ts.mjs';

let m;
before(async () => {
  m = await loadTs('web/timeline/short_name.ts');
});

test('kernel signatures (DeepSeek, PyTorch, CUTLASS) become their qualified names', () => {
  const cases = [
    [
      'void dpsk::ep::internode::combine<false, 8, __nv_bfloat16, 8, 2, 16, 24>(int4*, float*, bool const*, int4 const*)',
      'dpsk::ep::internode::combine',
    ],
    [
      'void dpsk::ep::internode::cached_notify<false>(int, int, int, int, int*, int)',
      'dpsk::ep::internode::cached_notify',
    ],
    [
      'void cutlass::device_kernel<dpsk::grouped_gemm::cuda::fp8_ptp128c::GemmKernel>(dpsk::grouped_gemm::cuda::fp8_ptp128c::GemmKernel::Params)',
      'cutlass::device_kernel<dpsk::grouped_gemm::cuda::fp8_ptp128c::GemmKernel>',
    ],
    [
      'void cutlass::device_kernel<flash::FlashAttnBwd<flash::CollectiveMainloopBwd<2, cute::tuple<cute::C<1> >, 64>, cute::C<128> > >(flash::Params)',
      'cutlass::device_kernel<flash::FlashAttnBwd>',
    ],
    [
      'void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, at::detail::Array<char*, 1>)',
      'at::native::vectorized_elementwise_kernel<at::native::FillFunctor>',
    ],
    [
      'void (anonymous namespace)::softmax_warp_forward<float, float, float, 10>(float*, float const*, int)',
      '{anonymous}::softmax_warp_forward',
    ],
    ['ampere_sgemm_128x64_nn', 'ampere_sgemm_128x64_nn'],
    [
      'ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)',
      'ncclDevKernel_AllReduce_Sum_f32_RING_LL',
    ],
    ['aten::mm', 'aten::mm'],
    ['ProfilerStep#3', 'ProfilerStep#3'],
    ['Memcpy DtoH (Device -> Pageable)', 'Memcpy DtoH (Device -> Pageable)'],
    ['cudaLaunchKernel', 'cudaLaunchKernel'],
    ['a < b', 'a < b'], // not a signature: unbalanced template brackets
    ['', ''],
  ];
  for (const [full, short] of cases) assert.equal(m.shortKernelName(full), short, full);
  assert.equal(m.sliceLabel(cases[0][0]), cases[0][1]);
});
