// A summary link with `?url=` shows its dashboard read-only while the trace downloads. Dropping
// another file then replaces both (the page opens what was dropped); when that file fails to load,
// the banner says what happened to the dropped file, not that the link's dashboard stays. The same
// for a summary link without `?url=` (nothing downloads; its dashboard is replaced all the same).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, waitHook, gatedSite, openHeld, copyLink } from './share_support.mjs';
import { dataPath } from '../test_data.mjs';
import { openViaDrop } from './helpers.mjs';

const run = dataPath('kineto/docs/traces/before_fix_trace.json');
const notTrace = dataPath('hta/tests/data/execution_trace/benchmark_simple_add_et.json.gz'); // JSON, not a trace
let site, base, gate;
before(async () => {
  site = await gatedSite({ 'runs/run.json': run }, '/runs/');
  ({ base, gate } = site);
});
after(() => site?.close());

let link; // a summary link made on runs/run.json opened through ?url=

test(
  "a file dropped on a ?url= summary link's dashboard that fails to load: the banner is about that file",
  { timeout: 120000 },
  async () => {
    const a = await launch();
    try {
      const page = await a.ctx.newPage();
      await page.goto(`${base}?url=runs/run.json`);
      await waitHook(page, () => window.__tracewise?.ready && window.__tracewise.summary);
      link = await copyLink(page, 'Copy summary link');
      assert.ok(link.startsWith(`${base}?url=runs/run.json#s=1.`), link);
    } finally {
      await a.close();
    }

    const b = await launch();
    try {
      const { page, errors } = await openHeld(b.ctx, link, gate);
      await waitHook(page, () => window.__tracewise.share.readOnly && document.querySelector('#overview [data-card]'));
      assert.match(await page.textContent('#share-banner'), /read-only while the trace loads/);

      const res = await openViaDrop(page, [notTrace]);
      assert.equal(res.summary, null);
      assert.match(res.error, /^benchmark_simple_add_et\.json\.gz: Not a trace/);
      await waitHook(page, () =>
        /benchmark_simple_add_et/.test(document.querySelector('#share-banner')?.textContent ?? '')
      );
      const banner = await page.textContent('#share-banner');
      assert.match(banner, /^benchmark_simple_add_et\.json\.gz could not be loaded \(Not a trace/);
      assert.match(banner, /the summary link's read-only dashboard is no longer shown/);
      assert.doesNotMatch(banner, /stays|while the trace loads/);
      assert.equal(await page.$eval('#share-banner .share-msg', (e) => e.getAttribute('role')), 'alert');
      // What the banner says is what the page does: the link's dashboard is gone, nothing is read-only.
      assert.equal(await page.$('#overview [data-card]'), null);
      assert.equal(await page.evaluate(() => window.__tracewise.share.readOnly), false);

      // The link's download was stopped with it: letting it through brings nothing back.
      gate.open();
      await new Promise((ok) => setTimeout(ok, 1500));
      assert.equal(await page.$('#overview [data-card]'), null);
      assert.equal(await page.textContent('#share-banner'), banner);
      assert.deepEqual(errors, []);
    } finally {
      await b.close();
    }
  }
);

// Without `?url=` the link's dashboard stands in for nothing; a dropped file replaces it all the same.
test(
  "a file dropped on a summary link's dashboard that fails to load: the banner is about that file",
  { timeout: 60000 },
  async () => {
    assert.ok(link, 'made by the test above');
    const b = await launch();
    try {
      const page = await b.ctx.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(link.replace('?url=runs/run.json', ''));
      await waitHook(
        page,
        () => window.__tracewise?.share?.readOnly && document.querySelector('#overview [data-card]')
      );
      assert.match(await page.textContent('#share-banner'), /Drop the same trace here/);
      await openViaDrop(page, [notTrace]);
      await waitHook(page, () =>
        /benchmark_simple_add_et/.test(document.querySelector('#share-banner')?.textContent ?? '')
      );
      const banner = await page.textContent('#share-banner');
      assert.match(
        banner,
        /^benchmark_simple_add_et\.json\.gz could not be loaded \(Not a trace.*\); the summary link's read-only dashboard is no longer shown/
      );
      assert.doesNotMatch(banner, /download/);
      assert.equal(await page.$('#overview [data-card]'), null);
      assert.equal(await page.evaluate(() => window.__tracewise.share.readOnly), false);
      assert.deepEqual(errors, []);
    } finally {
      await b.close();
    }
  }
);
