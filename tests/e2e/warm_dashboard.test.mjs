// The page's side of the spare worker's warm-up (web/app/dashboard/warm_dashboard.ts): while nothing
// is opened, the warm-up trace's dashboard is built off the page (kWarmBuilds = 3 times), so the
// first real dashboard runs warm code; nothing of it reaches the page, and none is built once a file is on screen.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openViaInput, cliSummary, trace, waitWarmUps, recordOpenReplies } from './helpers.mjs';

const A = trace('hta/tests/data/nccl_parser_config/nccl_data.json.gz');

let s;
before(async () => {
  s = await start();
  // Counts the elements the page creates, from the next navigation on.
  await s.page.addInitScript(() => {
    window.__created = 0;
    const make = Document.prototype.createElement;
    Document.prototype.createElement = function (...a) {
      window.__created++;
      return make.apply(this, a);
    };
  });
  await recordOpenReplies(s.page);
  await s.page.goto(s.url);
});
after(async () => {
  await s?.close();
});

const created = () => s.page.evaluate(() => window.__created);

test('while nothing is opened, the warm-up dashboard is built off the page; the first file shows its own', async () => {
  await waitWarmUps(s.page, 1);
  // The warm-up trace has hundreds of steps, kernels and operators: thousands of elements.
  await s.page.waitForFunction(() => window.__created > 2000, null, { timeout: 15_000, polling: 50 });
  // Three times over, each to its end, so that V8 compiles its code with its mid tier beforehand.
  await s.page.waitForFunction(() => window.__tracewise.warmDashboards === 3, null, { timeout: 15_000, polling: 50 });
  const page = await s.page.evaluate(() => ({
    overview: document.querySelectorAll('#overview *').length,
    tables: document.querySelectorAll('[data-table]').length,
    ready: window.__tracewise.ready,
    summary: window.__tracewise.summary,
    empty: !document.getElementById('empty').hidden,
  }));
  assert.deepEqual(page, { overview: 0, tables: 0, ready: false, summary: null, empty: true });
  const { summary, error } = await openViaInput(s.page, [A]);
  assert.equal(error, null);
  assert.deepEqual(summary, cliSummary([A]));
  const title = await s.page.textContent('#overview .file-title h1');
  assert.equal(title, summary.files[0].name);
  assert.ok((await s.page.evaluate(() => document.querySelectorAll('#overview [data-table]').length)) > 3);
  assert.deepEqual(s.pageErrors, []);
});

test("with a file on screen, the next spare's warm-up builds no dashboard", async () => {
  await waitWarmUps(s.page, 2);
  const before = await created();
  await s.page.waitForTimeout(1500);
  const grown = (await created()) - before;
  assert.ok(grown < 300, `${grown} elements created while idle with a file on screen`);
});
