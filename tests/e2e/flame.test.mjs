// The flame graph (web/flame, issue #41) on real traces: DeepSeek's training trace (annotations,
// a backward thread) and a Kineto ResNet trace. The Flame graph tab draws the core's call tree; a
// click zooms into a frame; the search counts and dims; the GPU measure's root is the attributed GPU
// time the CLI's collapsed stacks add up to (`tracewise flame --measure gpu`); bottom-up has the same
// totals; a function's sandwich; a frame's slices shown on its thread in the timeline; a timeline
// area's "Flame graph of the selection".
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { CLI, start, openViaInput, trace } from './helpers.mjs';
import { idle } from './timeline_helpers.mjs';

const DEEPSEEK = trace('deepseek_profile_data/train.json.gz');
const RESNET = trace('kineto/plugin/samples/resnet50_num_workers_0/worker0.pt.trace.json.gz');

let s;
before(async () => {
  s = await start();
});
after(async () => {
  await s?.close();
});

const probe = () => s.page.evaluate(() => window.__tracewise.flame.probe());
// Waits until the flame graph on screen has drawn what it was last asked for (no time window: the
// test's own timeout ends a wait that never comes).
async function settled(check = () => true) {
  for (;;) {
    await s.page.waitForFunction(() => window.__tracewise.flame?.probe().ready, null, { timeout: 60_000, polling: 50 });
    const p = await probe();
    if (check(p)) return p;
    await s.page.waitForTimeout(50);
  }
}

// The sum of the CLI's collapsed stacks (`frame;frame VALUE` lines, values in ns).
function collapsedSum(file, measure, range = null) {
  const args = ['flame', '--measure', measure, ...(range ? ['--from', range[0], '--to', range[1]] : []), file];
  const out = execFileSync(CLI, args, { encoding: 'utf8', maxBuffer: 1 << 28 });
  let sum = 0;
  for (const line of out.split('\n')) if (line) sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  return sum;
}

async function openFlame(file) {
  await openViaInput(s.page, [file]);
  await s.page.click('[data-tab="flame"]');
  assert.equal(await s.page.getAttribute('[data-tab="flame"]', 'aria-selected'), 'true');
  return settled();
}

async function choose(testId, value) {
  await s.page.selectOption(`[data-testid="${testId}"]`, value);
}

test('DeepSeek: frames drawn, zoom, search, GPU measure = the core, bottom-up, sandwich', async () => {
  const p0 = await openFlame(DEEPSEEK);
  assert.equal(p0.measure, 'cpu');
  assert.equal(p0.focus, 0);
  assert.equal(p0.focusName, 'All threads');
  assert.ok(p0.nodes > 100, `${p0.nodes} nodes`);
  assert.ok(p0.drawn > 20, `${p0.drawn} frames drawn`);
  assert.ok(p0.labels > 0);
  assert.equal(p0.focusValue, p0.rootTotals.cpu);
  assert.equal(p0.rootTotals.cpu, collapsedSum(DEEPSEEK, 'cpu'));

  // The thread picker lists the threads (and the merged view).
  const roots = await s.page.$$eval('[data-testid="flame-roots"] option', (os) => os.map((o) => o.textContent));
  assert.ok(roots.length >= 4, roots.join(' | '));
  assert.equal(roots[1], 'All threads merged');

  // Click the widest frame under the root: the graph zooms into it.
  const [top] = await s.page.evaluate(() => window.__tracewise.flame.widest(1));
  const at = await s.page.evaluate((n) => window.__tracewise.flame.locate(n), top.name);
  assert.ok(at, `${top.name} is drawn`);
  await s.page.mouse.click(at.x, at.y);
  const p1 = await settled((p) => p.focus !== 0);
  assert.equal(p1.focusName, top.name);
  assert.equal(p1.selectedName, top.name);
  assert.ok(p1.focusValue > 0 && p1.focusValue <= p0.focusValue);
  const crumbs = await s.page.$$eval('[data-testid="flame-crumbs"] button', (bs) => bs.map((b) => b.textContent));
  assert.equal(crumbs[0], 'All threads');
  assert.equal(crumbs[crumbs.length - 1], top.name);
  assert.equal(await s.page.textContent('[data-testid="flame-details-name"]'), top.name);
  await s.page.click('[data-testid="flame-reset"]');
  await settled((p) => p.focus === 0);

  // Search: frames whose name holds the text; the rest dimmed; the share counts nested matches once.
  await s.page.fill('[data-testid="flame-search"]', 'aten::');
  const p2 = await settled((p) => p.matched.nodes > 0);
  assert.ok(p2.matched.value > 0 && p2.matched.value <= p2.focusValue);
  assert.match(await s.page.textContent('[data-testid="flame-search-count"]'), /^\d+ frames · /);
  await s.page.fill('[data-testid="flame-search"]', '');
  await settled((p) => p.matched.nodes === 0);

  // The GPU measure: the root is the GPU time attributed through launches, as the core sums it.
  await choose('flame-measure', 'gpu');
  const gpu = await settled((p) => p.measure === 'gpu');
  assert.ok(gpu.rootTotals.gpu > 0);
  assert.equal(gpu.focusValue, gpu.rootTotals.gpu);
  assert.equal(gpu.rootTotals.gpu, collapsedSum(DEEPSEEK, 'gpu'));
  assert.ok(gpu.items < p0.items, 'frames that launched nothing are left out');

  // Left-heavy: the same frames, another order.
  await choose('flame-order', 'left-heavy');
  const lh = await settled((p) => p.order === 'left-heavy');
  assert.equal(lh.items, gpu.items);

  // Bottom-up: the functions as roots, the same totals (each function's own time, summed).
  await choose('flame-direction', 'bottom_up');
  const bu = await settled((p) => p.bottomUp);
  assert.equal(bu.focusName, 'All functions');
  assert.equal(bu.rootTotals.gpu, gpu.rootTotals.gpu);
  assert.equal(bu.rootTotals.cpu, p0.rootTotals.cpu);
  await choose('flame-direction', 'top_down');
  await choose('flame-measure', 'cpu');
  await choose('flame-order', 'icicle');
  await settled((p) => !p.bottomUp && p.measure === 'cpu' && p.order === 'icicle');

  // A function's sandwich: its callers above, its callees below, over all its calls.
  const [kernel] = await s.page.evaluate(() => window.__tracewise.flame.widest(40).filter((f) => f.row >= 3));
  const k = await s.page.evaluate((n) => window.__tracewise.flame.locate(n, 'main'), kernel.name);
  await s.page.mouse.click(k.x, k.y);
  await settled((p) => p.selectedName === kernel.name);
  await s.page.click('[data-testid="flame-sandwich-open"]');
  const sw = await settled((p) => p.sandwich?.name === kernel.name && p.sandwich.drawn > 0);
  assert.ok(sw.sandwich.callers >= 2, 'the function and at least one caller');
  assert.ok(sw.sandwich.cpu > 0);
  assert.equal(await s.page.textContent('[data-testid="flame-sandwich-title"]'), kernel.name);
  assert.ok(await s.page.evaluate((n) => window.__tracewise.flame.locate(n, 'callers'), kernel.name));
  await s.page.click('[data-testid="flame-sandwich-close"]');
  await settled((p) => p.sandwich === null);
});

test("DeepSeek: a frame's slices in the timeline, and the flame graph of a timeline area", async () => {
  await openFlame(DEEPSEEK);
  // A frame of one thread (not a thread root): its slices on that thread.
  const frames = await s.page.evaluate(() => window.__tracewise.flame.widest(60));
  const frame = frames.find((f) => f.row >= 2 && f.track >= 0);
  assert.ok(frame, 'a frame of one thread');
  const at = await s.page.evaluate((n) => window.__tracewise.flame.locate(n), frame.name);
  await s.page.mouse.click(at.x, at.y);
  const p = await settled((q) => q.selectedName === frame.name);
  await s.page.click('[data-testid="flame-show-timeline"]');
  assert.equal(await s.page.getAttribute('[data-tab="timeline"]', 'aria-selected'), 'true');
  await s.page.waitForFunction((name) => window.__tracewise.timeline?.details?.details?.name === name, frame.name, {
    timeout: 30_000,
    polling: 50,
  });
  await idle(s.page);
  const shown = await s.page.evaluate(() => ({
    lane: window.__tracewise.timeline.details.details.lane,
    count: window.__tracewise.timeline.searchCount,
  }));
  assert.equal(shown.lane, p.selectedTrack);
  assert.ok(shown.count >= 1);

  // Shift+drag over that thread's lane, in the middle half of the visible range.
  const range = await s.page.evaluate(() => window.__tracewise.timeline.visibleRange());
  const t0 = range.t0 + (range.t1 - range.t0) * 0.25,
    t1 = range.t0 + (range.t1 - range.t0) * 0.75;
  const a = await s.page.evaluate(([t, l]) => window.__tracewise.timeline.pointAt(t, l), [t0, shown.lane]);
  const b = await s.page.evaluate(([t, l]) => window.__tracewise.timeline.pointAt(t, l), [t1, shown.lane]);
  await s.page.keyboard.down('Shift');
  await s.page.mouse.move(a.x, a.y - 3);
  await s.page.mouse.down();
  await s.page.mouse.move((a.x + b.x) / 2, b.y, { steps: 4 });
  await s.page.mouse.move(b.x, b.y + 3, { steps: 4 });
  await s.page.mouse.up();
  await s.page.keyboard.up('Shift');
  await s.page.waitForFunction(() => window.__tracewise.timeline.aggregate, null, { timeout: 30_000 });
  const area = await s.page.evaluate(() => window.__tracewise.timeline.area);
  await s.page.click('[data-testid="timeline-area-action"]');
  assert.equal(await s.page.getAttribute('[data-tab="flame"]', 'aria-selected'), 'true');
  const origin = await s.page.evaluate(() => window.__tracewise.timeline.originNs);
  assert.ok(area, 'the timeline keeps its area');
  const r = await settled((q) => q.range !== null);
  assert.deepEqual(r.range, { fromNs: area.t0, toNs: area.t1, originNs: origin });
  assert.ok(r.range.toNs > r.range.fromNs);
  // The core's totals for that range, as the CLI gives them for the same absolute ns (the page sends
  // doubles: the same double, written out whole).
  const abs = (rel) => BigInt(Number(BigInt(origin) + BigInt(Math.round(rel)))).toString();
  const span = [abs(r.range.fromNs), abs(r.range.toNs)];
  assert.equal(r.rootTotals.cpu, collapsedSum(DEEPSEEK, 'cpu', span));
  assert.equal(r.rootTotals.gpu, collapsedSum(DEEPSEEK, 'gpu', span));
  assert.ok(r.rootTotals.cpu > 0, 'the range holds CPU time');
  // Clipped to the range: no thread has more CPU time in it than its width.
  const threads = (await s.page.$$('[data-testid="flame-roots"] option')).length - 2;
  assert.ok(r.rootTotals.cpu <= (r.range.toNs - r.range.fromNs) * threads, 'clipped to the range');
  assert.match(await s.page.textContent('[data-testid="flame-range"]'), /^Time range /);
  // Back to the whole trace.
  await s.page.click('[data-testid="flame-whole"]');
  const whole = await settled((q) => q.range === null);
  assert.ok(whole.rootTotals.cpu > r.rootTotals.cpu);
});

test('Kineto ResNet: GPU measure = the core, threads picked one at a time', async () => {
  const p0 = await openFlame(RESNET);
  assert.ok(p0.drawn > 10);
  assert.equal(p0.rootTotals.cpu, collapsedSum(RESNET, 'cpu'));
  await choose('flame-measure', 'gpu');
  const gpu = await settled((p) => p.measure === 'gpu');
  assert.ok(gpu.rootTotals.gpu > 0);
  assert.equal(gpu.rootTotals.gpu, collapsedSum(RESNET, 'gpu'));
  // One thread: the graph starts at its root.
  const value = await s.page.$eval('[data-testid="flame-roots"] option:nth-child(3)', (o) => o.value);
  await choose('flame-roots', value);
  const one = await settled((p) => p.roots === value);
  assert.equal(one.focus, Number(value));
  assert.ok(one.focusValue <= gpu.focusValue);
  // Every thread merged by name path: the same total.
  await choose('flame-roots', 'merged');
  const merged = await settled((p) => p.roots === 'merged');
  assert.equal(merged.rootTotals.gpu, gpu.rootTotals.gpu);
  assert.equal(merged.focusName, 'All threads merged');
  assert.deepEqual(s.pageErrors, []);
});
