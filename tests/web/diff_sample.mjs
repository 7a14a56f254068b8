// A hand-made `tracewise.diff/1` document (docs/diff-schema.md) for the Compare tab's unit tests:
// a step time that got worse, shares with and without a noise estimate, a kernel class, kernels
// changed, added and removed, one operator, and both sides' step samples.
const metric = (id, label, unit, base, cand, verdict, extra = {}) => ({
  id,
  label,
  unit,
  gate: unit === 'pct' ? 'points' : 'relative',
  worse: 'up',
  base,
  cand,
  delta: base === null || cand === null ? null : cand - base,
  delta_pct: base ? ((cand - base) / Math.abs(base)) * 100 : null,
  samples: { base: 8, cand: 8 },
  test: null,
  verdict,
  gated: true,
  beyond_gate: false,
  ...extra,
});

const test = (shift, p) => ({
  shift,
  ci_low: shift * 0.5,
  ci_high: shift * 1.5,
  p_value: p,
  confidence_pct: 100 * (1 - p),
  exact: true,
});
const stats = (count, total) => ({ count, total_ns: total, mean_ns: total / count, share_pct: 10 });
const row = (kind, name, base, cand, status, verdict) => ({
  ...metric(`${kind}:${name}`, name, 'ns', base, cand, verdict),
  delta: (cand ?? 0) - (base ?? 0),
  delta_pct: base ? (((cand ?? 0) - base) / base) * 100 : null,
  name,
  status,
  variants: { base: base === null ? 0 : 1, cand: cand === null ? 0 : 1 },
  base_stats: base === null ? null : stats(10, base * 10),
  cand_stats: cand === null ? null : stats(10, cand * 10),
});

export const sampleDiff = {
  schema: 'tracewise.diff/1',
  base: {
    label: 'control.json.gz',
    files: 1,
    ranks: [3],
    steps: 8,
    per_step: true,
    devices: ['NVIDIA A100 × 1'],
    mode: 'default',
    names_complete: true,
  },
  cand: {
    label: 'test.json.gz',
    files: 1,
    ranks: [null],
    steps: 8,
    per_step: true,
    devices: [],
    mode: 'default',
    names_complete: true,
  },
  options: { fail_above_pct: null, metric: null, confidence_pct: 95, min_impact_pct: 0.5 },
  verdict: {
    regression: false,
    beyond_gate: [],
    sentence: 'Step time +6.2 % (worse, 95 % confidence); <b>no gate</b>.',
  },
  metrics: [
    metric('step_time', 'Step time', 'ns', 100_000_000, 106_200_000, 'worse', { test: test(6_000_000, 0.0004) }),
    metric('gpu_idle', 'GPU idle', 'pct', 3.2, 4.3, 'no_noise_estimate'),
    metric('overlap', 'Overlap', 'pct', 20, 20, 'unchanged', { worse: 'down', test: test(0, 0.61) }),
    metric('exposed_communication', 'Exposed communication', 'pct', null, 2, 'not_comparable'),
    metric('class:computation', 'Computation', 'ns', 60_000_000, 58_000_000, 'better', { test: test(-2e6, 0.01) }),
  ],
  kernels: {
    rows: [
      row('kernel', 'small_changed', 1_000, 1_500, 'changed', 'worse'),
      row('kernel', 'big_changed', 10_000_000, 14_000_000, 'changed', 'worse'),
      row('kernel', 'new_kernel<float>', null, 2_000_000, 'added', 'added'),
      row('kernel', 'gone_kernel', 3_000_000, null, 'removed', 'removed'),
      row('kernel', 'tiny_new', null, 10, 'added', 'added'),
      row('kernel', 'same', 500, 500, 'same', 'unchanged'),
    ],
    total: 6,
    added: 2,
    removed: 1,
    changed: 2,
  },
  operators: {
    rows: [row('operator', 'aten::mm', 5_000_000, 5_500_000, 'changed', 'worse')],
    total: 1,
    added: 0,
    removed: 0,
    changed: 1,
  },
  streams: [],
  step_samples: {
    base: [100e6, 101e6, 99e6, 100e6, 102e6, 98e6, 100e6, 100e6],
    cand: [106e6, 107e6, 105e6, 106e6, 108e6, 104e6, 106e6, 107e6],
  },
  notes: ['A note <script>alert(1)</script> from the core.'],
};
