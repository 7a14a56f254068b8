// `tracewise diff BASE CAND` (docs/diff-schema.md) on real traces: HTA's trace-diff pair, a trace
// against itself, a candidate with one kernel 20 % slower in every step and runs with step jitter
// (tw_craft_diff, tests/core/diff_craft.h), summary JSON inputs, folders of ranks, and bad usage.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dataPath } from '../test_data.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const cli = join(root, 'build/native/tracewise');
const craftDiff = join(root, 'build/native/tw_craft_diff');
const craftJob = join(root, 'build/native/tw_craft_job');
const tmp = mkdtempSync(join(tmpdir(), 'tw-diff-'));
const run = (...args) => spawnSync(cli, args, { encoding: 'utf8', maxBuffer: 1 << 28 });
const json = (r) => JSON.parse(r.stdout);

const control = dataPath('hta/tests/data/trace_diff/control/control.json.gz');
const treatment = dataPath('hta/tests/data/trace_diff/test/test.json.gz');
// V100, one stream, 6 profiler steps; dgrad_engine is its longest kernel (tests/core/diff_craft_test.cc).
const resnet = dataPath('kineto/tb_plugin/samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz');

function craft(out, ...args) {
  const r = spawnSync(craftDiff, [resnet, out, ...args], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return out;
}

test("HTA's trace-diff pair: another GPU, new kernels, a slower step", () => {
  const r = run('diff', control, treatment);
  assert.equal(r.status, 0, r.stderr); // no gate: report only
  const d = json(r);
  assert.equal(d.schema, 'tracewise.diff/1');
  assert.equal(d.base.label, 'control.json.gz');
  assert.equal(d.base.steps, 6);
  assert.equal(d.cand.steps, 6);
  assert.ok(d.notes.some((n) => /different GPUs/.test(n)));
  const step = d.metrics.find((m) => m.id === 'step_time');
  assert.equal(step.verdict, 'worse');
  assert.ok(step.delta_pct > 50);
  const added = d.kernels.rows.filter((k) => k.status === 'added').map((k) => k.name);
  const removed = d.kernels.rows.filter((k) => k.status === 'removed').map((k) => k.name);
  assert.ok(
    added.some((n) => n.startsWith('volta_sgemm')),
    added.join()
  );
  assert.ok(
    removed.some((n) => n.startsWith('ampere_')),
    removed.join()
  );
  assert.equal(d.kernels.added, added.length);
  // The rows are the largest changes first.
  const sizes = d.kernels.rows.map((k) => Math.abs(k.delta));
  assert.deepEqual(
    sizes,
    [...sizes].sort((a, b) => b - a)
  );
  assert.equal(run('diff', control, treatment, '--fail-above', '5').status, 3);
});

test("HTA's trace-compare pair: the operators HTA finds added", () => {
  const d = json(
    run(
      'diff',
      dataPath('hta/tests/data/trace_compare/base/base.json.gz'),
      dataPath('hta/tests/data/trace_compare/test/test.json.gz')
    )
  );
  const added = d.operators.rows.filter((o) => o.status === 'added').map((o) => o.name);
  assert.deepEqual(added.sort(), ['AddmmBackward0', 'All2All_Pooled_Req', 'CatBackward0']);
  assert.equal(d.metrics[0].verdict, 'no_noise_estimate'); // two steps a side
});

test('a trace against itself: no differences, exit 0 under any gate', () => {
  const r = run('diff', control, control, '--fail-above', '0');
  assert.equal(r.status, 0, r.stderr);
  const d = json(r);
  assert.equal(d.verdict.regression, false);
  for (const m of d.metrics) assert.equal(m.delta, 0, m.id);
  for (const t of [d.kernels, d.operators]) {
    assert.equal(t.changed + t.added + t.removed, 0);
    assert.ok(t.rows.every((r) => r.status === 'same' && r.delta === 0));
  }
  assert.deepEqual(d.step_samples.base, d.step_samples.cand);
});

test('one kernel 20 % slower in every step: that kernel first, exit 3 at --fail-above 5', () => {
  const slow = craft(join(tmp, 'slow.json'), '--slow-kernel', 'dgrad_engine', '--factor', '1.2');
  const r = run('diff', resnet, slow, '--fail-above', '5');
  assert.equal(r.status, 3, r.stderr);
  const d = json(r);
  const first = d.kernels.rows[0];
  assert.equal(first.name, 'cudnn::detail::dgrad_engine');
  assert.equal(first.verdict, 'worse');
  assert.ok(first.beyond_gate);
  assert.ok(Math.abs(first.delta_pct - 20) < 0.1, String(first.delta_pct));
  assert.equal(d.verdict.beyond_gate[0], 'kernel:cudnn::detail::dgrad_engine');
  assert.match(d.verdict.sentence, /^Regression beyond the 5 % gate: kernel cudnn::detail::dgrad_engine \+20\.0 %/);
  // Gating the step time alone: +1.5 % is under the gate.
  assert.equal(run('diff', resnet, slow, '--fail-above', '5', '--metric', 'step_time').status, 0);
  assert.equal(run('diff', resnet, slow, '--fail-above', '5', '--metric', first.id).status, 3);
  const md = run('diff', resnet, slow, '--fail-above', '5', '--format', 'markdown');
  assert.equal(md.status, 3);
  assert.match(md.stdout, /^## tracewise diff\n\n\*\*❌ Regression beyond the 5 % gate/);
  assert.match(md.stdout, /\| `cudnn::detail::dgrad_engine` \| 13\.5 ms \| 16\.2 ms \|/);
  assert.doesNotMatch(md.stdout, /https?:|\]\(/); // links nowhere
});

test('two runs with step jitter and no real change: no regression at 5 %', () => {
  const a = craft(join(tmp, 'jitter-a.json'), '--jitter', '3', '--seed', '7');
  const b = craft(join(tmp, 'jitter-b.json'), '--jitter', '3', '--seed', '8');
  const r = run('diff', a, b, '--fail-above', '5');
  assert.equal(r.status, 0, json(r).verdict.sentence);
  const step = json(r).metrics.find((m) => m.id === 'step_time');
  assert.ok(Math.abs(step.delta_pct) < 3, String(step.delta_pct));
});

test('summary JSON inputs give the same diff as the traces they came from', () => {
  for (const [i, path] of [control, treatment].entries()) {
    const dir = join(tmp, `summary-${i}`);
    mkdirSync(dir, { recursive: true });
    const s = run('summarize', path);
    assert.equal(s.status, 0, s.stderr);
    writeFileSync(join(dir, basename(path)), s.stdout); // same name, so the same label
  }
  const fromTraces = run('diff', control, treatment, '--fail-above', '5');
  const fromSummaries = run(
    'diff',
    join(tmp, 'summary-0', basename(control)),
    join(tmp, 'summary-1', basename(treatment)),
    '--fail-above',
    '5'
  );
  assert.equal(fromSummaries.status, 3, fromSummaries.stderr);
  assert.equal(fromSummaries.stdout, fromTraces.stdout);
  // A summary against its own trace: no change.
  assert.equal(json(run('diff', join(tmp, 'summary-0', basename(control)), control)).kernels.changed, 0);
});

test('folders of rank traces compare as jobs', () => {
  const dir = join(tmp, 'job');
  mkdirSync(dir);
  const made = spawnSync(craftJob, [dataPath('hta/tests/data/nccl_parser_config/nccl_data.json.gz'), dir, '2']);
  assert.equal(made.status, 0, String(made.stderr));
  const r = run('diff', dir, dir, '--fail-above', '5');
  assert.equal(r.status, 0, r.stderr);
  const d = json(r);
  assert.equal(d.base.files, 2);
  assert.deepEqual(d.base.ranks, [0, 1]);
  assert.equal(d.base.label, 'job');
});

test('usage and unreadable input', () => {
  assert.equal(run('diff', control).status, 2);
  assert.equal(run('diff', control, control, '--format', 'html').status, 2);
  assert.equal(run('diff', control, control, '--fail-above', 'much').status, 2);
  const bad = run('diff', control, control, '--metric', 'kernel:no such kernel');
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--metric kernel:no such kernel is not a metric/);
  assert.equal(run('diff', control, join(tmp, 'missing.json')).status, 1);
  const notSummary = join(tmp, 'not-summary.json');
  writeFileSync(notSummary, '{"files": 3}');
  const r = run('diff', notSummary, control);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /not a tracewise summary/);
});
