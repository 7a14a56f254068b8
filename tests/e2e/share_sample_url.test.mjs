// Links made while the sample is open carry its URL (`?url=samples/...`), as links made on a `?url=`
// trace do, so the receiver's page opens the sample by itself; the address bar's link too, until a
// local file replaces the sample. Links made on a local file carry no `?url=`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve } from '../../web/serve.mjs';
import { site, launch, waitHook, cliSummary, openTraces, openSamplePage, copyLink } from './share_support.mjs';
import { dataPath } from '../test_data.mjs';

const sample = dataPath('hta/tests/data/nccl_parser_config/nccl_data.json.gz'); // = samples/nccl_data.json.gz
const local = dataPath('kineto/docs/traces/before_fix_trace.json');
let server, base;
before(async () => {
  server = await serve(site, 0);
  base = `http://127.0.0.1:${server.address().port}/`;
});
after(() => server?.close());

test(
  'links made on the sample re-open it; links made on a local file carry no ?url=',
  { timeout: 120000 },
  async () => {
    let view, summary;
    const a = await launch();
    try {
      const { page } = await openSamplePage(a.ctx, base);
      await page.click('[data-tab="timeline"]');
      view = await copyLink(page, 'Copy link');
      assert.ok(view.startsWith(`${base}?url=samples/nccl_data.json.gz#`), view);
      assert.match(view, /[#&]tab=timeline(&|$)/);
      summary = await copyLink(page, 'Copy summary link');
      assert.ok(summary.startsWith(`${base}?url=samples/nccl_data.json.gz#s=1.`), summary);
      // The address bar links to the sample too (a reload re-opens it) ...
      await page.waitForFunction(
        () => location.search === '?url=samples/nccl_data.json.gz' && location.hash.includes('h='),
        null,
        { timeout: 10000, polling: 100 }
      );
      // ... until a local file replaces it: then neither the address bar nor the links name the sample.
      await openTraces(page, [local]);
      await page.waitForFunction(() => location.search === '' && location.hash.includes('h='), null, {
        timeout: 10000,
        polling: 100,
      });
      const onLocal = await copyLink(page, 'Copy link');
      assert.ok(onLocal.startsWith(`${base}#`), onLocal);
      assert.ok((await copyLink(page, 'Copy summary link')).startsWith(`${base}#s=1.`));
    } finally {
      await a.close();
    }

    // The receiver opens nothing: the page fetches the sample, finds the same trace, and restores the
    // view (the view link's tab; the summary link says the full view is back).
    for (const [link, check] of [
      [
        view,
        (page) =>
          waitHook(
            page,
            () => document.querySelector('[data-tab="timeline"]')?.getAttribute('aria-selected') === 'true'
          ),
      ],
      [
        summary,
        async (page) => assert.match(await page.textContent('#share-banner'), /the trace the link was made from/),
      ],
    ]) {
      const b = await launch();
      try {
        const page = await b.ctx.newPage();
        const errors = [];
        page.on('pageerror', (e) => errors.push(String(e)));
        await page.goto(link);
        await waitHook(
          page,
          () => window.__tracewise?.ready && window.__tracewise.summary && window.__tracewise.share.match !== 'none'
        );
        assert.deepEqual(await page.evaluate(() => window.__tracewise.summary), cliSummary(sample));
        assert.equal(await page.evaluate(() => window.__tracewise.share.match), 'same');
        await check(page);
        assert.deepEqual(errors, []);
      } finally {
        await b.close();
      }
    }
  }
);

test(
  'a page opened on ?url= that then opens the sample links to the sample, not to its first trace',
  { timeout: 60000 },
  async () => {
    const a = await launch();
    try {
      const { page } = await openSamplePage(a.ctx, `${base}?url=samples/missing.json`);
      const link = await copyLink(page, 'Copy link');
      assert.ok(link.startsWith(`${base}?url=samples/nccl_data.json.gz#`), link);
    } finally {
      await a.close();
    }
  }
);
