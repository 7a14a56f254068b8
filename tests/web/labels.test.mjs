// Labels and column units of the dashboard (web/app/format.ts, bundled here with esbuild): key names
// become labels with their acronyms kept ("Launch CPU", not "Launch cpu"), the summary's identifiers
// become the words the legends use ("host wait"), and a column's one unit fits its largest value.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTs } from './load_ts.mjs';

const loadFormat = () => loadTs('web/app/format.ts');

test('labelOf keeps acronyms upper case and drops the unit', async () => {
  const { labelOf } = await loadFormat();
  const want = {
    gpu: 'GPU',
    gpu_ops: 'GPU ops',
    launch_cpu_ns: 'Launch CPU',
    launched_gpu_ns: 'Launched GPU',
    device_id: 'Device ID',
    hta_selection: 'HTA selection',
    nccl_ops: 'NCCL ops',
    total_mb: 'Total MB',
    kernel_wait_ns: 'Kernel wait',
    htod: 'HtoD',
    num_sms: 'Num SMs',
    sized_ops: 'Sized ops',
    peak_allocated_bytes: 'Peak allocated',
    idle_pct: 'Idle',
    algbw_gbps: 'Alg BW (GB/s)',
    worst_exposed: 'Longest exposed stretches',
    gpuish: 'Gpuish',
  };
  for (const [key, label] of Object.entries(want)) assert.equal(labelOf(key), label, key);
});

test('wordsOf: the same words in lower case but for acronyms (the second half of a nested label)', async () => {
  const { wordsOf } = await loadFormat();
  assert.equal(wordsOf('memory'), 'memory');
  assert.equal(wordsOf('gpu_ns'), 'GPU');
  assert.equal(wordsOf('cpu_exec'), 'CPU exec');
  assert.equal(wordsOf('dtoh'), 'DtoH');
  assert.equal(wordsOf('p50_ns'), 'p50');
});

test("valueLabel: the summary's identifiers as words, anything else untouched", async () => {
  const { valueLabel } = await loadFormat();
  assert.equal(valueLabel('host_wait'), 'host wait');
  assert.equal(valueLabel('kernel_wait'), 'kernel wait');
  assert.equal(valueLabel('gpu_memcpy'), 'GPU memcpy');
  assert.equal(valueLabel('device_synchronize'), 'device synchronize');
  assert.equal(valueLabel('other'), 'other');
  // Names from a trace are never rewritten.
  for (const name of [
    'aten::add_',
    'ProfilerStep#3',
    'void my_kernel<float>(float*)',
    'Memcpy HtoD (Pageable -> Device)',
    '_private_fn',
    'Foo_Bar',
  ])
    assert.equal(valueLabel(name), name);
  assert.equal(valueLabel(null), '–');
});

test('a column unit fits its largest value; cells are numbers without the unit', async () => {
  const { durationUnit, pctUnit, fmtInUnit } = await loadFormat();
  assert.deepEqual(durationUnit(111_200_000), { unit: 'ms', div: 1e6, digits: 1 });
  assert.deepEqual(durationUnit(2_500_000_000), { unit: 's', div: 1e9, digits: 2 });
  assert.deepEqual(durationUnit(999), { unit: 'ns', div: 1, digits: 0 });
  assert.equal(durationUnit(45_000).unit, 'µs');
  const ms = durationUnit(111_200_000);
  assert.equal(fmtInUnit(111_200_000, ms), '111.2');
  assert.equal(fmtInUnit(497_000, ms), '0.5');
  assert.equal(fmtInUnit(NaN, ms), '–');
  // Not zero, yet zero at the column's digits: said to be below the smallest step, never "0.0".
  assert.equal(fmtInUnit(3_000, ms), '<0.1');
  assert.equal(fmtInUnit(-3_000, ms), '>-0.1');
  assert.equal(fmtInUnit(0, ms), '0.0');
  const pct = pctUnit(77.8);
  assert.equal(pct.unit, '%');
  assert.equal(fmtInUnit(0.9, pct), '0.90');
});
