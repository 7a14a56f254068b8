// Share links in the browser: a summary link made on one page shows the same numbers in a fresh
// browser (read-only, no trace, with the link's table filter); dropping the same trace then restores
// the full view (content hash); tampered and oversized fragments show an error and the page still
// opens traces.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve } from '../../web/serve.mjs';
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { root, site, launch, waitHook, cliSummary, openTraces } from './share_support.mjs';
import { dataPath } from '../test_data.mjs';

const cli = resolve(root, process.env.TW_CLI || 'build/native/tracewise');

const trace = dataPath('deepseek_profile_data/train.json');
let server, base;
before(async () => {
  server = await serve(site, 0);
  base = `http://127.0.0.1:${server.address().port}/`;
});
after(() => server?.close());

const cards = (page) =>
  page.$$eval('#overview [data-card] .card-value', (els) =>
    els.map((e) => `${e.closest('[data-card]').dataset.card}=${e.textContent}`)
  );

const openTrace = (page, file) => openTraces(page, [file]);

test(
  'summary link round trip in a fresh browser, then the same trace restores the full view',
  { timeout: 60000 },
  async () => {
    const a = await launch();
    let link, shown;
    try {
      const page = await a.ctx.newPage();
      await page.goto(base);
      await openTrace(page, trace);
      assert.deepEqual(await page.evaluate(() => window.__tracewise.summary), cliSummary(trace));
      shown = await cards(page);
      assert.ok(shown.length > 0);
      await page.fill('[data-table="kernels.top"] input.filter', 'gemm'); // travels with the link
      await page.click('#share-actions >> text=Copy summary link');
      await waitHook(page, () => window.__tracewise.share?.lastLink?.includes('#s=1.'));
      link = await page.evaluate(() => window.__tracewise.share.lastLink);
      console.log(`summary link of train.json: ${link.length} chars`);
      assert.ok(link.length <= 8000, 'the whole link, view part included, stays under the 8 KB aim');
      assert.match(link, /&tb=kernels\.top\*\*gemm/);
    } finally {
      await a.close();
    }

    const b = await launch();
    try {
      const page = await b.ctx.newPage();
      const requests = [];
      page.on('request', (r) => requests.push(r.url()));
      await page.goto(link);
      await waitHook(page, () => window.__tracewise?.share?.ready && window.__tracewise.share.readOnly);
      assert.equal(await page.evaluate(() => window.__tracewise.share.error), null);
      assert.deepEqual(await cards(page), shown);
      assert.match(await page.textContent('#share-banner'), /Shared summary of train\.json/);
      assert.ok(!requests.some((u) => u.includes('train.json')), 'the trace is not fetched');
      // The read-only dashboard shows the link's table filter on the rows the link carries.
      await waitHook(page, () => document.querySelector('[data-table="kernels.top"] input.filter')?.value === 'gemm');
      const rows = await page.$$eval('[data-table="kernels.top"] tbody tr', (r) => r.map((x) => x.textContent));
      assert.ok(rows.length > 0 && rows.every((r) => /gemm/i.test(r)), rows.join('\n'));
      await openTrace(page, trace);
      await waitHook(page, () => window.__tracewise.share.match === 'same');
      assert.deepEqual(await cards(page), shown);
    } finally {
      await b.close();
    }
  }
);

test('tampered and oversized fragments show an error; the page still opens a trace', { timeout: 60000 }, async () => {
  const b = await launch();
  try {
    const page = await b.ctx.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    for (const frag of [
      '#s=1.AAAAsomething-not-deflate_',
      '#s=1.' + 'A'.repeat(70000),
      '#s=7.abc',
      '#s=1.%00%ff<img src=x onerror=alert(1)>',
    ]) {
      await page.goto(base + frag);
      await waitHook(page, () => window.__tracewise?.share?.ready && window.__tracewise.share.error);
      const banner = await page.textContent('#share-banner');
      assert.match(banner, /cannot be opened|too long|newer tracewise|damaged/);
      assert.equal(await page.$('#share-banner img'), null);
    }
    // A view link with junk keys: what is valid is kept, the rest reported.
    await page.goto(base + '#tab=nonsense&tl=%7B');
    await waitHook(page, () => window.__tracewise?.share?.ready);
    assert.match(await page.textContent('#share-banner'), /ignored: tab, tl/);
    await openTrace(page, trace);
    assert.equal(await page.evaluate(() => window.__tracewise.error), null);
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});

test(
  'a hand-written view link (tab + absolute t0/t1) opens the timeline at that range once the trace is open',
  { timeout: 60000 },
  async () => {
    const summary = cliSummary(trace).files[0];
    const step = summary.steps[0]; // absolute ns, exact in the CLI's JSON text
    const text = execFileSync(cli, ['summarize', trace], { encoding: 'utf8' });
    const abs = /"steps":\[\{"begin_ns":(\d+),"duration_ns":\d+,"end_ns":(\d+)/.exec(text);
    assert.ok(abs && step, 'the trace has a step');
    const a = await launch();
    try {
      const page = await a.ctx.newPage();
      await page.goto(`${base}#tab=timeline&t0=${abs[1]}&t1=${abs[2]}`);
      await openTrace(page, trace);
      await waitHook(page, () => window.__tracewise.timeline?.ready && window.__tracewise.timeline.idle());
      const r = await page.evaluate(() => ({
        ...window.__tracewise.timeline.visibleRange(),
        origin: window.__tracewise.timeline.originNs,
      }));
      const want0 = Number(BigInt(abs[1]) - BigInt(r.origin));
      const want1 = Number(BigInt(abs[2]) - BigInt(r.origin));
      assert.ok(Math.abs(r.t0 - want0) < 1000 && Math.abs(r.t1 - want1) < 1000, JSON.stringify({ r, want0, want1 }));
    } finally {
      await a.close();
    }
  }
);
