// Compare mode (web/app/compare) on HTA's trace-diff pair: control.json.gz as the baseline and
// test.json.gz as the candidate, opened through the "Compare…" strip. The Compare tab shows the
// core's diff (the same document as `tracewise diff`), its headline and verdicts, and the kernels
// that were added or removed; the Timeline tab stacks both runs in one view (one zoom), aligned at
// the start of the picked step; the address bar's link reopens the comparison; Copy Markdown gives
// the core's Markdown (`tracewise diff --format markdown`), byte for byte.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, start, waitSettled, trace } from './helpers.mjs';
import { idle } from './timeline_helpers.mjs';

const BASE = trace('hta/tests/data/trace_diff/control/control.json.gz');
const CAND = trace('hta/tests/data/trace_diff/test/test.json.gz');

// `tracewise diff` exits 0 (no gate given): its output.
const cliDiff = (format) =>
  execFileSync(CLI, ['diff', BASE, CAND, '--format', format], { maxBuffer: 1 << 28 }).toString();

let s;
before(async () => {
  s = await start();
});
after(async () => {
  await s?.close();
});

async function openCompare(page) {
  await page.click('#compare-open');
  await page.setInputFiles('#compare-base-input', [BASE]);
  await page.setInputFiles('#compare-cand-input', [CAND]);
  await page.evaluate(() => {
    window.__tracewise.ready = false;
  });
  await page.click('#compare-go');
  const r = await waitSettled(page, 90_000);
  assert.equal(r.error, null);
  return r;
}

const tl = (f) => s.page.evaluate(f);

test('the Compare tab: the core diff, its headline and verdicts, kernels added and removed', async () => {
  await openCompare(s.page);
  const page = s.page;
  assert.equal(await page.getAttribute('[data-tab="compare"]', 'aria-selected'), 'true');
  assert.equal(await page.isVisible('#job-tab'), false, 'two runs are not the ranks of a job');
  const hook = await page.evaluate(() => window.__tracewise.compare);
  assert.deepEqual(hook.sides, ['base', 'cand']);
  assert.equal(hook.state, 'ready');
  // The page's diff is the CLI's.
  assert.deepEqual(hook.diff, JSON.parse(cliDiff('json')));
  const diff = hook.diff;

  // The headline: the core's sentence, and one row per step metric with its verdict.
  assert.equal((await page.textContent('#compare .cmp-sentence')).trim(), diff.verdict.sentence);
  const rows = await page.$$eval('#compare [data-section="compare-metrics"] tbody tr', (els) =>
    els.map((e) => ({ id: e.dataset.metric, verdict: e.dataset.verdict, cells: e.children.length }))
  );
  assert.deepEqual(
    rows.map((r) => [r.id, r.verdict]),
    diff.metrics.map((m) => [m.id, m.verdict])
  );
  assert.ok(rows.some((r) => r.id === 'step_time'));
  assert.ok(rows.every((r) => r.cells === 7));

  // Kernels: every added and removed one the document lists is a marked row (the top changes, then
  // the other added and removed ones, folded).
  const kernels = await page.$$eval('#compare [data-table^="kernels"] tbody tr', (els) =>
    els.map((e) => ({ status: e.dataset.status, name: e.querySelector('.cmp-name-text').textContent }))
  );
  const marked = (status) => diff.kernels.rows.filter((r) => r.status === status).map((r) => r.name);
  assert.ok(marked('added').length + marked('removed').length > 0, 'the pair has kernels on one side only');
  for (const status of ['added', 'removed'])
    assert.deepEqual(
      kernels.filter((k) => k.status === status).map((k) => k.name),
      marked(status)
    );
  const marks = await page.$$eval('#compare [data-table="kernels"] .cmp-mark', (els) => els.map((e) => e.textContent));
  assert.ok(marks.includes('new') || marks.includes('gone'));

  // Both sides' step times, overlaid.
  if (diff.step_samples.base.length && diff.step_samples.cand.length) {
    const bars = await page.$$eval('#compare [data-chart="step-times"] g[data-side]', (gs) =>
      gs.map((g) => [g.dataset.side, g.querySelectorAll('rect').length])
    );
    assert.deepEqual(
      bars.map((b) => b[0]),
      ['base', 'cand']
    );
    assert.ok(bars.every((b) => b[1] > 0));
  }

  // Per GPU stream, both sides (the pair ran on other GPUs: streams on one side only read "—").
  const streams = await page.$$eval('#compare [data-table="streams"] tbody tr', (trs) =>
    trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent))
  );
  assert.equal(streams.length, diff.streams.length);
  assert.ok(diff.streams.length > 0);
});

test('Copy Markdown is the core Markdown of the same pair', async () => {
  await s.page.click('#share-actions >> text=Copy Markdown');
  await s.page.waitForFunction(() => window.__tracewise.export?.lastMarkdown, null, { timeout: 20_000, polling: 50 });
  const md = await s.page.evaluate(() => window.__tracewise.export.lastMarkdown);
  assert.equal(md, cliDiff('markdown'));
});

test('the HTML report carries the comparison', async () => {
  await s.page.click('#share-actions >> text=Download report');
  await s.page.waitForFunction(() => window.__tracewise.export?.lastHtml, null, { timeout: 20_000, polling: 50 });
  const html = await s.page.evaluate(() => window.__tracewise.export.lastHtml);
  assert.match(html, /<section class="compare">/);
  assert.match(html, /data-table="kernels"/);
});

test('the timelines are stacked in one view: one zoom, aligned at the picked step', async () => {
  const page = s.page;
  await page.click('[data-tab="timeline"]');
  await idle(page);
  const v = await tl(() => {
    const h = window.__tracewise.timeline;
    return {
      shown: window.__tracewise.timelineHost.shown(),
      groups: Array.from({ length: h.groupCount }, (_, g) => h.groupName(g)),
      steps: [...document.querySelectorAll('.cmp-step-pick option')].map((o) => o.value),
      hidden: document.querySelector('.cmp-step-pick').hidden,
    };
  });
  assert.equal(v.shown, 'aligned');
  assert.deepEqual(v.groups, ['baseline · control.json.gz', 'candidate · test.json.gz']);
  assert.equal(v.hidden, false);
  assert.ok(v.steps.length >= 2, `common steps: ${v.steps}`);

  // Zoom with the wheel over the baseline's group: the one view's range narrows, and the candidate's
  // lanes (below) are drawn in the same new range.
  const before = await tl(() => window.__tracewise.timeline.visibleRange());
  const at = await tl(() => window.__tracewise.timeline.groupPoint('baseline'));
  await page.mouse.move(at.x + 400, at.y + 40);
  for (let i = 0; i < 4; i++) await page.mouse.wheel(0, -300);
  await idle(page);
  const after = await tl(() => window.__tracewise.timeline.visibleRange());
  assert.ok(after.t1 - after.t0 < (before.t1 - before.t0) / 2, 'zoomed in');
  const inRange = await tl(() => {
    const h = window.__tracewise.timeline;
    const r = h.visibleRange();
    const per = [0, 0];
    for (const it of h.items('')) if (it.start < r.t1 && it.start + it.dur > r.t0) per[it.group]++;
    return per;
  });
  assert.ok(inRange[0] > 0 && inRange[1] > 0, `items on screen per run: ${inRange}`);

  // Another step: both runs are aligned at its start, and the view shows it.
  const step = v.steps[1];
  await page.selectOption('.cmp-step-pick', step);
  await idle(page);
  const diffSteps = await tl(() => window.__tracewise.summary.files.map((f) => f.steps));
  const [b, c] = diffSteps.map((steps) => steps.find((x) => String(x.number) === step));
  const shown = await tl(() => ({
    ...window.__tracewise.timeline.visibleRange(),
    o: window.__tracewise.timeline.originNs,
  }));
  // The view's origin is on the baseline's clock: the step begins at the same aligned time on both.
  const begin = Number(BigInt(b.begin_ns) - BigInt(shown.o));
  assert.ok(
    shown.t0 <= begin && shown.t1 >= begin + Math.max(b.duration_ns, c.duration_ns) * 0.99,
    'the step is on screen'
  );
  const firstGpu = await tl(() => {
    const h = window.__tracewise.timeline;
    const r = h.visibleRange();
    const first = [Infinity, Infinity];
    for (const it of h.items('')) if (it.start >= r.t0) first[it.group] = Math.min(first[it.group], it.start);
    return first;
  });
  assert.ok(
    firstGpu.every((x) => Number.isFinite(x)),
    'both runs have GPU work in the step'
  );
  // The address bar's link follows (it is rewritten every second).
  await page.waitForFunction((n) => new URLSearchParams(location.hash.slice(1)).get('step') === n, step, {
    timeout: 5_000,
    polling: 100,
  });
});

test("the address bar's link reopens the comparison: the files dropped in any order take their sides", async () => {
  const link = await s.page.evaluate(() => location.href);
  const params = new URLSearchParams(new URL(link).hash.slice(1));
  assert.equal(params.get('cmp'), 'bc');
  const page = await s.context.newPage();
  try {
    await page.goto(link);
    await page.waitForFunction(() => window.__tracewise?.share?.ready, null, { timeout: 10_000, polling: 50 });
    // The candidate first: sides follow the names the link gives.
    await page.evaluate(() => {
      window.__tracewise.ready = false;
    });
    await page.setInputFiles('#file-input', [CAND, BASE]);
    await waitSettled(page, 90_000);
    await page.waitForFunction(() => window.__tracewise.compare?.state === 'ready', null, {
      timeout: 30_000,
      polling: 50,
    });
    const v = await page.evaluate(() => ({
      sides: window.__tracewise.compare.sides,
      names: window.__tracewise.summary.files.map((f) => f.name),
      base: window.__tracewise.compare.diff.base.label,
      tab: document.querySelector('[role="tab"][aria-selected="true"]').dataset.tab,
    }));
    assert.deepEqual(v.names, ['test.json.gz', 'control.json.gz']);
    assert.deepEqual(v.sides, ['cand', 'base']);
    assert.equal(v.base, 'control.json.gz');
    assert.equal(v.tab, 'timeline');
  } finally {
    await page.close();
  }
});

test('a summary link of the comparison shows its diff read-only in a fresh page', async () => {
  await s.page.click('#share-actions >> text=Copy summary link');
  await s.page.waitForFunction(() => window.__tracewise.share?.lastLink?.includes('#s=1.'), null, {
    timeout: 20_000,
    polling: 50,
  });
  const { link, sentence } = await s.page.evaluate(() => ({
    link: window.__tracewise.share.lastLink,
    sentence: window.__tracewise.compare.diff.verdict.sentence,
  }));
  assert.match(link, /[#&]cmp=bc/);
  const page = await s.context.newPage();
  try {
    await page.goto(link);
    await page.waitForFunction(
      () => window.__tracewise?.share?.readOnly && window.__tracewise.compare?.state === 'ready',
      null,
      {
        timeout: 20_000,
        polling: 50,
      }
    );
    assert.equal(await page.getAttribute('[data-tab="compare"]', 'aria-selected'), 'true');
    assert.equal((await page.textContent('#compare .cmp-sentence')).trim(), sentence);
    assert.ok((await page.$$('#compare [data-section="compare-metrics"] tbody tr')).length > 0);
  } finally {
    await page.close();
  }
});

test('an open trace marked as the baseline, then the candidate opened beside it', async () => {
  const page = await s.context.newPage();
  try {
    await page.goto(s.url);
    await page.evaluate(() => {
      window.__tracewise.ready = false;
    });
    await page.setInputFiles('#file-input', [BASE]);
    await waitSettled(page, 90_000);
    await page.click('#compare-open');
    assert.equal(await page.isVisible('#compare-with'), true);
    await page.evaluate(() => {
      window.__tracewise.ready = false;
    });
    await page.setInputFiles('#compare-with-input', [CAND]);
    await waitSettled(page, 90_000);
    const v = await page.evaluate(() => ({
      sides: window.__tracewise.compare?.sides,
      state: window.__tracewise.compare?.state,
      names: window.__tracewise.summary.files.map((f) => f.name),
    }));
    assert.deepEqual(v, { sides: ['base', 'cand'], state: 'ready', names: ['control.json.gz', 'test.json.gz'] });
    assert.equal(await page.getAttribute('[data-tab="compare"]', 'aria-selected'), 'true');
  } finally {
    await page.close();
  }
});

test('a side picked as a folder opens the traces in it (and nothing else)', async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'tw-e2e-compare-'));
  const dirs = { base: join(tmp, 'before'), cand: join(tmp, 'after') };
  mkdirSync(dirs.base);
  mkdirSync(dirs.cand);
  copyFileSync(BASE, join(dirs.base, 'control.json.gz'));
  copyFileSync(CAND, join(dirs.cand, 'test.json.gz'));
  writeFileSync(join(dirs.cand, 'notes.txt'), 'not a trace');
  const page = await s.context.newPage();
  try {
    await page.goto(s.url);
    await page.click('#compare-open');
    await page.setInputFiles('#compare-base-input-folder', dirs.base);
    await page.setInputFiles('#compare-cand-input-folder', dirs.cand);
    await page.evaluate(() => {
      window.__tracewise.ready = false;
    });
    await page.click('#compare-go');
    await waitSettled(page, 90_000);
    const v = await page.evaluate(() => ({
      sides: window.__tracewise.compare.sides,
      names: window.__tracewise.summary.files.map((f) => f.name),
      diff: window.__tracewise.compare.diff,
    }));
    assert.deepEqual(v.sides, ['base', 'cand']);
    assert.deepEqual(v.names, ['control.json.gz', 'test.json.gz']);
    // The CLI over the folders: the same document, each side named after its folder.
    const cli = JSON.parse(execFileSync(CLI, ['diff', dirs.base, dirs.cand], { maxBuffer: 1 << 28 }).toString());
    assert.equal(v.diff.base.label, 'before');
    assert.deepEqual(v.diff, cli);
  } finally {
    await page.close();
    rmSync(tmp, { recursive: true, force: true });
  }
});
