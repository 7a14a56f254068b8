// Instants on the timeline and search in the core, in headless Chromium. The trace viewer's sample
// has thread, process and global instants; clicking a marker shows the instant in the details panel.
// Search runs in the worker's core: pages of matches in time order, linear-time regexes, refusals.
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

async function clickInstant(page, name) {
  const at = await page.evaluate((n) => window.__tracewise.timeline.locateInstant(n), name);
  assert.ok(at, `${name} is drawn`);
  await page.mouse.click(at.x, at.y);
  await page.waitForFunction((n) => window.__tracewise.timeline.details?.details?.name === n, name, {
    timeout: 10_000,
  });
  return page.evaluate(() => window.__tracewise.timeline.details);
}

test('thread, process and global instants are drawn; clicking one shows its name and fields', async () => {
  const { page } = t;
  await showTimeline(page, 'kineto/profiler/plugin/trace_viewer/tf_trace_viewer/data/trace.json');
  // 4 thread instants on two lanes, one process-wide line, one global line.
  assert.equal(await page.evaluate(() => window.__tracewise.timeline.drawnInstants), 6);

  let d = await clickInstant(page, 'ThreadLevelImmediate4');
  assert.equal(d.details.instant, true);
  assert.equal(d.details.scope, 'thread');
  assert.equal(d.details.laneName, 'threadB 22631');
  assert.equal(await page.textContent('[data-testid="timeline-details-name"]'), 'ThreadLevelImmediate4');
  assert.equal(d.argsSource, 'file');
  assert.ok(d.args.fields.some(([k, v]) => k === 'ph' && v === 'I'));

  d = await clickInstant(page, 'GlobalEvent1');
  assert.equal(d.details.scope, 'global');
  d = await clickInstant(page, 'ProcessWideEvent1');
  assert.equal(d.details.scope, 'process');
  // The process mark sits on the group header: clicking it did not collapse the group.
  assert.ok((await page.evaluate(() => window.__tracewise.timeline.lanesShown)) >= 3);
  assert.deepEqual(t.pageErrors, []);
});

test('search in the core: pages in time order, total count, linear-time regex, refused patterns', async () => {
  const { page } = t;
  await showTimeline(page, 'deepseek_profile_data/train.json');
  await page.check('.twtl-bar input[type=checkbox]');
  await page.fill('[data-testid="timeline-search"]', 'INTERNODE::(combine|dispatch)<');
  await page.press('[data-testid="timeline-search"]', 'Enter');
  await page.waitForFunction(() => window.__tracewise.timeline.searchCount === 16, null, { timeout: 10_000 });
  await idle(page);
  // The worker hands out the matches a page at a time (the string table stays in the wasm heap).
  const pages = await page.evaluate(async () => {
    const client = window.__tracewise.timeline.view.client;
    const a = await client.request('search', { op: 'page', offset: 0, limit: 10 });
    const b = await client.request('search', { op: 'page', offset: 10, limit: 10 });
    return { a, b };
  });
  assert.equal(pages.a.count, 16);
  assert.equal(pages.a.matches.length, 10);
  assert.equal(pages.b.matches.length, 6);
  const all = [...pages.a.matches, ...pages.b.matches];
  for (let i = 1; i < all.length; i++) assert.ok(all[i - 1].startNs <= all[i].startNs);
  assert.ok(all.every((m) => /internode::(combine|dispatch)</.test(m.name)));

  // A pattern that makes a backtracking engine explode answers at once; look-ahead is refused.
  await page.fill('[data-testid="timeline-search"]', '(a+)+$x|(\\w+\\s?)+:::');
  await page.press('[data-testid="timeline-search"]', 'Enter');
  await page.waitForFunction(
    () => document.querySelector('[data-testid="timeline-search-count"]').textContent === '0 matches',
    null,
    { timeout: 10_000 }
  );
  await page.fill('[data-testid="timeline-search"]', 'cuda(?=Launch)');
  await page.press('[data-testid="timeline-search"]', 'Enter');
  await page.waitForFunction(
    () => /look-ahead/.test(document.querySelector('[data-testid="timeline-search-count"]').textContent),
    null,
    { timeout: 10_000 }
  );
  await page.fill('[data-testid="timeline-search"]', '');
  await page.press('[data-testid="timeline-search"]', 'Escape');
  await page.uncheck('.twtl-bar input[type=checkbox]');
  assert.deepEqual(t.pageErrors, []);
});
