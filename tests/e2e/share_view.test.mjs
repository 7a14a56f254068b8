// View links in the browser: the dashboard tables' filters and sort orders travel in the link and
// come back in a fresh browser once the same trace is open (also on another rank than the first,
// where the dashboard is rebuilt first); the link's content hashes tell a different trace apart.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve } from '../../web/serve.mjs';
import { site, launch, waitHook, openTraces, openLinkThenTraces } from './share_support.mjs';
import { dataPath } from '../test_data.mjs';

const train = dataPath('deepseek_profile_data/train.json');
const ranks = [0, 1].map((r) => dataPath(`hta/tests/data/trace_filter/sampled_rank-${r}.json.gz`));
let server, base;
before(async () => {
  server = await serve(site, 0);
  base = `http://127.0.0.1:${server.address().port}/`;
});
after(() => server?.close());

// What a table shows: its filter text, its header (with the sort arrow) and its rows' text.
const tableView = (page, id) =>
  page.$eval(`[data-table="${id}"]`, (t) => ({
    filter: t.querySelector('input.filter').value,
    head: [...t.querySelectorAll('th')].map((x) => x.textContent).join('|'),
    rows: [...t.querySelectorAll('tbody tr')].map((r) => r.textContent),
  }));

async function copyLink(page) {
  await page.evaluate(() => {
    window.__tracewise.share.lastLink = null;
  });
  await page.click('#share-actions >> text=Copy link');
  await waitHook(page, () => window.__tracewise.share.lastLink);
  return page.evaluate(() => window.__tracewise.share.lastLink);
}

test(
  'table filters and sort orders round-trip through a view link in a fresh browser',
  { timeout: 90000 },
  async () => {
    let link, kernels, ops;
    const a = await launch();
    try {
      const page = await a.ctx.newPage();
      await page.goto(base);
      await openTraces(page, [train]);
      const before = await tableView(page, 'kernels.top');
      await page.fill('[data-table="kernels.top"] input.filter', 'gemm');
      await page.click('[data-table="kernels.top"] th[data-key="count"]'); // numbers sort descending first
      await page.fill('[data-table="operators.top"] input.filter', 'aten::');
      await page.click('[data-table="operators.top"] th[data-key="name"]'); // text sorts ascending first
      kernels = await tableView(page, 'kernels.top');
      ops = await tableView(page, 'operators.top');
      assert.notDeepEqual(kernels.rows, before.rows, 'the filter changed what the table shows');
      assert.match(kernels.head, /Count ▾/);
      link = await copyLink(page);
      console.log(`view link with two tables: ${link.length} chars: ${link.slice(link.indexOf('#'))}`);
      assert.match(link, /[#&]tb=kernels\.top\*-count\*gemm(&|$)/);
      assert.match(link, /[#&]tb=operators\.top\*name\*aten%3A%3A(&|$)/);
      assert.match(link, /[#&]h=[0-9a-f]{32}(&|$)/);
      // The address bar follows the view too.
      await waitHook(page, () => location.hash.includes('tb=kernels.top'));
    } finally {
      await a.close();
    }

    const b = await launch();
    try {
      const page = await b.ctx.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await openLinkThenTraces(page, link, [train]);
      await waitHook(page, () => window.__tracewise.share.match === 'same');
      assert.deepEqual(await tableView(page, 'kernels.top'), kernels);
      assert.deepEqual(await tableView(page, 'operators.top'), ops);
      // The same link on a different trace: the tables are restored where they exist, and the page says the trace differs.
      await page.goto('about:blank');
      await openLinkThenTraces(page, link, [ranks[0]]);
      await waitHook(page, () => window.__tracewise.share.match === 'different');
      assert.match(await page.textContent('#share-banner'), /not the one the link was made from/);
      assert.equal(await page.inputValue('[data-table="kernels.top"] input.filter'), 'gemm');
      // Once the address bar follows this page's own view, the next trace opened is not compared with
      // the link any more, and the note about the previous one goes.
      await waitHook(page, () => window.__tracewise.share.mode === 'none' && location.hash.includes('h='));
      await openTraces(page, [ranks[1]]);
      assert.equal(await page.textContent('#share-banner'), '');
      assert.equal(await page.evaluate(() => window.__tracewise.share.match), 'different'); // unchanged: no new comparison
      assert.deepEqual(errors, []);
    } finally {
      await b.close();
    }
  }
);

test(
  'a view link on the second rank restores the rank, then its tables (after the dashboard is rebuilt)',
  { timeout: 90000 },
  async () => {
    let link, shown;
    const a = await launch();
    try {
      const page = await a.ctx.newPage();
      await page.goto(base);
      await openTraces(page, ranks);
      await page.click('[data-tab="overview"]'); // the Job view comes first
      await page.click('.file-head .chip >> nth=1');
      await waitHook(
        page,
        () =>
          document.querySelector('.file-head .chip.active') === document.querySelectorAll('.file-head .chip')[1] &&
          document.querySelector('[data-table="kernels.top"]')
      );
      await page.fill('[data-table="kernels.top"] input.filter', 'nccl');
      await page.click('[data-table="kernels.top"] th[data-key="total_ns"]');
      await page.click('[data-table="kernels.top"] th[data-key="total_ns"]'); // second click: ascending
      shown = await tableView(page, 'kernels.top');
      assert.match(shown.head, /▴/);
      link = await copyLink(page);
      assert.match(link, /file=1/);
      assert.match(link, /tb=kernels\.top\*total_ns\*nccl/);
      assert.match(link, /h=[0-9a-f]{32}%2C[0-9a-f]{32}/);
    } finally {
      await a.close();
    }

    const b = await launch();
    try {
      const page = await b.ctx.newPage();
      await openLinkThenTraces(page, link, ranks);
      await waitHook(
        page,
        () =>
          window.__tracewise.share.match === 'same' &&
          document.querySelector('[data-table="kernels.top"] input.filter')?.value === 'nccl'
      );
      assert.equal(
        await page.evaluate(() =>
          [...document.querySelectorAll('.file-head .chip')].findIndex((c) => c.classList.contains('active'))
        ),
        1
      );
      assert.deepEqual(await tableView(page, 'kernels.top'), shown);
    } finally {
      await b.close();
    }
  }
);

test(
  'hand-edited table keys: invalid ones are reported, valid ones applied; no script runs',
  { timeout: 60000 },
  async () => {
    const b = await launch();
    try {
      const page = await b.ctx.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(
        `${base}#tb=kernels.top**<img src=x onerror=alert(1)>&tb=bogus&tb=operators.top*no_such_column*x&h=zz`
      );
      await waitHook(page, () => window.__tracewise?.share?.ready);
      assert.match(await page.textContent('#share-banner'), /ignored: tb, h/);
      await openTraces(page, [train]);
      await waitHook(page, () =>
        document.querySelector('[data-table="kernels.top"] input.filter')?.value.startsWith('<img')
      );
      assert.equal(await page.$('#overview img'), null);
      assert.equal(await page.$$eval('[data-table="kernels.top"] tbody tr', (r) => r.length), 0); // nothing matches that text
      // A sort on a column the table lacks leaves that table as it was.
      assert.equal(await page.inputValue('[data-table="operators.top"] input.filter'), '');
      assert.deepEqual(errors, []);
    } finally {
      await b.close();
    }
  }
);

test(
  'the timeline part of a view link (range, search, colour mode, selected event) round-trips in a fresh browser',
  { timeout: 90000 },
  async () => {
    const idle = (page) =>
      waitHook(page, () => window.__tracewise.timeline?.ready && window.__tracewise.timeline.idle());
    const snapshot = (page) =>
      page.evaluate(() => {
        const t = window.__tracewise.timeline;
        return {
          range: t.visibleRange(),
          search: document.querySelector('#timeline [data-testid="timeline-search"]')?.value,
          hits: t.searchCount,
          colorBy: t.colorBy,
          selected: t.selectedId,
        };
      });
    let link, shown;
    const a = await launch();
    try {
      const page = await a.ctx.newPage();
      await page.goto(base);
      await openTraces(page, [train]);
      await page.click('[data-tab="timeline"]');
      await idle(page);
      const r = await page.evaluate(() => window.__tracewise.timeline.visibleRange());
      const span = r.t1 - r.t0;
      await page.evaluate(
        ({ t0, t1 }) => window.__tracewise.timeline.view.setViewState({ t0, t1, search: 'gemm', colorBy: 'name' }),
        { t0: r.t0 + span / 4, t1: r.t0 + span / 2 }
      );
      await waitHook(page, () => window.__tracewise.timeline.searchCount > 0);
      await idle(page);
      const at = await page.evaluate(() => window.__tracewise.timeline.locate('gemm'));
      assert.ok(at, 'a gemm kernel is drawn in the range');
      await page.mouse.click(at.x, at.y);
      await waitHook(page, () => window.__tracewise.timeline.selectedId !== null);
      shown = await snapshot(page);
      link = await copyLink(page);
      console.log(`view link with timeline state: ${link.length} chars`);
      assert.match(link, /tab=timeline/);
    } finally {
      await a.close();
    }

    const b = await launch();
    try {
      const page = await b.ctx.newPage();
      await openLinkThenTraces(page, link, [train]);
      await waitHook(
        page,
        () =>
          window.__tracewise.share.match === 'same' &&
          window.__tracewise.timeline?.ready &&
          window.__tracewise.timeline.selectedId !== null &&
          window.__tracewise.timeline.searchCount > 0
      );
      await idle(page);
      const got = await snapshot(page);
      assert.equal(await page.getAttribute('[data-tab="timeline"]', 'aria-selected'), 'true');
      assert.deepEqual({ ...got, range: undefined }, { ...shown, range: undefined });
      assert.ok(
        Math.abs(got.range.t0 - shown.range.t0) <= 1 && Math.abs(got.range.t1 - shown.range.t1) <= 1,
        JSON.stringify({ got, shown })
      );
    } finally {
      await b.close();
    }
  }
);
