// `tracewise summarize --digest FILE` and `tracewise merge [--digest] DIGEST...` (core/summary/digest.h):
// per-rank digests of a crafted 4-rank job merge into the bytes `tracewise summarize DIR` writes,
// directly and through a tree of partial merges; digests stay small; malformed digests, digests of
// another version and of other options are refused with a sentence.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dataPath } from '../test_data.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const cli = join(root, 'build/native/tracewise');
const craft = join(root, 'build/native/tw_craft_job');
const run = (...args) => spawnSync(cli, args, { encoding: 'utf8', maxBuffer: 1 << 28 });
const tmp = mkdtempSync(join(tmpdir(), 'tw-merge-'));
const job = join(tmp, 'job');
mkdirSync(job);
const made = spawnSync(craft, [
  dataPath('hta/tests/data/nccl_parser_config/nccl_data.json.gz'),
  job,
  '4',
  '--offset',
  '1:3000000',
  '--delay',
  '2:500000',
]);
assert.equal(made.status, 0, String(made.stderr));
const ranks = [0, 1, 2, 3].map((r) => join(job, `rank-${r}.json`));

function digest(path, ...opts) {
  const r = run('summarize', '--digest', ...opts, path);
  assert.equal(r.status, 0, r.stderr);
  const out = `${path}.digest`;
  writeFileSync(out, r.stdout);
  return out;
}
const digests = ranks.map((p) => digest(p));

test('merging every rank digest gives the bytes of summarize over the traces', () => {
  const whole = run('summarize', job);
  assert.equal(whole.status, 0, whole.stderr);
  const merged = run('merge', ...digests);
  assert.equal(merged.status, 0, merged.stderr);
  assert.equal(merged.stdout, whole.stdout);
  assert.ok(JSON.parse(merged.stdout).job.stragglers.length > 0); // the job analysis ran on the records
  for (const d of digests) assert.ok(statSync(d).size < statSync(ranks[0]).size / 20);
});

test('merging is associative: a tree of partial merges gives the same bytes', () => {
  const part = (name, ...ds) => {
    const r = run('merge', '--digest', ...ds);
    assert.equal(r.status, 0, r.stderr);
    writeFileSync(join(tmp, name), r.stdout);
    return join(tmp, name);
  };
  const left = part('left.digest', digests[0], digests[1]);
  const right = part('right.digest', digests[2], digests[3]);
  const oneMore = part('deep.digest', part('abc.digest', left, digests[2]), digests[3]);
  const whole = run('summarize', job).stdout;
  assert.equal(run('merge', left, right).stdout, whole);
  assert.equal(run('merge', oneMore).stdout, whole);
  assert.equal(readFileSync(oneMore, 'utf8'), run('merge', '--digest', ...digests).stdout);
  // One rank alone: its own summary, as summarize FILE writes it.
  assert.equal(run('merge', digests[0]).stdout, run('summarize', ranks[0]).stdout);
});

test('malformed digests, other versions and other options are refused with a sentence', () => {
  const bad = (name, text) => {
    writeFileSync(join(tmp, name), text);
    return join(tmp, name);
  };
  const doc = JSON.parse(readFileSync(digests[0], 'utf8'));
  const cases = [
    [bad('notjson.digest', '{"schema": "tracewise.dig'), /not a tracewise digest/],
    [bad('summary.digest', run('summarize', ranks[0]).stdout), /not a tracewise digest/],
    [bad('old.digest', JSON.stringify({ ...doc, tracewise: '0.0.1' })), /a digest of tracewise 0\.0\.1, this is /],
    [bad('short.digest', JSON.stringify({ ...doc, records: [] })), /malformed digest/],
    [bad('record.digest', JSON.stringify({ ...doc, records: [{ schema: 'x' }] })), /malformed digest/],
    [bad('deep.digest', '['.repeat(100000)), /not a tracewise digest/],
  ];
  for (const [path, message] of cases) {
    const r = run('merge', digests[1], path);
    assert.equal(r.status, 1, path);
    assert.match(r.stderr, message);
  }
  const hta = digest(ranks[1], '--hta-compat');
  const mixed = run('merge', digests[0], hta);
  assert.equal(mixed.status, 1);
  assert.match(mixed.stderr, /different options/);
  assert.equal(run('merge').status, 2);
  assert.equal(run('summarize', '--digest', ranks[0], ranks[1]).status, 2);
  assert.equal(run('info', '--digest', ranks[0]).status, 2);
});
