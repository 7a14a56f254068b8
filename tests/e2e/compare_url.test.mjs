// Compare mode from the page's address: `?url=` per file and `#cmp=` (one side per file) open both
// runs straight in Compare mode (no job made across them), and the link the page copies names the
// same URLs and sides, so it reopens the comparison by itself.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { servedSite, waitHook } from './share_support.mjs';
import { CLI, trace } from './helpers.mjs';

const BASE = trace('hta/tests/data/trace_diff/control/control.json.gz');
const CAND = trace('hta/tests/data/trace_diff/test/test.json.gz');
let site;
before(async () => {
  site = await servedSite({ 'runs/control.json.gz': BASE, 'runs/test.json.gz': CAND });
});
after(() => site?.close());

async function openCompared(link) {
  const page = await site.browser.ctx.newPage();
  await page.goto(link);
  await waitHook(page, () => window.__tracewise?.ready && window.__tracewise.compare?.state === 'ready', 90_000);
  return page;
}

test('?url= with #cmp= opens the two runs in Compare mode; the copied link does again', async () => {
  const page = await openCompared(`${site.base}?url=runs/test.json.gz&url=runs/control.json.gz#cmp=cb&tab=compare`);
  const v = await page.evaluate(() => ({
    sides: window.__tracewise.compare.sides,
    diff: window.__tracewise.compare.diff,
    tab: document.querySelector('[role="tab"][aria-selected="true"]').dataset.tab,
    job: document.getElementById('job-tab').hidden,
  }));
  assert.deepEqual(v.sides, ['cand', 'base']);
  assert.equal(v.tab, 'compare');
  assert.equal(v.job, true);
  const cli = JSON.parse(execFileSync(CLI, ['diff', BASE, CAND], { maxBuffer: 1 << 28 }).toString());
  assert.deepEqual(v.diff, cli);

  await page.click('#share-actions >> text=Copy link');
  await waitHook(page, () => window.__tracewise.share?.lastLink);
  const link = await page.evaluate(() => window.__tracewise.share.lastLink);
  assert.match(link, /\?url=runs\/test\.json\.gz&url=runs\/control\.json\.gz#/);
  assert.equal(new URLSearchParams(new URL(link).hash.slice(1)).get('cmp'), 'cb');
  await page.close();

  const again = await openCompared(link);
  assert.deepEqual(await again.evaluate(() => window.__tracewise.compare.sides), ['cand', 'base']);
  assert.equal(await again.evaluate(() => window.__tracewise.compare.diff.verdict.sentence), cli.verdict.sentence);
  await again.close();
});
