// `tracewise flame FILE` prints collapsed stacks (flamegraph.pl / inferno / speedscope input) of the
// CPU call tree: CPU self time, or with --measure gpu the GPU time each frame launched. On DeepSeek's
// training trace: the GPU stacks carry the micro-batch annotations, and sum to the summary's GPU time
// attributed to its annotations' common root.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dataPath } from '../test_data.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const cli = join(root, 'build/native/tracewise');
const run = (...args) => spawnSync(cli, args, { encoding: 'utf8', maxBuffer: 1 << 28 });
const train = dataPath('deepseek_profile_data/train.json');

function parse(text) {
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const sp = line.lastIndexOf(' ');
      return { frames: line.slice(0, sp).split(';'), value: Number(line.slice(sp + 1)) };
    });
}

test('collapsed stacks: one line per stack, integer ns, the thread first', () => {
  const r = run('flame', train);
  assert.equal(r.status, 0, r.stderr);
  const lines = parse(r.stdout);
  assert.ok(lines.length > 100);
  for (const l of lines) {
    assert.ok(Number.isInteger(l.value) && l.value > 0, JSON.stringify(l));
    assert.ok(l.frames.length >= 2);
  }
  const paths = lines.map((l) => l.frames.join(';'));
  assert.equal(new Set(paths).size, paths.length, 'each stack once');
  assert.ok(lines.some((l) => l.frames.includes('attn(F)') && l.frames.includes('1F1B')));
});

test('--measure gpu: GPU time under each annotation, whole names kept', () => {
  const lines = parse(run('flame', '--measure', 'gpu', train).stdout);
  const under = (name) => lines.filter((l) => l.frames.includes(name)).reduce((s, l) => s + l.value, 0);
  const doc = JSON.parse(run('summarize', train).stdout);
  const rows = new Map(doc.files[0].annotations.rows.map((a) => [a.name, a]));
  // attn(F) launches on its own thread: the stacks under it carry exactly its attributed time.
  assert.equal(under('attn(F)'), rows.get('attn(F)').gpu_ns);
  assert.ok(under('attn(F)') > 0);
  assert.notEqual(under('attn(F)'), under('attn(B)')); // not merged as "attn"
});

test('--from/--to: a range, and usage errors', () => {
  const all = parse(run('flame', train).stdout).reduce((s, l) => s + l.value, 0);
  const doc = JSON.parse(run('summarize', train).stdout);
  const step = doc.files[0].steps[0];
  const r = run('flame', '--from', String(step.begin_ns), '--to', String(step.end_ns), train);
  assert.equal(r.status, 0, r.stderr);
  const part = parse(r.stdout).reduce((s, l) => s + l.value, 0);
  assert.ok(part > 0 && part < all, `${part} of ${all}`);
  assert.equal(run('flame', '--measure', 'wall', train).status, 2);
  assert.equal(run('flame', '--from', '5', train).status, 2);
  assert.equal(run('flame', '--from', '9', '--to', '5', train).status, 2);
  assert.equal(run('flame', join(root, 'README.md')).status, 1);
});
