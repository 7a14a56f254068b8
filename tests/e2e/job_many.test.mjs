// Many ranks opened together (issue #39): twelve ranks crafted from a real one (tw_craft_job: HTA's
// sampled_rank-0, rank 3 late by 500 us at every collective) opened at once under a small memory
// budget (`?memory=64`, web/load/page/memory.ts), so that most models are released once their summary
// and rank record are kept. Every file becomes ready, the job is the CLI's, the loading strip sums the
// files up in one line, fewer trace workers than files stay alive; the Timeline tab's aligned view of
// every rank opens the released ones again (each once), a rank alone shows its own timeline, and the
// HTA-compatible switch gives the CLI's summaries and job.
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

test('the HTA-compatible switch opens released models again, in turn: files and job are the CLI --hta-compat ones', async () => {
  // Each file's summary and the job as the core wrote them (the document's own key order differs).
  const shows = (doc) =>
    s.page.waitForFunction(
      (w) => {
        const got = window.__tracewise.summary;
        return JSON.stringify({ files: got?.files, job: got?.job }) === w;
      },
      JSON.stringify({ files: doc.files, job: doc.job }),
      { timeout: 60_000, polling: 200 }
    );
  await s.page.click('[data-tab="overview"]');
  await s.page.check('#hta-compat');
  await shows(cliSummary(files, { htaCompat: true }));
  assert.ok((await s.page.evaluate(() => window.__opens.length)) > kRanks); // released models, opened again
  assert.ok(traceWorkers() < kRanks / 2, `${traceWorkers()} trace workers alive for ${kRanks} files`);
  await s.page.uncheck('#hta-compat');
  await shows(cliSummary(files));
  assert.deepEqual(s.pageErrors, []);
});

test('the Timeline tab (every rank, aligned) opens each released rank again, once', async () => {
  const opened = await s.page.evaluate(() => window.__opens.length);
  const kept = traceWorkers(); // the models held (and the page's spare)
  await s.page.click('[data-tab="timeline"]');
  await s.page.waitForFunction(() => document.querySelector('.tl-view[data-view="aligned"]:not([hidden])'));
  await idle(s.page);
  assert.ok((await s.page.evaluate(() => window.__tracewise.timeline.drawnItems)) > 0);
  const names = await s.page.evaluate(() => window.__opens.map((o) => o.name));
  // Each rank opened again at most once, and every rank not kept (all but a few) was.
  const again = names.slice(opened);
  assert.equal(new Set(again).size, again.length);
  assert.ok(again.length >= kRanks - kept, `${again.length} opened again, ${kept} workers kept`);
  assert.ok(!again.includes('rank-0.json')); // the first file's model is never released
  assert.ok(traceWorkers() >= kRanks, `${traceWorkers()} trace workers for the aligned view`);
  assert.equal(await s.page.evaluate(() => window.__tracewise.ready), true);
  assert.equal(await s.page.locator('#loads .load-row.status-reopening').count(), 0);
});

test('a rank picked alone shows its own timeline', async () => {
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
});
