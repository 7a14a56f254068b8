// The Job view's pure parts (web/app/job): which file is which rank, the time ranges its clicks
// open, the per-rank bars' segments and scales, the duration axis and the heatmap's colour scale.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTs } from './load_ts.mjs';

const files = await loadTs('web/app/job/job_files.ts');
const bars = await loadTs('web/app/job/rank_bars_data.ts');
const axis = await loadTs('web/app/job/duration_axis.ts');
const heat = await loadTs('web/app/job/heat_scale.ts');
const words = await loadTs('web/app/job/job_words.ts');

const jobRank = (rank, file, extra = {}) => ({
  rank,
  label: rank === null ? file : `rank ${rank}`,
  file,
  aligned: true,
  clock_offset_ns: 0,
  clock_residual_ns: 0,
  collectives: 2,
  last_arrivals: 0,
  late_ns: 0,
  wait_ns: 0,
  transfer_ns: 0,
  step_ns: null,
  limiter: null,
  ...extra,
});

test('ranks are matched to files by rank number, else by name, each file once', () => {
  const ranks = [jobRank(0, 'a.json'), jobRank(1, 'b.json'), jobRank(null, 'c.json'), jobRank(7, 'gone.json')];
  // Opened in another order; c.json has no rank.
  const opened = [
    { rank: 1, name: 'b.json' },
    { rank: null, name: 'c.json' },
    { rank: 0, name: 'a.json' },
  ];
  assert.deepEqual(files.rankFiles(ranks, opened), [2, 0, 1, -1]);
  // Two files claim rank 0 (a job and a copy): the name decides.
  const twice = [
    { rank: 0, name: 'x/rank0.json' },
    { rank: 0, name: 'y/rank0.json' },
  ];
  assert.deepEqual(files.rankFiles([jobRank(0, 'y/rank0.json'), jobRank(0, 'x/rank0.json')], twice), [1, 0]);
});

test("a collective's range is on the clicked rank's clock; a rank that did not run it has none", () => {
  const job = {
    ranks: [jobRank(0, 'a', { clock_offset_ns: 0 }), jobRank(1, 'b', { clock_offset_ns: 3_700_000 })],
    collectives: { worst: [{ begin_ns: 1_000_000_000, end_ns: 1_000_600_000, waits_ns: [500_000, null] }] },
  };
  assert.deepEqual(files.collectiveRange(job, 0, 0), { t0: 1_000_000_000, t1: 1_000_600_000 });
  assert.equal(files.collectiveRange(job, 0, 1), null);
  job.collectives.worst[0].waits_ns[1] = 0;
  assert.deepEqual(files.collectiveRange(job, 0, 1), { t0: 1_003_700_000, t1: 1_004_300_000 });
  assert.equal(files.collectiveRange(job, 1, 0), null);
});

test('a step range comes from the steps, else the step breakdown', () => {
  const f = {
    steps: [{ number: 4, begin_ns: 10, end_ns: 20 }],
    step_breakdown: { steps: [{ number: 5, begin_ns: 20, end_ns: 35 }] },
  };
  assert.deepEqual(files.stepRange(f, 4), { t0: 10, t1: 20 });
  assert.deepEqual(files.stepRange(f, 5), { t0: 20, t1: 35 });
  assert.equal(files.stepRange(f, 6), null);
  assert.equal(files.stepRange(null, 4), null);
});

const categories = (k) => ({
  kernel: 30 * k,
  memcpy: 2 * k,
  memset: 1 * k,
  communication: 10 * k,
  runtime: 5 * k,
  dataloader: 0,
  cpu_exec: 50 * k,
  other: 2 * k,
});
const withSteps = (rank, k, count = 2) => ({
  rank,
  name: `rank-${rank}.json`,
  step_breakdown: { count, categories_ns: categories(k * count) },
  temporal: {
    span_ns: 1000,
    exposed: { computation_ns: 600, communication_ns: 100, memory_ns: 50, other_ns: 0, idle_ns: 250 },
  },
});

test('bars: the mean step split by category (memcpy and memset together), one scale, job order', () => {
  const summaries = [withSteps(1, 2), withSteps(0, 1)];
  const job = {
    ranks: [
      jobRank(0, 'rank-0.json', { wait_ns: 40, transfer_ns: 60 }),
      jobRank(1, 'rank-1.json', { wait_ns: 0, transfer_ns: 60 }),
    ],
    stragglers: [{ label: 'rank 1' }],
  };
  const b = bars.rankBars(summaries, job);
  assert.equal(b.basis, 'step');
  assert.deepEqual(
    b.rows.map((r) => [r.label, r.file, r.straggler]),
    [
      ['rank 0', 1, false],
      ['rank 1', 0, true],
    ]
  );
  assert.deepEqual(
    b.rows[0].segments.map((s) => [s.key, s.ns]),
    [
      ['kernel', 30],
      ['memory', 3],
      ['communication', 10],
      ['runtime', 5],
      ['dataloader', 0],
      ['cpu_exec', 50],
      ['other', 2],
    ]
  );
  assert.equal(b.rows[0].total_ns, 100);
  assert.equal(b.rows[1].total_ns, 200);
  assert.equal(b.max_ns, 200);
  assert.deepEqual([b.rows[0].wait_ns, b.rows[0].transfer_ns], [40, 60]);
  assert.equal(b.max_comm_ns, 100);
  assert.equal(bars.basisParts('step').length, 7);
});

test('bars: the GPU span when not every rank has steps; no job: the files in order, no waits', () => {
  const noSteps = { ...withSteps(1, 1), step_breakdown: null };
  const b = bars.rankBars([withSteps(0, 1), noSteps], null);
  assert.equal(b.basis, 'gpu_span');
  assert.deepEqual(
    b.rows.map((r) => [r.label, r.total_ns, r.wait_ns]),
    [
      ['rank 0', 1000],
      ['rank 1', 1000],
    ].map(([l, t]) => [l, t, null])
  );
  assert.deepEqual(
    b.rows[0].segments.map((s) => s.ns),
    [600, 100, 50, 0, 250]
  );
  assert.equal(b.max_comm_ns, 0);
  // Neither basis for every rank: no segments at all rather than two scales.
  const bare = bars.rankBars(
    [withSteps(0, 1), { rank: 1, name: 'cpu.json', step_breakdown: null, temporal: null }],
    null
  );
  assert.equal(bare.basis, null);
  assert.ok(bare.rows.every((r) => r.segments.length === 0));
});

test('duration axis: round steps, one unit, ends at or past the maximum', () => {
  const a = axis.durationAxis(225_868_446);
  assert.deepEqual(a.ticks, [0, 50e6, 100e6, 150e6, 200e6, 250e6]);
  assert.equal(a.unit.unit, 'ms');
  assert.equal(a.unit.digits, 0);
  assert.equal(a.end_ns, 250e6);
  const b = axis.durationAxis(2_400_000, 5); // 0.5 ms steps
  assert.deepEqual(b.ticks, [0, 0.5e6, 1e6, 1.5e6, 2e6, 2.5e6]);
  assert.equal(b.unit.unit, 'ms');
  assert.equal(b.unit.digits, 1);
  const c = axis.durationAxis(57_376_493, 3);
  assert.deepEqual(c.ticks, [0, 20e6, 40e6, 60e6]);
  const exact = axis.durationAxis(100, 5);
  assert.deepEqual(exact.ticks, [0, 20, 40, 60, 80, 100]);
  assert.equal(exact.unit.unit, 'ns');
  assert.deepEqual(axis.durationAxis(0).ticks, [0, 1]); // nothing to show: a unit axis, not NaN
});

test('heat scale: 0 is the lightest, the maximum the darkest, linear in between, clamped', () => {
  assert.equal(heat.heatLevel(0, 500), 0);
  assert.equal(heat.heatLevel(250, 500), 0.5);
  assert.equal(heat.heatLevel(500, 500), 1);
  assert.equal(heat.heatLevel(900, 500), 1);
  assert.equal(heat.heatLevel(100, 0), 0); // a map without waits
  assert.equal(heat.heatColor(0), 'rgb(255, 247, 236)');
  assert.equal(heat.heatColor(1), 'rgb(127, 0, 0)');
  assert.equal(heat.heatColor(0.5), 'rgb(252, 141, 89)');
  assert.equal(heat.heatColor(-1), heat.heatColor(0));
  assert.equal(heat.heatColor(NaN), heat.heatColor(0));
  // Darker all the way: the sum of the channels falls with the level.
  const sum = (t) =>
    heat
      .heatColor(t)
      .match(/\d+/g)
      .reduce((a, v) => a + Number(v), 0);
  for (let t = 0.05; t <= 1; t += 0.05) assert.ok(sum(t) < sum(t - 0.05), `darker at ${t}`);
  assert.equal(heat.heatInk(0), 'dark');
  assert.equal(heat.heatInk(1), 'light');
  assert.match(heat.heatGradient(), /^linear-gradient\(to right, rgb\(255, 247, 236\), .*rgb\(127, 0, 0\)\)$/);
});

test('the job in words: counts, mismatches, metric values', () => {
  const c = { instances: 21, matched: 19, mismatched: 2, partial: 0 };
  assert.match(
    words.countsLine(c),
    /^21 collective instances across the ranks: 19 matched .*, 2 mismatched, 0 partial/
  );
  assert.match(words.countsLine({ ...c, instances: 1 }), /^1 collective instance across/);
  const m = { group: '0', op: 'broadcast', step: 5, n: 1, by_seq: false, problem: 'missing on rank 1' };
  assert.equal(words.mismatchText(m), 'broadcast #1 of group 0, step 5: missing on rank 1');
  assert.equal(
    words.mismatchText({ ...m, group: '', step: null }),
    'broadcast #1 of group (unnamed): missing on rank 1'
  );
  assert.equal(words.metricValue('arrival_late_ns', 500_000), '500.0 µs');
  assert.equal(words.metricValue('group_busbw_mbps', 6558), '6.6 GB/s');
});
