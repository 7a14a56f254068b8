// Links to a trace opened by `?url=`: the link re-opens the trace by itself and checks the content
// hash of what it downloaded against the link's; when the file behind the URL changed, the page says
// the link is stale and still shows the trace as it is now (view links and summary links alike).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { serve } from '../../web/serve.mjs';
import { launch, waitHook, cliSummary, siteCopy } from './share_support.mjs';
import { dataPath } from '../test_data.mjs';

const first = dataPath('kineto/docs/traces/before_fix_trace.json');
const second = dataPath('kineto/docs/traces/after_fix_trace.json');
let copy, server, base;
before(async () => {
  copy = siteCopy({ 'runs/run.json': first });
  server = await serve(copy.dir, 0);
  base = `http://127.0.0.1:${server.address().port}/`;
});
after(() => {
  server?.close();
  copy?.remove();
});

// The CLI's summary of `file` as the page names it (after the URL's last segment).
const expectSummary = (file) => {
  const s = cliSummary(file);
  s.files[0].name = 'run.json';
  return s;
};

async function openLink(ctx, link) {
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(link);
  await waitHook(
    page,
    () =>
      window.__tracewise?.ready &&
      window.__tracewise.summary &&
      window.__tracewise.share?.ready &&
      ['same', 'different', 'unknown'].includes(window.__tracewise.share.match)
  );
  return {
    page,
    errors,
    share: await page.evaluate(() => window.__tracewise.share),
    summary: await page.evaluate(() => window.__tracewise.summary),
  };
}

test(
  'view and summary links of a ?url= trace re-open it, match it, and say when it changed',
  { timeout: 120000 },
  async () => {
    copyFileSync(first, join(copy.dir, 'runs/run.json'));
    let viewLink, summaryLink;
    const a = await launch();
    try {
      const page = await a.ctx.newPage();
      await page.goto(`${base}?url=runs/run.json`);
      await waitHook(page, () => window.__tracewise?.ready && window.__tracewise.summary);
      assert.deepEqual(await page.evaluate(() => window.__tracewise.summary), expectSummary(first));
      await page.fill('[data-table="kernels.top"] input.filter', 'Memset');
      await page.click('#share-actions >> text=Copy link');
      await waitHook(page, () => window.__tracewise.share.lastLink?.includes('h='));
      viewLink = await page.evaluate(() => window.__tracewise.share.lastLink);
      await page.click('#share-actions >> text=Copy summary link');
      await waitHook(page, () => window.__tracewise.share.lastLink?.includes('#s=1.'));
      summaryLink = await page.evaluate(() => window.__tracewise.share.lastLink);
      console.log(`?url= view link: ${viewLink.length} chars, summary link: ${summaryLink.length} chars`);
      for (const l of [viewLink, summaryLink]) assert.ok(l.startsWith(`${base}?url=runs/run.json#`), l);
    } finally {
      await a.close();
    }

    // Unchanged file: both links re-open the trace by themselves and find the same content.
    const b = await launch();
    try {
      const v = await openLink(b.ctx, viewLink);
      assert.deepEqual(v.summary, expectSummary(first));
      assert.equal(v.share.match, 'same');
      assert.equal(v.share.stale, false);
      assert.equal(await v.page.inputValue('[data-table="kernels.top"] input.filter'), 'Memset');
      const s = await openLink(b.ctx, summaryLink);
      assert.equal(s.share.match, 'same');
      assert.match(await s.page.textContent('#share-banner'), /the trace the link was made from/);
      assert.deepEqual([...v.errors, ...s.errors], []);
    } finally {
      await b.close();
    }

    // The file behind the URL changed: the trace opens as it is now, and both links say they are stale.
    copyFileSync(second, join(copy.dir, 'runs/run.json'));
    const c = await launch();
    try {
      for (const [link, what] of [
        [viewLink, 'link'],
        [summaryLink, 'summary link'],
      ]) {
        const r = await openLink(c.ctx, link);
        assert.deepEqual(r.summary, expectSummary(second), what);
        assert.equal(r.share.match, 'different', what);
        assert.equal(r.share.stale, true, what);
        const banner = await r.page.textContent('#share-banner');
        assert.match(banner, new RegExp(`This ${what} is stale: the trace at ${base}runs/run\\.json has changed`));
        assert.equal(await r.page.evaluate(() => window.__tracewise.share.readOnly), false);
        assert.deepEqual(r.errors, []);
      }
    } finally {
      await c.close();
    }
  }
);
