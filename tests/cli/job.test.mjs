// `tracewise summarize DIR` and `tracewise info DIR` on a job crafted from a real rank
// (tw_craft_job, tests/core/job_craft.h): four ranks of HTA's nccl_data.json with known clock
// offsets and a 500 us delay before every collective on rank 2.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dataPath } from '../test_data.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const cli = join(root, 'build/native/tracewise');
const craft = join(root, 'build/native/tw_craft_job');
const dir = mkdtempSync(join(tmpdir(), 'tw-job-'));
const offsets = [0, 3700000, -1200000, 250000];
const made = spawnSync(craft, [
  dataPath('hta/tests/data/nccl_parser_config/nccl_data.json.gz'),
  dir,
  '4',
  ...offsets.flatMap((o, r) => ['--offset', `${r}:${o}`]),
  '--delay',
  '2:500000',
]);
assert.equal(made.status, 0, String(made.stderr));

const run = (...args) => spawnSync(cli, args, { encoding: 'utf8', maxBuffer: 1 << 28 });

test('summarize DIR: every trace of the folder, and the job analysis finds the late rank', () => {
  const r = run('summarize', dir);
  assert.equal(r.status, 0, r.stderr);
  const doc = JSON.parse(r.stdout);
  assert.equal(doc.files.length, 4);
  const job = doc.job;
  assert.equal(job.rank_count, 4);
  assert.deepEqual(
    job.ranks.map((x) => x.rank),
    [0, 1, 2, 3]
  );
  job.ranks.forEach((x, i) => assert.ok(Math.abs(x.clock_offset_ns - offsets[i]) <= 1000, `${x.label} offset`));
  const late = job.stragglers.filter((s) => s.metric === 'arrival_late_ns');
  assert.deepEqual(
    late.map((s) => s.label),
    ['rank 2']
  );
  assert.ok(Math.abs(late[0].value - 500000) <= 1000);
  assert.equal(job.collectives.mismatched, 0);
  assert.equal(job.collectives.matched, 21);
  for (const w of job.collectives.worst) assert.ok(Math.abs(w.skew_ns - 500000) <= 1000);
  // The same document as the files named one by one.
  const files = readdirSync(dir)
    .sort()
    .map((f) => join(dir, f));
  assert.equal(run('summarize', ...files).stdout, r.stdout);
});

test('info DIR prints the job in words', () => {
  const r = run('info', dir);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /clocks: +aligned on the ends of matched collectives/);
  assert.match(r.stdout, /straggler: +rank 2 arrives last at 21 of 21 collectives, on average 500\.0 us after/);
  assert.match(r.stdout, /collectives: 21 instances, 21 matched, 0 mismatched/);
  // The job's sentence names the rank the others wait for, not the slowest step (they are all equal).
  assert.match(
    r.stdout,
    /job: .*mean steps agree within 1\.0%.* Rank 2 holds the others back: it arrives last at 21 of 21/
  );
});
