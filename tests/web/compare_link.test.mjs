// Links of Compare mode (web/share): the view state carries each file's side (`cmp=`) and the step
// the timelines are aligned at (`step=`); a summary link carries the sides and the diff, trimmed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTs } from './load_ts.mjs';
import { sampleDiff } from './diff_sample.mjs';

const vs = await loadTs('web/share/view_state.ts');
const link = await loadTs('web/share/summary_link.ts');

const roundTrip = (state) => vs.readViewState(vs.writeViewState(state));

test('cmp= and step= round-trip with the tab, files and timeline', () => {
  const state = {
    tab: 'compare',
    tl: { t0: 0, t1: 5, aligned: true },
    files: [
      { name: 'control.json.gz', bytes: 10 },
      { name: 'test.json.gz', bytes: 20 },
    ],
    compare: ['base', 'cand'],
    step: 1009,
  };
  const params = vs.writeViewState(state);
  assert.equal(params.get('cmp'), 'bc');
  assert.equal(params.get('step'), '1009');
  assert.equal(params.get('tab'), 'compare');
  const back = vs.readViewState(params);
  assert.deepEqual(back.problems, []);
  assert.deepEqual(back.state, state);
  assert.equal(vs.isEmptyViewState({ compare: ['base', 'cand'] }), false);
});

test('a step without sides is not written; bad cmp= and step= are reported and dropped', () => {
  assert.equal(vs.writeViewState({ step: 3 }).has('step'), false);
  assert.equal(vs.writeViewState({ compare: ['base', 'base'], step: 3 }).has('cmp'), false);
  const { state, problems } = vs.readViewState(new URLSearchParams('cmp=bx&step=-1&tab=compare'));
  assert.deepEqual(problems, ['cmp', 'step']);
  assert.deepEqual(state, { tab: 'compare' });
  assert.deepEqual(roundTrip({ compare: ['cand', 'base', 'base'] }).state, { compare: ['cand', 'base', 'base'] });
});

const summaries = {
  schema: 'tracewise.summary/1',
  files: [
    { name: 'control.json.gz', verdict: { sentence: 'GPU-bound.' } },
    { name: 'test.json.gz', verdict: { sentence: 'GPU-bound.' } },
  ],
};

test('a summary link of a comparison carries the sides and the diff', async () => {
  const enc = await link.encodeSummaryLink(summaries, [null, null], 8000, {
    sides: ['base', 'cand'],
    diff: sampleDiff,
  });
  const back = await link.decodeSummaryLink(enc.value);
  assert.deepEqual(back.compare.sides, ['base', 'cand']);
  assert.equal(back.compare.diff.schema, 'tracewise.diff/1');
  assert.equal(back.compare.diff.verdict.sentence, sampleDiff.verdict.sentence);
  assert.deepEqual(
    back.compare.diff.kernels.rows.map((r) => r.name),
    sampleDiff.kernels.rows.map((r) => r.name)
  );
  assert.deepEqual(back.compare.diff.step_samples, sampleDiff.step_samples);
  // Without a comparison: no `compare`.
  const plain = await link.decodeSummaryLink((await link.encodeSummaryLink(summaries, [null, null])).value);
  assert.equal(plain.compare, undefined);
});

test("a summary link's sides that do not fit its files are dropped", async () => {
  const enc = await link.encodeSummaryLink(summaries, [null, null], 8000, {
    sides: ['base', 'cand', 'cand'],
    diff: sampleDiff,
  });
  assert.equal((await link.decodeSummaryLink(enc.value)).compare, undefined);
});

test('a large diff is trimmed to the link: the first kernels kept, in order', async () => {
  const rows = Array.from({ length: 200 }, (_, i) => ({
    ...sampleDiff.kernels.rows[1],
    id: `kernel:k${i}`,
    name: `some_rather_long_kernel_name_${i}_${'x'.repeat(40)}`,
  }));
  const big = { ...sampleDiff, kernels: { ...sampleDiff.kernels, rows } };
  const enc = await link.encodeSummaryLink(summaries, [null, null], 8000, { sides: ['base', 'cand'], diff: big });
  assert.ok(enc.value.length <= 8000, String(enc.value.length));
  const back = await link.decodeSummaryLink(enc.value);
  const names = back.compare.diff.kernels.rows.map((r) => r.name);
  assert.ok(names.length > 0 && names.length < 200);
  assert.deepEqual(
    names,
    rows.slice(0, names.length).map((r) => r.name)
  );
});
