// A view link of a local file, opened without it: the page says which file to open (its name and
// size from the link's `f=`, its content hash from `h=`) instead of a blank start page, and when the
// file dropped has another hash, which file was expected and which one was opened. A link made
// before `f=` existed (its hash only) still says what it can.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { serve } from '../../web/serve.mjs';
import { site, launch, waitHook, openTraces, copyLink } from './share_support.mjs';
import { openViaDrop } from './helpers.mjs';
import { dataPath } from '../test_data.mjs';

const train = dataPath('deepseek_profile_data/train.json');
const other = dataPath('hta/tests/data/trace_filter/sampled_rank-0.json.gz');
let server, base;
before(async () => {
  server = await serve(site, 0);
  base = `http://127.0.0.1:${server.address().port}/`;
});
after(() => server?.close());

const banner = (page) => page.textContent('#share-banner');
const bytes = (path) => statSync(path).size.toLocaleString('en-US');

test('a view link names the file to open; a different file dropped is told apart', { timeout: 90000 }, async () => {
  let link;
  const a = await launch();
  try {
    const page = await a.ctx.newPage();
    await page.goto(base);
    await openTraces(page, [train]);
    link = await copyLink(page, 'Copy link');
  } finally {
    await a.close();
  }
  const hash = /[#&]h=([0-9a-f]{32})(&|$)/.exec(link)?.[1];
  assert.ok(hash, link);
  // The link carries the file's size and name (a local file: no `?url=` to fetch it from).
  assert.match(link, new RegExp(`[#&]f=${statSync(train).size}\\*train\\.json(&|$)`));
  assert.ok(!link.includes('?url='), link);

  const b = await launch();
  try {
    const page = await b.ctx.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(link);
    await waitHook(page, () => window.__tracewise?.share?.ready);
    const asked = await banner(page);
    assert.match(asked, /This link shows a view of train\.json/);
    assert.ok(asked.includes(`${bytes(train)} bytes`), asked);
    assert.ok(asked.includes(`content hash ${hash}`), asked);
    assert.match(asked, /Open that file here/);
    assert.equal(await page.isVisible('#empty .drop-card'), true, 'the drop card is there to drop it on');

    // Another file dropped: the page says which was expected and which was opened.
    await openViaDrop(page, [other]);
    await waitHook(page, () => window.__tracewise.share.match === 'different');
    const told = await banner(page);
    assert.match(told, /not the one the link was made from/);
    assert.ok(told.includes(`Made from: train.json (`) && told.includes(`content hash ${hash}`), told);
    assert.ok(told.includes(`Opened: ${basename(other)} (`) && told.includes(`${bytes(other)} bytes`), told);
    assert.doesNotMatch(told, /This link shows a view/);

    // The right file dropped: the prompt goes, the view is applied.
    await page.goto('about:blank');
    await page.goto(link);
    await waitHook(page, () => window.__tracewise?.share?.ready);
    await openViaDrop(page, [train]);
    await waitHook(page, () => window.__tracewise.share.match === 'same');
    assert.doesNotMatch(await banner(page), /This link shows a view/);

    // An older link (its hash only, no `f=`) still says what to look for.
    await page.goto('about:blank');
    await page.goto(link.replace(/&f=[^&]*/g, ''));
    await waitHook(page, () => window.__tracewise?.share?.ready);
    const old = await banner(page);
    assert.match(old, /This link shows a view of a trace \(content hash [0-9a-f]{32}\)/);
    assert.ok(old.includes(hash), old);
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});
