// Many ranks opened together (issue #39): twelve ranks crafted from a real one (tw_craft_job: HTA's
// sampled_rank-0, rank 3 late by 500 us at every collective) opened at once under a small memory
// budget (`?memory=64`, web/load/page/memory.ts), so that most models are released once their summary
// and rank record are kept. Every file becomes ready, the job is the CLI's, the loading strip sums the
// files up in one line, fewer trace workers than files stay alive, and the timeline of a released rank
// opens its file again on demand.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, cliSummary, openViaInput, start, trace } from './helpers.mjs';
import { idle } from './timeline_helpers.mjs';

const kRanks = 12;
const dir = mkdtempSync(join(tmpdir(), 'tw-job-many-'));
const made = spawnSync(join(ROOT, 'build/native/tw_craft_job'), [
  trace('hta/tests/data/trace_filter/sampled_rank-0.json.gz'),
  dir,
  String(kRanks),
  '--delay',
  '3:500000',
]);
assert.equal(made.status, 0, String(made.stderr));
const files = Array.from({ length: kRanks }, (_, r) => join(dir, `rank-${r}.json`));

let s;
before(async () => {
  s = await start({ recordReplies: true });
  await s.page.goto(`${s.url}?memory=64`);
});
after(async () => {
  await s?.close();
  rmSync(dir, { recursive: true, force: true });
});

// The page's trace workers alive now (each file's, a spare; not their feed or part workers).
const traceWorkers = () => s.page.workers().filter((w) => w.url().endsWith('/worker.js')).length;

test('twelve ranks under a small memory budget: all ready, the job computed, models released', async () => {
  const { summary, error } = await openViaInput(s.page, files);
  assert.equal(error, null);
  assert.equal(summary.files.length, kRanks);
  const cli = cliSummary(files);
  assert.deepEqual(summary.job, cli.job); // the same summaries and rank records went into it
  assert.equal(summary.job.rank_count, kRanks);
  assert.deepEqual(
    summary.job.stragglers.map((x) => x.label),
    ['rank 3']
  );
  assert.ok(traceWorkers() < kRanks / 2, `${traceWorkers()} trace workers alive for ${kRanks} files`);

  // The loading strip: one line for all of them, every file's row folded under it.
  assert.match(await s.page.textContent('#loads .load-summary'), new RegExp(`${kRanks} of ${kRanks} loaded`));
  assert.equal(await s.page.textContent('#loads .load-details > summary'), `All ${kRanks} files`);
  assert.equal(await s.page.locator('#loads .load-details .load-row.status-ready').count(), kRanks);
  assert.equal(await s.page.isVisible('#loads .load-details .load-row'), false); // folded
});

test('the timeline of a released rank opens its file again', async () => {
  const opens = () => s.page.evaluate(() => window.__opens.length);
  assert.equal(await opens(), kRanks);
  await s.page.click('[data-tab="timeline"]');
  await idle(s.page);
  // Rank 1: loaded early and never shown, so among the first released (rank 0 is kept: shown first).
  const key = await s.page.$eval(
    '.file-pick',
    (sel) => [...sel.options].find((o) => /rank-1\.json$/.test(o.text)).value
  );
  await s.page.selectOption('.file-pick', key);
  await s.page.waitForFunction(() => document.querySelector('.tl-view[data-file="rank-1.json"]:not([hidden])'));
  await idle(s.page);
  const tl = await s.page.evaluate(() => ({
    drawn: window.__tracewise.timeline.drawnItems,
    groups: window.__tracewise.timeline.groupCount,
  }));
  assert.ok(tl.drawn > 0 && tl.groups > 0, JSON.stringify(tl));
  assert.equal(await opens(), kRanks + 1); // rank 1's file, opened again
  assert.equal(await s.page.evaluate(() => window.__opens.at(-1).name), 'rank-1.json');
  assert.equal(await s.page.evaluate(() => window.__tracewise.ready), true);
  assert.equal(await s.page.locator('#loads .load-row.status-reopening').count(), 0);
});
