// The Compare tab's pure parts (web/app/compare): the diff view model read from a hand-made
// tracewise.diff/1 document (./diff_sample.mjs), the sides' codec and their matching to the files
// opened for a link, and the clock offsets that align both runs at a step.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTs } from './load_ts.mjs';
import { sampleDiff } from './diff_sample.mjs';

const model = await loadTs('web/app/compare/diff_model.ts');
const doc = await loadTs('web/app/compare/diff_document.ts');
const sides = await loadTs('web/app/compare/compare_sides.ts');
const clock = await loadTs('web/app/compare/compare_clock.ts');

test('the sample is a diff document; other values are not', () => {
  assert.equal(doc.isDiffDocument(sampleDiff), true);
  assert.equal(doc.isDiffDocument({ ...sampleDiff, schema: 'tracewise.summary/1' }), false);
  assert.equal(doc.isDiffDocument({ ...sampleDiff, metrics: [1] }), false);
  assert.equal(doc.isDiffDocument(null), false);
});

test('headline rows: base, cand, delta, delta % or points, verdict and confidence', () => {
  const rows = model.headlineRows(sampleDiff);
  assert.deepEqual(
    rows.map((r) => r.id),
    ['step_time', 'gpu_idle', 'overlap', 'exposed_communication', 'class:computation']
  );
  const [step, idle, overlap, exposed, compute] = rows;
  assert.deepEqual(
    [step.base, step.cand, step.delta, step.relative, step.verdictText, step.tone, step.confidence],
    ['100.0 ms', '106.2 ms', '+6.20 ms', '+6.20 %', 'worse', 'bad', '> 99.9 % (p < 0.001)']
  );
  // A share moves in points; its relative change is not shown (1.1 points, not +34 %).
  assert.deepEqual(
    [idle.base, idle.cand, idle.delta, idle.relative, idle.verdictText, idle.tone, idle.confidence],
    ['3.20 %', '4.30 %', '+1.10 pts', '', 'no noise estimate', 'unknown', '']
  );
  assert.equal(overlap.delta, '0.00 pts');
  assert.equal(overlap.confidence, '39.0 % (p 0.610)');
  assert.deepEqual([exposed.base, exposed.delta, exposed.verdictText], ['—', '—', 'not comparable']);
  assert.deepEqual([compute.delta, compute.relative, compute.tone], ['-2.00 ms', '-3.33 %', 'good']);
});

test('breakdown bars: shares on 0–100, times on the largest value, missing as 0', () => {
  const { shares, classes } = model.breakdownBars(sampleDiff);
  assert.deepEqual(
    shares.map((b) => [b.id, b.base, b.cand, b.max]),
    [
      ['gpu_idle', 3.2, 4.3, 100],
      ['overlap', 20, 20, 100],
      ['exposed_communication', 0, 2, 100],
    ]
  );
  assert.equal(shares[2].baseText, '—');
  assert.deepEqual(
    classes.map((b) => [b.id, b.max]),
    [
      ['step_time', 106_200_000],
      ['class:computation', 106_200_000],
    ]
  );
});

test('top changes: by |delta|, added and removed always listed and marked', () => {
  const top = model.topChanges(sampleDiff.kernels, 3);
  assert.deepEqual(
    top.map((r) => [r.name, r.status]),
    [
      ['big_changed', 'changed'],
      ['gone_kernel', 'removed'],
      ['new_kernel<float>', 'added'],
      ['tiny_new', 'added'], // below the top 3, listed as added
    ]
  );
  const [big, gone, added] = top;
  assert.deepEqual([big.base, big.cand, big.delta, big.relative], ['10.00 ms', '14.00 ms', '+4.00 ms', '+40.0 %']);
  assert.deepEqual([gone.cand, gone.delta, gone.relative, gone.tone], ['—', '-3.00 ms', 'removed', 'good']);
  assert.deepEqual([added.base, added.relative, added.tone], ['—', 'added', 'bad']);
  const lists = model.changeLists(sampleDiff.kernels, 3);
  assert.deepEqual(
    lists.more.map((r) => r.name),
    ['tiny_new']
  );
  assert.equal(lists.top.length, 3);
  assert.equal(model.topChanges(null, 5).length, 0);
  assert.equal(model.tableCounts(sampleDiff.kernels, 'kernel'), '6 kernels: 2 added, 1 removed, 2 changed.');
});

test('verdict counts and the sides in words', () => {
  assert.equal(
    model.verdictCounts(sampleDiff),
    'Step metrics: 1 worse, 1 better, 1 unchanged, 1 no noise estimate, 1 not comparable.'
  );
  assert.equal(model.sideText(sampleDiff.cand), 'test.json.gz (1 file, 8 steps)');
  assert.equal(model.sideText(sampleDiff.base), 'control.json.gz (1 file, rank 3, 8 steps, NVIDIA A100 × 1)');
});

test('step histogram: shared bins, every sample counted once, medians', () => {
  const h = model.stepHistogram(sampleDiff.step_samples.base, sampleDiff.step_samples.cand, 10);
  assert.equal(h.edges.length, 11);
  assert.equal(h.edges[0], 98e6);
  assert.equal(h.edges[10], 108e6);
  assert.equal(
    h.base.reduce((a, b) => a + b),
    8
  );
  assert.equal(
    h.cand.reduce((a, b) => a + b),
    8
  );
  assert.equal(h.cand[9], 3); // 107, 107 and the largest, 108: the last bin is closed
  assert.equal(h.baseMedian, 100e6);
  assert.equal(h.candMedian, 106e6);
  assert.equal(model.stepHistogram([], []), null);
  const one = model.stepHistogram([5e6], [5e6], 4);
  assert.ok(one.edges[0] < 5e6 && one.edges[4] > 5e6);
});

test("a side's label: its file's name, several listed", () => {
  assert.equal(sides.sideLabel(['control.json.gz']), 'control.json.gz');
  assert.equal(sides.sideLabel(['r0.json', 'r1.json']), 'r0.json, r1.json');
  assert.equal(sides.sideLabel(['a', 'b', 'c', 'd', 'e']), 'a, b and 3 more');
});

test('the core answers an error instead of a diff: its sentence', () => {
  assert.equal(doc.diffError({ error: 'baseline is not JSON' }), 'baseline is not JSON');
  assert.equal(doc.diffError(sampleDiff), null);
  const opts = JSON.parse(doc.pageDiffOptions('a.json', 'b.json'));
  assert.deepEqual(opts, {
    fail_above_pct: null,
    metric: null,
    confidence_pct: 95,
    min_impact_pct: 0.5,
    base_label: 'a.json',
    cand_label: 'b.json',
  });
});

test('sides: one letter per file, both sides present', () => {
  assert.equal(sides.encodeSides(['base', 'base', 'cand']), 'bbc');
  assert.deepEqual(sides.decodeSides('bbc'), ['base', 'base', 'cand']);
  for (const bad of ['bb', 'c', '', 'bx', 'b'.repeat(70) + 'c', null]) assert.equal(sides.decodeSides(bad), null, bad);
  assert.equal(sides.encodeSides(['base']), null);
});

test("a link's sides follow its files' names, in whatever order they were dropped", () => {
  const linkSides = ['base', 'cand'];
  assert.deepEqual(sides.sidesForOpened(linkSides, ['a.json', 'b.json'], ['b.json', 'a.json']), ['cand', 'base']);
  // Names unknown (or other files): by position.
  assert.deepEqual(sides.sidesForOpened(linkSides, undefined, ['x', 'y']), ['base', 'cand']);
  assert.deepEqual(sides.sidesForOpened(linkSides, ['a.json', 'b.json'], ['x', 'a.json']), ['base', 'cand']);
  // The same name on both sides (two runs of train.json): each name used once.
  assert.deepEqual(sides.sidesForOpened(['base', 'cand'], ['t.json', 't.json'], ['t.json', 't.json']), [
    'base',
    'cand',
  ]);
  assert.equal(sides.sidesForOpened(linkSides, null, ['x']), null);
});

test('side documents: each side its files, in order; null while a side has none', () => {
  const f = (side, name) => ({ side, summary: { name }, schema: 'tracewise.summary/1' });
  const d = sides.sideDocuments([f('base', 'a'), f('cand', 'c'), f('base', 'b')]);
  assert.deepEqual(d.base, { schema: 'tracewise.summary/1', files: [{ name: 'a' }, { name: 'b' }] });
  assert.deepEqual(d.cand.files, [{ name: 'c' }]);
  assert.equal(sides.sideDocuments([f('base', 'a'), { side: 'cand', summary: null, schema: '' }]), null);
});

test('clock: every file moved so that the chosen step begins with the first baseline file', () => {
  const file = (side, rank, steps, first = 0) => ({
    side,
    name: `${side}${rank}.json`,
    rank,
    steps: steps.map(([number, begin_ns]) => ({ number, begin_ns })),
    firstTsNs: first,
  });
  const files = [
    file('base', 0, [
      [5, 1000],
      [6, 2000],
    ]),
    file('base', 1, [
      [5, 1100],
      [6, 2300],
    ]),
    file('cand', 0, [
      [6, 9000],
      [7, 9900],
    ]),
  ];
  assert.deepEqual(clock.commonSteps(files), [6]);
  assert.deepEqual(clock.stepOffsets(files, 6), [0, 300, 7000]);
  // A step a file lacks: its first step.
  assert.deepEqual(clock.stepOffsets(files, 5), [0, 100, 8000]);
  // No steps at all: the first events.
  assert.deepEqual(clock.stepOffsets([file('base', 0, [], 50), file('cand', 0, [], 80)], null), [0, 30]);
  assert.deepEqual(clock.groupLabels(files), ['baseline · rank 0', 'baseline · rank 1', 'candidate']);
});
