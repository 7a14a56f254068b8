// The timeline tab in headless Chromium: it draws, a click opens a slice's details (args re-read
// from the file, plain and gzip), search finds a known kernel, W/S/A/D move the visible range, and
// shift+drag aggregates an area. Uses the real DeepSeek trace (2 GPU streams of overlapped work).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start } from './helpers.mjs';
import { idle, showTimeline } from './timeline_helpers.mjs';

let t;
before(async () => {
  t = await start();
});
after(async () => {
  await t?.close();
});

test('timeline draws the DeepSeek trace: lanes, items, non-blank canvas', async () => {
  const { page } = t;
  await showTimeline(page, 'deepseek_profile_data/train.json');
  const info = await page.evaluate(() => {
    const tl = window.__tracewise.timeline;
    const c = document.querySelector('[data-testid="timeline-canvas"]');
    const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let painted = 0;
    for (let i = 3; i < px.length; i += 4 * 7) if (px[i] > 0) painted++;
    return { items: tl.drawnItems, lanes: tl.lanes.map((l) => l.name), painted, total: px.length / (4 * 7) };
  });
  assert.ok(info.items > 200, `drew ${info.items} items`);
  assert.ok(info.painted > info.total * 0.1, `painted ${info.painted} of ${info.total} sampled pixels`);
  for (const name of ['thread 1166 (python3)', 'comm overlap (GPU 0)', 'stream 7', 'stream 27'])
    assert.ok(info.lanes.includes(name), name);
  assert.deepEqual(t.pageErrors, []);
});

test('clicking a known slice opens its details with args re-read from the file', async () => {
  const { page } = t;
  const at = await page.evaluate(() => window.__tracewise.timeline.locate('ProfilerStep#1'));
  assert.ok(at, 'ProfilerStep#1 is drawn');
  await page.mouse.click(at.x, at.y);
  await page.waitForFunction(() => window.__tracewise.timeline.details?.details?.name === 'ProfilerStep#1', null, {
    timeout: 10_000,
  });
  const d = await page.evaluate(() => window.__tracewise.timeline.details);
  assert.equal(d.argsSource, 'file');
  assert.ok(d.details.durNs > 1e8 && d.details.selfNs < d.details.durNs);
  assert.equal(await page.textContent('[data-testid="timeline-details-name"]'), 'ProfilerStep#1');
  assert.ok(Array.isArray(d.args.fields) && d.args.fields.some(([k, v]) => k === 'ph' && v === 'X'));
});

test('search finds a known kernel, next/previous walk the matches, the kernel links to its launch', async () => {
  const { page } = t;
  await page.fill('[data-testid="timeline-search"]', 'internode::combine<');
  await page.press('[data-testid="timeline-search"]', 'Enter');
  await page.waitForFunction(
    () => window.__tracewise.timeline.details?.details?.name?.includes('internode::combine<'),
    null,
    { timeout: 10_000 }
  );
  await idle(page);
  let s = await page.evaluate(() => ({
    n: window.__tracewise.timeline.searchCount,
    d: window.__tracewise.timeline.details,
  }));
  assert.equal(s.n, 8);
  assert.equal(await page.textContent('[data-testid="timeline-search-count"]'), '1 / 8');
  const first = s.d.details.id;
  assert.equal(s.d.details.class, 'communication');
  const launch = s.d.details.links.find((l) => l.dir === 'launch');
  assert.match(launch?.to.name ?? '', /^cudaLaunchKernel/);
  assert.ok(s.d.args.args.some(([k]) => k === 'correlation'));
  // The kernel's array args read as one spaced line in the panel (the core sends compact JSON).
  const grid = s.d.args.args.find(([k]) => k === 'grid');
  assert.equal(grid[2], true);
  const shown = await page.$$eval('[data-testid="timeline-args"] tr', (trs) =>
    trs.map((tr) => [tr.cells[0].textContent, tr.cells[1].textContent])
  );
  assert.deepEqual(
    shown.find(([k]) => k === 'grid'),
    ['grid', JSON.parse(grid[1]).join(', ').replace(/^/, '[') + ']']
  );
  await page.click('[data-testid="timeline-search-next"]');
  await page.waitForFunction((id) => window.__tracewise.timeline.details?.details?.id !== id, first, {
    timeout: 10_000,
  });
  assert.equal(await page.textContent('[data-testid="timeline-search-count"]'), '2 / 8');
  // Regex search: both dispatch kernels.
  await page.check('.twtl-bar input[type=checkbox]');
  await page.fill('[data-testid="timeline-search"]', 'internode::dispatch<false, 8, (true|false)');
  await page.press('[data-testid="timeline-search"]', 'Enter');
  await page.waitForFunction(
    () =>
      window.__tracewise.timeline.searchCount === 8 &&
      window.__tracewise.timeline.details?.details?.name?.includes('dispatch<'),
    null,
    { timeout: 10_000 }
  );
  await page.fill('[data-testid="timeline-search"]', '');
  await page.press('[data-testid="timeline-search"]', 'Escape');
  await page.uncheck('.twtl-bar input[type=checkbox]');
});

test('W/S zoom and A/D pan change the visible range; F fits all', async () => {
  const { page } = t;
  await page.click('.twtl-bar button[title^="Fit"]');
  await idle(page);
  const range = () => page.evaluate(() => window.__tracewise.timeline.visibleRange());
  await page.mouse.move(10, 10); // away from the canvas: zoom around the centre
  const r0 = await range();
  await page.keyboard.press('w');
  const r1 = await range();
  assert.ok(r1.t1 - r1.t0 < (r0.t1 - r0.t0) * 0.9, 'W zooms in');
  await page.keyboard.press('s');
  await page.keyboard.press('s');
  const r2 = await range();
  assert.ok(r2.t1 - r2.t0 > r1.t1 - r1.t0, 'S zooms out');
  await page.keyboard.press('w');
  await page.keyboard.press('w');
  const r3 = await range();
  await page.keyboard.press('a');
  const r4 = await range();
  assert.ok(r4.t0 < r3.t0 && Math.abs(r4.t1 - r4.t0 - (r3.t1 - r3.t0)) < 1, 'A pans left');
  await page.keyboard.press('d');
  await page.keyboard.press('d');
  const r5 = await range();
  assert.ok(r5.t0 > r4.t0, 'D pans right');
  await idle(page);
  assert.ok((await page.evaluate(() => window.__tracewise.timeline.drawnItems)) > 0);
  await page.keyboard.press('f');
  const r6 = await range();
  assert.ok(Math.abs(r6.t0 - r0.t0) < 1 && Math.abs(r6.t1 - r0.t1) < 1, 'F fits all again');
});

test('shift+drag over the GPU streams aggregates the area', async () => {
  const { page } = t;
  await idle(page);
  const lanes = await page.evaluate(() => window.__tracewise.timeline.lanes);
  const s7 = lanes.find((l) => l.name === 'stream 7').id,
    s27 = lanes.find((l) => l.name === 'stream 27').id;
  const a = await page.evaluate(([l]) => window.__tracewise.timeline.pointAt(0, l), [s7]);
  const b = await page.evaluate(([l]) => window.__tracewise.timeline.pointAt(140e6, l), [s27]);
  await page.keyboard.down('Shift');
  await page.mouse.move(a.x + 1, a.y - 5);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, b.y, { steps: 4 });
  await page.mouse.move(b.x - 2, b.y + 5, { steps: 4 });
  await page.mouse.up();
  await page.keyboard.up('Shift');
  await page.waitForFunction(() => window.__tracewise.timeline.aggregate, null, { timeout: 10_000 });
  const agg = await page.evaluate(() => window.__tracewise.timeline.aggregate);
  assert.ok(agg.slices > 100, `aggregated ${agg.slices} slices`);
  const combine = agg.rows.find((r) => r.name.includes('internode::combine<'));
  assert.equal(combine?.count, 8);
  assert.ok(await page.isVisible('[data-testid="timeline-aggregate"]'));
});

test('a gzip trace: details args are re-read by decompressing again', async () => {
  const { page } = t;
  await showTimeline(page, 'hta/tests/data/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz');
  await page.fill('[data-testid="timeline-search"]', 'cudaLaunchKernel');
  await page.press('[data-testid="timeline-search"]', 'Enter');
  await page.waitForFunction(() => window.__tracewise.timeline.details?.details?.name === 'cudaLaunchKernel', null, {
    timeout: 10_000,
  });
  const d = await page.evaluate(() => window.__tracewise.timeline.details);
  assert.equal(d.argsSource, 'gzip');
  assert.ok(
    d.args.args.some(([k]) => k === 'correlation'),
    JSON.stringify(d.args)
  );
  assert.ok(d.details.links.some((l) => l.dir === 'kernel'));
  assert.deepEqual(t.pageErrors, []);
});

test('dashboard-style links: zoomTo with absolute ns, highlight a name; groups collapse; colour by name', async () => {
  const { page } = t;
  await showTimeline(page, 'deepseek_profile_data/train.json');
  // zoomTo takes absolute trace ns as in the summary JSON (here a decimal string: exact).
  const r = await page.evaluate(() => {
    const tl = window.__tracewise.timeline;
    const o = BigInt(tl.originNs);
    tl.view.zoomTo((o + 20_000_000n).toString(), (o + 30_000_000n).toString());
    return tl.visibleRange();
  });
  assert.ok(Math.abs(r.t0 - 19.5e6) < 1e3 && Math.abs(r.t1 - 30.5e6) < 1e3, JSON.stringify(r));
  await page.evaluate(() => {
    const tl = window.__tracewise.timeline;
    tl.view.highlight({
      name: 'internode::dispatch<',
      t0_ns: BigInt(tl.originNs) + 20_000_000n,
      t1_ns: BigInt(tl.originNs) + 30_000_000n,
    });
  });
  await page.waitForFunction(
    () => window.__tracewise.timeline.details?.details?.name?.includes('internode::dispatch<'),
    null,
    { timeout: 10_000 }
  );
  const d = await page.evaluate(() => window.__tracewise.timeline.details.details);
  assert.ok(d.startNs >= 20e6, `first match at or after the range start (${d.startNs})`);

  const before = await page.evaluate(() => window.__tracewise.timeline.lanesShown);
  const g = await page.evaluate(() => window.__tracewise.timeline.groupPoint('GPU 0'));
  await page.mouse.click(g.x, g.y);
  const collapsed = await page.evaluate(() => window.__tracewise.timeline.lanesShown);
  assert.equal(collapsed, before - 4, 'the GPU group (overlap lane + 3 streams) collapsed');
  const g2 = await page.evaluate(() => window.__tracewise.timeline.groupPoint('GPU 0')); // may have scrolled
  await page.mouse.click(g2.x, g2.y);
  assert.equal(await page.evaluate(() => window.__tracewise.timeline.lanesShown), before);

  await page.selectOption('.twtl-bar select', 'name');
  await idle(page);
  assert.equal(await page.evaluate(() => window.__tracewise.timeline.colorBy), 'name');
  assert.deepEqual(t.pageErrors, []);
});
