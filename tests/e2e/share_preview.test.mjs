// A summary link whose trace the page downloads (`?url=`) shows the link's dashboard read-only at
// once, with a note that the live trace is loading; once the trace has loaded the live dashboard
// replaces it (and the link's hash is checked as for any `?url=` link). The server holds the trace's
// requests back until the test releases them, so "while it loads" is a state the test can look at.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { launch, waitHook, cliSummary, gatedSite, openHeld } from './share_support.mjs';
import { dataPath } from '../test_data.mjs';

const first = dataPath('kineto/docs/traces/before_fix_trace.json');
const second = dataPath('kineto/docs/traces/after_fix_trace.json');
let site, base, gate;
before(async () => {
  site = await gatedSite({ 'runs/run.json': first }, '/runs/');
  ({ base, gate } = site);
});
after(() => site?.close());

const cards = (page) =>
  page.$$eval('#overview [data-card] .card-value', (els) =>
    els.map((e) => `${e.closest('[data-card]').dataset.card}=${e.textContent}`)
  );
const facts = (page) => page.textContent('#overview .facts'); // "Loaded in" only for a loaded trace
const expectSummary = (file) => {
  const s = cliSummary(file);
  s.files[0].name = 'run.json';
  return s;
};

test(
  'a summary link with ?url= shows its dashboard read-only while the trace loads, then the live one',
  { timeout: 120000 },
  async () => {
    copyFileSync(first, join(site.dir, 'runs/run.json'));
    let link, shown;
    const a = await launch();
    try {
      const page = await a.ctx.newPage();
      await page.goto(`${base}?url=runs/run.json`);
      await waitHook(page, () => window.__tracewise?.ready && window.__tracewise.summary);
      shown = await cards(page);
      assert.ok(shown.length > 0);
      await page.fill('[data-table="kernels.top"] input.filter', 'Kern');
      await page.click('#share-actions >> text=Copy summary link');
      await waitHook(page, () => window.__tracewise.share.lastLink?.includes('#s=1.'));
      link = await page.evaluate(() => window.__tracewise.share.lastLink);
      assert.ok(link.startsWith(`${base}?url=runs/run.json#s=1.`), link);
    } finally {
      await a.close();
    }

    const b = await launch();
    try {
      // While the trace is held back: the link's dashboard, read-only, with the link's table filter
      // and a note that the trace is loading; the page is not "ready" (no live summary yet).
      const { page, errors } = await openHeld(b.ctx, link, gate);
      await waitHook(
        page,
        () =>
          window.__tracewise.share.readOnly &&
          document.querySelector('#overview [data-card]') &&
          document.querySelector('[data-table="kernels.top"] input.filter')?.value === 'Kern'
      );
      assert.equal(await page.isVisible('#overview'), true);
      assert.deepEqual(await cards(page), shown);
      assert.doesNotMatch(await facts(page), /Loaded in/, "the link's summary, not a loaded trace");
      assert.match(
        await page.textContent('#share-banner'),
        /Shared summary of run\.json .*read-only while the trace loads/
      );
      assert.equal(await page.evaluate(() => window.__tracewise.ready), false);
      assert.equal(await page.evaluate(() => window.__tracewise.summary), null);
      assert.deepEqual(await page.evaluate(() => window.__tracewise.share.match), 'none');
      const rows = await page.$$eval('[data-table="kernels.top"] tbody tr', (r) => r.map((x) => x.textContent));
      assert.ok(rows.length > 0 && rows.every((r) => /Kernel/.test(r)), rows.join('\n'));

      // Released: the live dashboard replaces it, the hash matches, the filter is kept.
      gate.open();
      await waitHook(
        page,
        () => window.__tracewise.ready && window.__tracewise.summary && window.__tracewise.share.match === 'same'
      );
      assert.deepEqual(await page.evaluate(() => window.__tracewise.summary), expectSummary(first));
      assert.match(await facts(page), /Loaded in/);
      assert.equal(await page.evaluate(() => window.__tracewise.share.readOnly), false);
      assert.match(await page.textContent('#share-banner'), /the trace the link was made from/);
      await waitHook(page, () => document.querySelector('[data-table="kernels.top"] input.filter')?.value === 'Kern');
      assert.deepEqual(await cards(page), shown);
      assert.deepEqual(errors, []);
    } finally {
      await b.close();
    }

    // The file behind the URL changed: the link's dashboard while it loads, then the trace as it is
    // now with the stale-link warning.
    copyFileSync(second, join(site.dir, 'runs/run.json'));
    const c = await launch();
    try {
      const { page, errors } = await openHeld(c.ctx, link, gate);
      await waitHook(page, () => window.__tracewise.share.readOnly && document.querySelector('#overview [data-card]'));
      assert.deepEqual(await cards(page), shown);
      gate.open();
      await waitHook(
        page,
        () => window.__tracewise.ready && window.__tracewise.summary && window.__tracewise.share.match === 'different'
      );
      assert.deepEqual(await page.evaluate(() => window.__tracewise.summary), expectSummary(second));
      assert.equal(await page.evaluate(() => window.__tracewise.share.stale), true);
      assert.equal(await page.evaluate(() => window.__tracewise.share.readOnly), false);
      assert.match(await page.textContent('#share-banner'), /This summary link is stale/);
      assert.match(await facts(page), /Loaded in/, "the live dashboard replaced the link's");
      assert.deepEqual(errors, []);
    } finally {
      await c.close();
    }

    // The URL fails: the link's dashboard stays, and the banner says the trace could not be loaded.
    const d = await launch();
    try {
      const gone = link.replace('?url=runs/run.json', '?url=runs/gone.json');
      const { page, errors } = await openHeld(d.ctx, gone, gate);
      await waitHook(page, () => window.__tracewise.share.readOnly && document.querySelector('#overview [data-card]'));
      gate.open();
      await waitHook(
        page,
        () =>
          window.__tracewise.error !== null &&
          /could not be loaded/.test(document.querySelector('#share-banner')?.textContent ?? '')
      );
      assert.match(await page.textContent('#share-banner'), /gone\.json could not be loaded/);
      assert.deepEqual(await cards(page), shown);
      assert.equal(await page.evaluate(() => window.__tracewise.share.readOnly), true);
      assert.deepEqual(errors, []);
    } finally {
      await d.close();
    }
  }
);
