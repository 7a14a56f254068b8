// How the dashboard is laid out at the end of a load (web/app/dashboard/dashboard.ts, charts.ts):
// the panels below the headline cards are laid out only once scrolled near (content-visibility),
// except those that hold a form field (Chrome's autofill lays out skipped subtrees that hold one);
// and a chart is made empty and drawn with its data in a task of its own, with every point.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openViaInput, cliSummary, trace } from './helpers.mjs';

const DEEPSEEK = trace('deepseek_profile_data/train.json');

let s;
before(async () => { s = await start(); });
after(async () => { await s?.close(); });

test('panels without a form field are laid out when near the viewport, the others always', async () => {
  await s.page.setViewportSize({ width: 1200, height: 400 });
  const r = await openViaInput(s.page, [DEEPSEEK]);
  assert.equal(r.error, null);
  const panels = await s.page.$$eval('#overview .panel', (els) => els.map((p) => ({
    section: p.dataset.section ?? p.tagName,
    fields: p.querySelectorAll('input, select, textarea').length,
    near: p.classList.contains('layout-when-near'),
    cv: getComputedStyle(p).contentVisibility,
  })));
  const lazy = panels.filter((p) => p.near);
  const always = panels.filter((p) => !p.near);
  assert.ok(lazy.length >= 3 && always.length >= 3, JSON.stringify(panels));
  for (const p of lazy) assert.ok(p.fields === 0 && p.cv === 'auto', JSON.stringify(p));
  for (const p of always) assert.ok(p.fields > 0 && p.cv === 'visible', JSON.stringify(p));
  // The last of them, far below a 400 px viewport, is skipped (its content neither laid out nor
  // painted) until scrolled to; then it is rendered.
  const panel = s.page.locator(`#overview .panel[data-section="${lazy.at(-1).section}"]`);
  const rendered = () => panel.evaluate((p) => p.firstElementChild.checkVisibility({ contentVisibilityAuto: true }));
  assert.ok((await panel.evaluate((p) => p.getBoundingClientRect().top)) > 800);
  assert.equal(await rendered(), false);
  await panel.scrollIntoViewIfNeeded();
  await s.page.waitForFunction((sel) => document.querySelector(sel).firstElementChild.checkVisibility({ contentVisibilityAuto: true }),
    `#overview .panel[data-section="${lazy.at(-1).section}"]`, { timeout: 5_000, polling: 50 });
  assert.equal(await rendered(), true);
});

test('the utilisation chart is drawn with every point of the summary', async () => {
  await s.page.setViewportSize({ width: 1200, height: 900 });
  const r = await openViaInput(s.page, [DEEPSEEK]);
  assert.equal(r.error, null);
  const want = cliSummary([DEEPSEEK]).files[0].utilization.all.length;
  assert.ok(want > 100);
  await s.page.locator('[data-section="utilization"] .chart').scrollIntoViewIfNeeded();
  const points = await s.page.waitForFunction(() => {
    const c = document.querySelector('[data-section="utilization"] .chart');
    return c?.querySelector('canvas') && Number(c.dataset.points) > 0 ? Number(c.dataset.points) : null;
  }, null, { timeout: 10_000, polling: 50 });
  assert.equal(await points.jsonValue(), want);  // one point per bucket
});
