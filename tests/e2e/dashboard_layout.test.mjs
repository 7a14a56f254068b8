// How the dashboard is laid out at the end of a load (web/app/dashboard/dashboard.ts, charts.ts):
// the panels below the headline cards are laid out only once scrolled near (content-visibility),
// those holding a form field too (whose table rows are skipped on their own, as autofill lays such
// panels out), and their fields work once scrolled to; and a chart is made empty and drawn with its
// data in a task of its own, with every point.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openViaInput, cliSummary, trace } from './helpers.mjs';

const DEEPSEEK = trace('deepseek_profile_data/train.json');

let s;
before(async () => {
  s = await start();
});
after(async () => {
  await s?.close();
});

test('panels below the cards are laid out when near the viewport, fields and all; a far filter works', async () => {
  await s.page.setViewportSize({ width: 1200, height: 400 });
  const r = await openViaInput(s.page, [DEEPSEEK]);
  assert.equal(r.error, null);
  const panels = await s.page.$$eval('#overview > *', (els) =>
    els.map((p) => ({
      section: p.dataset.section ?? p.className,
      panel: p.classList.contains('panel'),
      fields: p.querySelectorAll('input, select, textarea').length,
      near: p.classList.contains('layout-when-near'),
      cv: getComputedStyle(p).contentVisibility,
    }))
  );
  // The first screen, laid out at once: the file's head, its verdict, the headline cards.
  const [head, verdict, cards, ...rest] = panels;
  assert.ok(
    !head.near && !verdict.near && verdict.section === 'verdict' && !cards.near && cards.section === 'cards',
    JSON.stringify(panels.slice(0, 3))
  );
  const lazy = rest.filter((p) => p.panel);
  assert.ok(lazy.length >= 8 && lazy.filter((p) => p.fields > 0).length >= 3, JSON.stringify(lazy));
  for (const p of lazy) assert.ok(p.near && p.cv === 'auto', JSON.stringify(p));
  // Far below a 400 px viewport, the last panel and a table with a filter are skipped (their content
  // neither laid out nor painted) until scrolled to; then they are rendered.
  const rendered = (sel) =>
    s.page.$eval(sel, (p) => p.firstElementChild.checkVisibility({ contentVisibilityAuto: true }));
  const kernels = '#overview .panel:has([data-table="kernels.top"])';
  for (const sel of [`#overview .panel[data-section="${lazy.at(-1).section}"]`, kernels]) {
    assert.ok((await s.page.$eval(sel, (p) => p.getBoundingClientRect().top)) > 800, sel);
    assert.equal(await rendered(sel), false, sel);
  }
  await s.page.locator(`#overview .panel[data-section="${lazy.at(-1).section}"]`).scrollIntoViewIfNeeded();
  await s.page.waitForFunction(
    (sel) => document.querySelector(sel).firstElementChild.checkVisibility({ contentVisibilityAuto: true }),
    `#overview .panel[data-section="${lazy.at(-1).section}"]`,
    { timeout: 5_000, polling: 50 }
  );
  // The kernels table's filter, typed into as a user would (scrolled to first), filters its rows.
  const table = s.page.locator('[data-table="kernels.top"]');
  const before = await table.locator('tbody tr').count();
  await table.locator('input.filter').fill('dpsk');
  assert.equal(await rendered(kernels), true);
  const names = await table.locator('tbody tr td:first-child').allTextContents();
  assert.ok(names.length > 0 && names.length < before && names.every((n) => /dpsk/i.test(n)), JSON.stringify(names));
});

test('the utilisation chart is drawn with every point of the summary', async () => {
  await s.page.setViewportSize({ width: 1200, height: 900 });
  const r = await openViaInput(s.page, [DEEPSEEK]);
  assert.equal(r.error, null);
  const want = cliSummary([DEEPSEEK]).files[0].utilization.all.length;
  assert.ok(want > 100);
  await s.page.locator('[data-section="utilization"] .chart').scrollIntoViewIfNeeded();
  const points = await s.page.waitForFunction(
    () => {
      const c = document.querySelector('[data-section="utilization"] .chart');
      return c?.querySelector('canvas') && Number(c.dataset.points) > 0 ? Number(c.dataset.points) : null;
    },
    null,
    { timeout: 10_000, polling: 50 }
  );
  assert.equal(await points.jsonValue(), want); // one point per bucket
});
