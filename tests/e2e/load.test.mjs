// Opening real traces in the page: by file input, by a drop event, several ranks at once, the
// sample button. The page's summary must be the CLI's, and the numbers on screen must be the
// summary's numbers.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openViaInput, openViaDrop, waitSettled, cliSummary, trace, recordOpenReplies } from './helpers.mjs';
import { idle } from './timeline_helpers.mjs';

const NCCL = trace('hta/tests/data/nccl_parser_config/nccl_data.json.gz');
const DEEPSEEK = trace('deepseek_profile_data/train.json');
const RANK0 = trace('hta/tests/data/trace_filter/sampled_rank-0.json.gz');
const RANK1 = trace('hta/tests/data/trace_filter/sampled_rank-1.json.gz');

let s;
before(async () => {
  s = await start();
});
after(async () => {
  await s?.close();
});

function at(obj, path) {
  let v = obj;
  for (const p of path.split('.')) {
    if (v === null || typeof v !== 'object' || !(p in v)) return undefined;
    v = v[p];
  }
  return v;
}

// Every value the dashboard shows with a summary path must be that path's value in the CLI summary.
async function checkShownNumbers(page, file) {
  const shown = await page.$$eval('#overview [data-path][data-raw]', (els) =>
    els.map((e) => ({ path: e.dataset.path, raw: e.dataset.raw, text: e.textContent }))
  );
  let checked = 0;
  for (const { path, raw, text } of shown) {
    const v = at(file, path);
    if (v === undefined) continue; // derived values (cards) are checked separately
    assert.equal(raw, v === null ? 'null' : String(v), `${path} shown as ${text}`);
    checked++;
  }
  // Tables whose rows are a summary array in its order (not re-sorted): every number cell too.
  const tables = await page.$$eval('#overview [data-table]', (els) =>
    els.map((t) => ({
      path: t.dataset.table,
      keys: [...t.querySelectorAll('thead th[data-key]')].map((th) => th.dataset.key),
      rows: [...t.querySelectorAll('tbody tr')].map((tr) =>
        [...tr.querySelectorAll('td')].map((td) => td.dataset.raw ?? null)
      ),
    }))
  );
  for (const t of tables) {
    const arr = at(file, t.path);
    if (!Array.isArray(arr)) continue;
    t.rows.forEach((cells, i) =>
      t.keys.forEach((k, j) => {
        if (cells[j] === null) return;
        const v = at(arr[i], k);
        assert.equal(cells[j], v === null ? 'null' : String(v), `${t.path}[${i}].${k}`);
        checked++;
      })
    );
  }
  return checked;
}

test('file input: gzip Kineto trace, summary identical to the CLI, numbers on screen match', async () => {
  const { summary, error } = await openViaInput(s.page, [NCCL]);
  assert.equal(error, null);
  const cli = cliSummary([NCCL]);
  assert.deepEqual(summary, cli);
  const f = cli.files[0];
  const cards = await s.page.$$eval('.card', (els) =>
    Object.fromEntries(
      els.map((e) => [
        e.dataset.card,
        {
          raw: e.querySelector('.card-value').dataset.raw,
          text: e.querySelector('.card-value').textContent,
        },
      ])
    )
  );
  assert.equal(cards['gpu-ops'].raw, String(f.model.gpu_ops));
  assert.equal(cards['gpu-ops'].text.replace(/,/g, ''), String(f.model.gpu_ops));
  assert.equal(Number(cards.span.raw), f.model.last_ts_ns - f.model.first_ts_ns);
  const near = (text, want, tol) => assert.ok(Math.abs(parseFloat(text) - want) <= tol, `${text} vs ${want}`);
  if (f.temporal) {
    // With steps: the GPU's share of the step time (the step categories in which a GPU op runs).
    const sb = f.step_breakdown;
    const c = sb?.categories_ns;
    const busy = sb
      ? (100 * (c.kernel + c.memcpy + c.memset + c.communication)) / sb.total_ns
      : (100 * (f.temporal.busy_ns ?? f.temporal.span_ns - f.temporal.idle_ns)) / f.temporal.span_ns;
    assert.ok(Math.abs(Number(cards['gpu-busy'].raw) - busy) < 1e-9);
    near(cards['gpu-busy'].text, busy, 0.051);
  }
  // The verdict line: the core's sentence, first on the screen.
  const verdict = await s.page.$eval('[data-section="verdict"] .verdict-sentence', (e) => e.textContent);
  assert.equal(verdict, f.verdict.sentence);
  if (f.temporal?.exposed) {
    const pct = (100 * f.temporal.exposed.communication_ns) / f.temporal.span_ns;
    assert.ok(Math.abs(Number(cards['exposed-comm'].raw) - pct) < 1e-9);
    near(cards['exposed-comm'].text, pct, 0.0051);
  }
  if (f.overlap?.pct != null) {
    assert.equal(Number(cards.overlap.raw), f.overlap.pct);
    near(cards.overlap.text, f.overlap.pct, 0.051);
  }
  if (f.step_breakdown?.mean_ns != null) {
    assert.equal(Number(cards['step-time'].raw), f.step_breakdown.mean_ns);
    near(cards['step-time'].text, f.step_breakdown.mean_ns / 1e6, 0.051); // shown in ms for this trace
  }
  // Idle causes: the GPU's idle time (each device's stretches once), not the streams' overlapping gaps.
  const idleTotal = f.idle.devices.reduce((n, d) => n + Object.values(d.categories).reduce((a, c) => a + c.ns, 0), 0);
  assert.equal(Number(cards['idle-causes'].raw), idleTotal);
  assert.equal(
    idleTotal,
    f.idle.devices.reduce((n, d) => n + d.idle_ns, 0)
  );
  const facts = await s.page.textContent('.facts');
  assert.match(facts, new RegExp(f.import.events.toLocaleString('en-US')));
  assert.match(facts, /Rank 0 of 2/);
  const n = await checkShownNumbers(s.page, f);
  assert.ok(n >= (f.kernels ? 100 : 1), `${n} numbers checked`);
});

test('drop event: plain JSON trace (DeepSeek), identical summary', async () => {
  const { summary, error } = await openViaDrop(s.page, [DEEPSEEK]);
  assert.equal(error, null);
  assert.deepEqual(summary, cliSummary([DEEPSEEK]));
  await checkShownNumbers(s.page, summary.files[0]);
  assert.equal(await s.page.textContent('.file-title h1'), 'train.json');
  // Its only import notes are flows cut by the profiling window: told as usual, each in plain words.
  assert.deepEqual(Object.keys(summary.files[0].import.problems).sort(), ['flow_without_end', 'flow_without_start']);
  const notes = await s.page.$eval('[data-section="import"]', (e) => ({
    edge: e.dataset.edgeOnly,
    text: e.textContent,
  }));
  assert.equal(notes.edge, 'true');
  assert.match(notes.text, /edges of the profiling window/);
  assert.match(notes.text, /2,853 flow arrows whose start was not recorded/);
});

test('two ranks at once: one worker each, the document lists both in order', async () => {
  const { summary, error } = await openViaInput(s.page, [RANK0, RANK1]);
  assert.equal(error, null);
  const cli = cliSummary([RANK0, RANK1]);
  assert.deepEqual(summary, cli);
  assert.ok(cli.job.verdict.sentence.length > 20);
  assert.equal(await s.page.textContent('[data-section="job-verdict"] .verdict-sentence'), cli.job.verdict.sentence);
  // The Job view comes first (job_view.test.mjs); each rank's dashboard is the Overview's.
  assert.equal(await s.page.getAttribute('[data-tab="job"]', 'aria-selected'), 'true');
  await s.page.click('[data-tab="overview"]');
  assert.deepEqual(await s.page.$$eval('.chip', (els) => els.map((e) => e.textContent)), ['rank 0', 'rank 1']);
  await s.page.click('.chip >> text=rank 1');
  await s.page.waitForFunction(() => document.querySelector('.facts')?.textContent.includes('Rank 1 of 128'));
  await checkShownNumbers(s.page, summary.files[1]);
});

test('the sample button opens the bundled real trace', async () => {
  await s.page.evaluate(() => {
    window.__tracewise.ready = false;
  });
  await s.page.click('header [data-sample]');
  const { summary, error } = await waitSettled(s.page);
  assert.equal(error, null);
  assert.deepEqual(summary, cliSummary([NCCL]));
});

test('HTA-compatible switch gives the CLI --hta-compat summary', async () => {
  await openViaInput(s.page, [NCCL]);
  await s.page.check('#hta-compat');
  await s.page.waitForFunction(
    (want) => JSON.stringify(window.__tracewise.summary) === want,
    JSON.stringify(cliSummary([NCCL], { htaCompat: true })),
    { timeout: 20_000 }
  );
  await s.page.uncheck('#hta-compat');
  await s.page.waitForFunction(
    (want) => JSON.stringify(window.__tracewise.summary) === want,
    JSON.stringify(cliSummary([NCCL])),
    { timeout: 20_000 }
  );
  assert.deepEqual(s.pageErrors, []);
});

test('a saved summary JSON (tracewise summarize output) opens as a read-only dashboard', async () => {
  const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'tw-e2e-sum-'));
  const cli = cliSummary([RANK0, RANK1]);
  const path = join(dir, 'summary.json');
  writeFileSync(path, JSON.stringify(cli) + '\n');
  const { summary, error } = await openViaInput(s.page, [path]);
  rmSync(dir, { recursive: true, force: true });
  assert.equal(error, null);
  assert.deepEqual(summary, cli);
  assert.match(await s.page.textContent('#loads'), /saved summary, not a trace/);
  const n = await checkShownNumbers(s.page, cli.files[0]);
  assert.ok(n >= (cli.files[0].kernels ? 100 : 1), `${n} numbers checked`);
});

test('Download summary JSON gives the CLI document', async () => {
  const { readFileSync } = await import('node:fs');
  await openViaInput(s.page, [RANK0, RANK1]);
  // From the Job view (shown first) and from a rank's Overview: the same document.
  for (const button of ['.job-head .job-download', '.file-title button']) {
    if (button === '.file-title button') await s.page.click('[data-tab="overview"]');
    const [download] = await Promise.all([s.page.waitForEvent('download'), s.page.click(button)]);
    const text = readFileSync(await download.path(), 'utf8');
    assert.deepEqual(JSON.parse(text), cliSummary([RANK0, RANK1]));
    assert.equal(download.suggestedFilename(), 'summary.json');
  }
});

test('more files than cores: they queue, and all load in the order given', async () => {
  const paths = [
    RANK0,
    RANK1,
    NCCL,
    DEEPSEEK,
    trace('hta/tests/data/cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz'),
  ];
  const { summary, error } = await openViaInput(s.page, paths);
  assert.equal(error, null);
  assert.deepEqual(summary, cliSummary(paths));
});

test("the summary's reply reports the trace worker's heap after it, at least the open's (issue #43)", async () => {
  await recordOpenReplies(s.page); // from the next navigation on
  await s.page.goto(s.url);
  const { error } = await openViaInput(s.page, [DEEPSEEK]);
  assert.equal(error, null);
  const { opens, replies } = await s.page.evaluate(() => ({ opens: window.__opens, replies: window.__summaryReplies }));
  assert.equal(opens.length, 1);
  assert.equal(replies.length, 1, 'one file: its summary only');
  const [{ heapBytes }] = replies;
  assert.ok(
    heapBytes % 65536 === 0 && heapBytes >= opens[0].heapBytes,
    `open ${opens[0].heapBytes}, summary ${heapBytes}`
  );
});

test("a lone trace's timeline index is built once its summary is in; several traces' are not", async () => {
  await recordOpenReplies(s.page); // from the next navigation on
  await s.page.goto(s.url);
  assert.equal((await openViaInput(s.page, [DEEPSEEK])).error, null);
  // Before the Timeline tab is clicked: the worker's reply to the page's prepareTimeline.
  await s.page.waitForFunction(() => window.__timelinePrepared === 1, null, { timeout: 20_000 });
  await s.page.click('[data-tab="timeline"]');
  await idle(s.page);

  await s.page.goto(s.url);
  assert.equal((await openViaInput(s.page, [RANK0, RANK1])).error, null);
  // A prepareTimeline is sent from an idle callback asked for at ready, so before this one's end;
  // both ranks' workers then answer the timeline's requests, after any such request of theirs.
  await s.page.evaluate(() => new Promise((done) => requestIdleCallback(done)));
  await s.page.click('[data-tab="timeline"]');
  await idle(s.page);
  const seen = await s.page.evaluate(() => ({
    prepared: window.__timelinePrepared,
    traceWorkers: window.__workerHeaps.filter((w) => w.summaries > 0).length,
  }));
  assert.deepEqual(seen, { prepared: 0, traceWorkers: 2 });
});
