// Dashboard -> timeline links: a time range in the summary zooms the timeline to it, a name in a
// table searches the timeline for it. Needs the analysis sections (steps, kernels) in the wasm build.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openViaInput, trace } from './helpers.mjs';

const NCCL = trace('hta/tests/data/nccl_parser_config/nccl_data.json.gz');
let s;
before(async () => {
  s = await start();
});
after(async () => {
  await s?.close();
});

const timelineIdle = () =>
  s.page.waitForFunction(() => window.__tracewise.timeline?.ready && window.__tracewise.timeline.idle(), null, {
    timeout: 20_000,
    polling: 50,
  });

test('a step range link opens the timeline zoomed to that step', async () => {
  const { summary } = await openViaInput(s.page, [NCCL]);
  const f = summary.files[0];
  const step = f.steps?.[0];
  assert.ok(step, 'the NCCL trace has profiler steps');
  assert.ok(await s.page.$('[data-section="steps"] .tl-link'), 'the steps section has range links');
  await s.page.click('[data-section="steps"] .tl-link');
  await timelineIdle();
  assert.equal(await s.page.getAttribute('[data-tab="timeline"]', 'aria-selected'), 'true');
  assert.equal(await s.page.isVisible('#timeline canvas'), true);
  const { t0, t1 } = await s.page.evaluate(() => window.__tracewise.timeline.visibleRange());
  const origin = Number(await s.page.evaluate(() => window.__tracewise.timeline.originNs));
  const b = step.begin_ns - origin,
    e = step.end_ns - origin;
  assert.ok(t0 <= b + 1 && t1 >= e - 1, `visible ${t0}..${t1} must cover the step ${b}..${e}`);
  assert.ok(t1 - t0 < 1.5 * (e - b), 'zoomed to the step, not the whole trace');
});

test('a kernel name in the table searches the timeline for it', async () => {
  await openViaInput(s.page, [NCCL]);
  const link = await s.page.$('[data-section="kernels"] .tl-link.name');
  assert.ok(link, 'the kernels table has name links');
  const name = await link.textContent();
  await link.click();
  await timelineIdle();
  await s.page.waitForFunction(() => window.__tracewise.timeline.searchCount > 0, null, { timeout: 10_000 });
  assert.equal(await s.page.inputValue('#timeline [data-testid="timeline-search"]'), name);
});
