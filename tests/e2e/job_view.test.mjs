// The Job view (web/app/job) on jobs crafted from one real rank (tw_craft_job: four ranks of HTA's
// nccl_data.json with known clock offsets and a 500 µs delay before every collective on rank 2):
// it comes first, names rank 2 the straggler with its evidence, draws one bar per rank, a rank ×
// collective heatmap whose cells open that collective on every rank (the aligned timeline), the collectives
// table and the mismatches; a dropped folder opens every trace inside it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, start, openViaInput, waitSettled, cliSummary, trace } from './helpers.mjs';
import { idle } from './timeline_helpers.mjs';

const NCCL = trace('hta/tests/data/nccl_parser_config/nccl_data.json.gz');
const OFFSETS = [0, 3_700_000, -1_200_000, 250_000];
const tmp = mkdtempSync(join(tmpdir(), 'tw-e2e-job-'));

// extra: more tw_craft_job options; delay: rank 2's delay before each collective (ns, 0: none).
function craft(name, extra = [], delay = 500_000) {
  const dir = join(tmp, name);
  mkdirSync(dir);
  const args = [NCCL, dir, '4', ...OFFSETS.flatMap((o, r) => ['--offset', `${r}:${o}`])];
  if (delay) args.push('--delay', `2:${delay}`);
  const made = spawnSync(join(ROOT, 'build/native/tw_craft_job'), [...args, ...extra], { encoding: 'utf8' });
  assert.equal(made.status, 0, made.stderr);
  return readdirSync(dir)
    .sort()
    .map((f) => join(dir, f));
}

let s, job, dropped, even;
before(async () => {
  job = craft('job');
  dropped = craft('dropped', ['--drop', '1:7']);
  even = craft('even', [], 0);
  s = await start();
});
after(async () => {
  await s?.close();
  rmSync(tmp, { recursive: true, force: true });
});

const texts = (sel) => s.page.$$eval(sel, (els) => els.map((e) => e.textContent));

test('the Job view comes first: the straggler, one bar per rank, the heatmap, the tables', async () => {
  const { summary, error } = await openViaInput(s.page, job);
  assert.equal(error, null);
  assert.deepEqual(summary, cliSummary(job));
  assert.equal(await s.page.getAttribute('[data-tab="job"]', 'aria-selected'), 'true');
  assert.equal(await s.page.isVisible('#job [data-section="job-bars"]'), true);
  assert.equal(await s.page.isVisible('#overview'), false);

  // One bar per rank, on one scale: the value shown is each rank's mean step.
  const bars = await s.page.$$eval('[data-section="job-bars"] .jb-row[data-rank]', (els) =>
    els.map((e) => ({ label: e.dataset.label, raw: Number(e.querySelector('.jb-value').dataset.raw) }))
  );
  assert.deepEqual(
    bars.map((b) => b.label),
    ['rank 0', 'rank 1', 'rank 2', 'rank 3']
  );
  for (const [i, b] of bars.entries()) {
    const sb = summary.files[i].step_breakdown;
    assert.ok(Math.abs(b.raw - sb.total_ns / sb.count) < 1, `${b.label}: ${b.raw}`);
  }
  // The others wait for rank 2; rank 2 waits for no one.
  const waits = await s.page.$$eval('[data-section="job-bars"] .jb-comm-value', (els) =>
    els.map((e) => Number(e.dataset.wait))
  );
  assert.deepEqual(
    waits,
    summary.job.ranks.map((r) => r.wait_ns)
  );
  assert.equal(waits[2], 0);

  // The straggler, in the core's words, with its steps.
  const callouts = await s.page.$$('[data-section="stragglers"] .straggler-callout');
  assert.equal(callouts.length, 1);
  assert.equal(await callouts[0].getAttribute('data-rank'), '2');
  assert.match(await callouts[0].textContent(), /rank 2/);
  assert.match(await texts('.straggler-reason').then((t) => t[0]), /arrives last at 21 of 21/);
  assert.match(await callouts[0].$eval('.cause', (e) => e.textContent), /host/);
  assert.deepEqual(
    await texts('.straggler-callout .step-link'),
    summary.job.stragglers[0].steps.map((st) => `step ${st.number}`)
  );

  // The heatmap: 4 ranks × 21 collectives, rank 2 arrived last at each.
  const cells = await s.page.$$eval('[data-section="job-heatmap"] .hm-cell[data-rank]', (els) =>
    els.map((e) => ({ rank: Number(e.dataset.rank), col: Number(e.dataset.col), last: e.dataset.last === 'true' }))
  );
  assert.equal(cells.length, 4 * 21);
  assert.deepEqual([...new Set(cells.map((c) => c.rank))], [0, 1, 2, 3]);
  assert.equal(new Set(cells.map((c) => c.col)).size, 21);
  assert.deepEqual(
    cells.filter((c) => c.last).map((c) => c.rank),
    Array(21).fill(2)
  );
  assert.equal(await s.page.isVisible('[data-section="job-heatmap"] .hm-legend'), true);
  // Hover: the collective, and this rank's wait in it.
  const w = summary.job.collectives.worst[5];
  await s.page.hover('[data-section="job-heatmap"] .hm-cell[data-rank="0"][data-col="5"]');
  await s.page.waitForSelector('[data-section="job-heatmap"] .hm-tip', { state: 'visible' });
  const tip = await s.page.$$eval('.hm-tip .hm-tip-row', (rows) =>
    Object.fromEntries(rows.map((r) => [r.children[0].textContent, r.children[1].textContent]))
  );
  assert.equal(await s.page.textContent('.hm-tip .hm-tip-title'), `${w.op} #${w.n}`);
  assert.deepEqual(tip, {
    group: '0',
    step: String(w.step),
    'rank 0 waited': '500.0 µs',
    'arrival skew': '500.0 µs',
    transfer: tip.transfer,
    size: tip.size,
    'last to arrive': 'rank 2',
  });
  assert.match(tip.transfer, /^\d+(\.\d+)? (µs|ms)$/);
  assert.match(tip.size, /^\d+(\.\d+)? (B|KB|MB)$/);

  // The collectives table, and the counts above it.
  const rows = await s.page.$$eval('[data-table="job.collectives.by_op_group"] tbody tr', (trs) =>
    trs.map((tr) => [...tr.children].slice(0, 3).map((td) => td.textContent))
  );
  assert.deepEqual(rows, [
    ['allreduce', '0', '15'],
    ['broadcast', '0', '6'],
  ]);
  assert.match(
    await s.page.textContent('.job-counts'),
    /^21 collective instances across the ranks: 21 matched .*, 0 mismatched, 0 partial/
  );
  assert.equal(await s.page.$$eval('.mismatches li', (els) => els.length), 0);

  // The ranks table has the job's columns: rank 1's clock is 3.7 ms ahead.
  const heads = await texts('[data-section="ranks"] th');
  for (const want of ['Late arrival', 'Arrived last', 'Wait', 'Transfer', 'Clock offset', '± residual'])
    assert.ok(
      heads.some((t) => t.startsWith(want)),
      `${want} in ${heads.join(', ')}`
    );
  const col = heads.findIndex((t) => t.startsWith('Clock offset'));
  const offset = await s.page.$eval(
    `[data-section="ranks"] tbody tr:nth-child(2) td:nth-child(${col + 1})`,
    (td) => td.dataset.raw
  );
  assert.ok(Math.abs(Number(offset) - OFFSETS[1]) <= 1000, offset);
  assert.deepEqual(s.pageErrors, []);
});

// Waits until the timeline shows `file`'s view ('aligned': the all-rank view), idle, covering
// [t0, t1] (absolute ns of that file; of the reference rank for the aligned view).
async function timelineShows(file, t0, t1) {
  await s.page.waitForFunction(
    (name) =>
      name === 'aligned'
        ? window.__tracewise.timelineHost?.shown() === 'aligned'
        : document.querySelector('#timeline .tl-view:not([hidden])')?.dataset.file === name,
    file,
    { timeout: 20_000, polling: 50 }
  );
  await idle(s.page);
  await s.page.waitForFunction(
    ([t0, t1]) => {
      const tl = window.__tracewise.timeline;
      if (!tl?.ready || !tl.idle() || tl.originNs === null) return false;
      const o = Number(tl.originNs);
      const r = tl.visibleRange();
      return r.t0 <= t0 - o + 1 && r.t1 >= t1 - o - 1 && r.t1 - r.t0 < 4 * (t1 - t0);
    },
    [t0, t1],
    { timeout: 20_000, polling: 50 }
  );
  assert.equal(await s.page.getAttribute('[data-tab="timeline"]', 'aria-selected'), 'true');
}

test('a heatmap cell opens that collective on every rank: the aligned timeline, on the reference clock', async () => {
  const { summary } = await openViaInput(s.page, job);
  const j = summary.job;
  // Rank 1 (its clock 3.7 ms ahead of rank 0's), the fourth collective.
  const w = j.collectives.worst[3];
  await s.page.click('[data-section="job-heatmap"] .hm-cell[data-rank="1"][data-col="3"]');
  await timelineShows('aligned', w.begin_ns, w.end_ns);
  // Each rank's kernel of that collective is in view: the window is on the reference clock, where
  // they all end together.
  const { items, origin, range } = await s.page.evaluate(() => ({
    items: window.__tracewise.timeline.items('ncclKernel'),
    origin: window.__tracewise.timeline.originNs,
    range: window.__tracewise.timeline.visibleRange(),
  }));
  const end = Number(BigInt(w.end_ns) - BigInt(origin));
  const ending = items.filter((it) => !it.merged && Math.abs(it.start + it.dur - end) <= 1000);
  assert.equal(new Set(ending.map((it) => it.group)).size, 4, 'a kernel of it ends there on each of the 4 ranks');
  assert.ok(range.t0 <= end && end <= range.t1);
});

test("a straggler's step opens that step in the straggler's timeline", async () => {
  const { summary } = await openViaInput(s.page, job);
  const step = summary.job.stragglers[0].steps[0].number;
  const st = summary.files[2].steps.find((x) => x.number === step);
  await s.page.click(`.straggler-callout .step-link[data-step="${step}"]`);
  await timelineShows('rank-2.json', st.begin_ns, st.end_ns);
});

test('no straggler: said, with the rule that was checked', async () => {
  const { summary } = await openViaInput(s.page, even);
  assert.deepEqual(summary.job.stragglers, []);
  const rule = summary.job.straggler_rule;
  const text = await s.page.textContent('[data-section="stragglers"] .no-straggler');
  assert.match(text, /^No straggler\. Checked:/);
  assert.match(text, new RegExp(`more than ${rule.k} × 1\\.4826 × MAD .*at least 5\\.00 µs`));
  assert.match(text, /arrives last \(by more than 1\.00 µs\) at 75\.0 % or more of its collectives/);
  assert.equal(await s.page.$$eval('.straggler-callout', (els) => els.length), 0);
  assert.equal(await s.page.$$eval('.hm-cell[data-last]', (els) => els.length), 0);
});

test('a dropped collective is a mismatch, in words', async () => {
  const { summary, error } = await openViaInput(s.page, dropped);
  assert.equal(error, null);
  assert.ok(summary.job.collectives.mismatched > 0);
  const items = await texts('[data-section="job-collectives"] .mismatches li');
  assert.ok(
    items.some((t) => /missing on rank 1$/.test(t)),
    items.join('\n')
  );
  assert.match(await s.page.textContent('.job-counts'), /19 matched .*, 2 mismatched/);
});

// A real drop of a folder, through the DevTools protocol: a synthetic DragEvent cannot carry one.
async function dropFolder(path) {
  const cdp = await s.context.newCDPSession(s.page);
  const data = { items: [], files: [path], dragOperationsMask: 1 };
  for (const type of ['dragEnter', 'dragOver', 'drop'])
    await cdp.send('Input.dispatchDragEvent', { type, x: 400, y: 400, data });
  await cdp.detach();
}

test('a dropped folder opens every trace inside it, and the Job view first', async () => {
  // A folder without traces: said on the drop card.
  const none = join(tmp, 'none');
  mkdirSync(none);
  writeFileSync(join(none, 'notes.txt'), 'no trace here');
  await dropFolder(none);
  await s.page.waitForSelector('.drop-card .drop-note', { state: 'attached' });
  assert.match(await s.page.textContent('.drop-note'), /holds no \.json or \.json\.gz file/);

  await s.page.evaluate(() => {
    window.__tracewise.ready = false;
  });
  await dropFolder(join(tmp, 'job'));
  const { summary, error } = await waitSettled(s.page);
  assert.equal(error, null);
  assert.deepEqual(
    summary.files.map((f) => f.name),
    ['job/rank-0.json', 'job/rank-1.json', 'job/rank-2.json', 'job/rank-3.json']
  );
  assert.equal(await s.page.getAttribute('[data-tab="job"]', 'aria-selected'), 'true');
  assert.equal(await s.page.getAttribute('.straggler-callout', 'data-rank'), '2');
});

test('saved summaries without the job analysis: the view says so and shows what it can', async () => {
  const paths = job.slice(0, 2).map((p, i) => {
    const out = join(tmp, `saved-${i}.json`);
    writeFileSync(out, JSON.stringify(cliSummary([p])) + '\n');
    return out;
  });
  const { error } = await openViaInput(s.page, paths);
  assert.equal(error, null);
  assert.equal(await s.page.getAttribute('[data-tab="job"]', 'aria-selected'), 'true');
  assert.match(await s.page.textContent('[data-section="job-status"]'), /saved without the job analysis/);
  assert.equal(await s.page.$$eval('[data-section="job-bars"] .jb-row[data-rank]', (els) => els.length), 2);
  assert.equal(await s.page.$('[data-section="job-heatmap"]'), null);
  assert.equal(await s.page.$('[data-section="stragglers"]'), null);
});

test('a job summary merged from per-rank digests opens as the read-only Job view', async () => {
  const cli = join(ROOT, 'build/native/tracewise');
  const digests = job.map((p) => {
    const r = spawnSync(cli, ['summarize', '--digest', p], { encoding: 'utf8', maxBuffer: 1 << 28 });
    assert.equal(r.status, 0, r.stderr);
    writeFileSync(`${p}.digest`, r.stdout);
    return `${p}.digest`;
  });
  const merged = spawnSync(cli, ['merge', ...digests], { encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.equal(merged.status, 0, merged.stderr);
  const out = join(tmp, 'merged-job.json');
  writeFileSync(out, merged.stdout);
  const { summary, error } = await openViaInput(s.page, [out]);
  assert.equal(error, null);
  assert.equal(summary.files.length, 4);
  assert.equal(await s.page.getAttribute('[data-tab="job"]', 'aria-selected'), 'true');
  assert.equal(await s.page.getAttribute('.straggler-callout', 'data-rank'), '2');
  assert.equal(await s.page.$$eval('[data-section="job-bars"] .jb-row[data-rank]', (els) => els.length), 4);
  assert.ok(await s.page.$('[data-section="job-heatmap"]'));
});

test('one trace: no Job tab', async () => {
  await openViaInput(s.page, [job[0]]);
  assert.equal(await s.page.isVisible('[data-tab="job"]'), false);
  assert.equal(await s.page.getAttribute('[data-tab="overview"]', 'aria-selected'), 'true');
});
