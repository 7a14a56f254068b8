// The timeline keeps what the user looks at in view (DeepSeek trace): a clicked slice stays on screen
// when the details panel takes room, the hover tip follows view changes and stays inside the stage,
// a new search starts at the first match, a plain range link drops an earlier search, the wheel
// scrolls in whole pixels, F scrolls back to the top, and the overlap lane's name is drawn whole.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start } from './helpers.mjs';
import { idle, showTimeline, textsDrawnZooming } from './timeline_helpers.mjs';

let t;
before(async () => {
  t = await start();
  await showTimeline(t.page, 'deepseek_profile_data/train.json');
});
after(async () => {
  await t?.close();
});

const kRulerH = 24; // web/timeline/render.ts
const tl = (page, f, arg) => page.evaluate(f, arg);

// Client y range of the selected slice's row, and the canvas's track area.
const selectedRow = (page) =>
  tl(page, () => {
    const h = window.__tracewise.timeline,
      d = h.details.details;
    const p = h.pointAt(d.startNs + d.durNs / 2, d.lane, d.depth);
    const r = document.querySelector('[data-testid="timeline-canvas"]').getBoundingClientRect();
    return { y: p.y, top: r.top, bottom: r.bottom };
  });

test('the overlap lane name is drawn whole, before its row labels', async () => {
  const { page } = t;
  const texts = await textsDrawnZooming(page, 1000, 1);
  assert.ok(texts.includes('comm overlap (GPU 0)'), texts.filter((x) => x.startsWith('comm')).join(' | '));
  assert.ok(texts.includes('comm hidden') && texts.includes('comm exposed'));
});

test('a clicked slice low on the stage stays in view when the details panel opens, and on a resize', async () => {
  const { page } = t;
  await page.keyboard.press('f');
  await idle(page);
  const at = await tl(page, () => window.__tracewise.timeline.locate('internode::combine<'));
  const before = await tl(page, () =>
    document.querySelector('[data-testid="timeline-canvas"]').getBoundingClientRect().toJSON()
  );
  assert.ok(
    at && at.y > before.top + before.height * 0.6,
    `the kernel is low on the stage (${at?.y} in ${before.top}..${before.bottom})`
  );
  await page.mouse.click(at.x, at.y);
  await page.waitForFunction((id) => window.__tracewise.timeline.details?.details?.id === id, at.id, {
    timeout: 10_000,
  });
  await idle(page);
  let row = await selectedRow(page);
  assert.ok(row.bottom < before.bottom - 100, 'the panel took room from the stage');
  assert.ok(
    row.y > row.top + kRulerH && row.y < row.bottom,
    `selected row at ${row.y}, track area ${row.top + kRulerH}..${row.bottom}`
  );
  const size = page.viewportSize();
  await page.setViewportSize({ width: size.width, height: size.height - 150 });
  try {
    await page.waitForFunction(
      (b) => document.querySelector('[data-testid="timeline-canvas"]').getBoundingClientRect().bottom < b - 50,
      row.bottom,
      { timeout: 5_000 }
    );
    await idle(page);
    row = await selectedRow(page);
    assert.ok(
      row.y > row.top + kRulerH && row.y < row.bottom,
      `after the resize: selected row at ${row.y}, track area ${row.top + kRulerH}..${row.bottom}`
    );
  } finally {
    await page.setViewportSize(size);
  }
});

test('the wheel scrolls in whole pixels; F fits all and scrolls back to the top', async () => {
  const { page } = t; // the details panel is open: the lanes do not fit, they scroll
  const r = await tl(page, () =>
    document.querySelector('[data-testid="timeline-canvas"]').getBoundingClientRect().toJSON()
  );
  await page.mouse.move(r.left + 40, r.top + r.height / 2); // over the lane names: the wheel scrolls
  await page.keyboard.press('f'); // from the top
  assert.equal(await tl(page, () => window.__tracewise.timeline.scrollY), 0);
  // A trackpad's fractional delta, less than the lanes can scroll: rows stay on whole pixels.
  await page.mouse.wheel(0, 40.4);
  await page.waitForFunction(() => window.__tracewise.timeline.scrollY > 0, null, { timeout: 5_000 });
  const y = await tl(page, () => window.__tracewise.timeline.scrollY);
  assert.equal(y, 40);
  await page.keyboard.press('f');
  assert.equal(await tl(page, () => window.__tracewise.timeline.scrollY), 0);
  await page.keyboard.press('Escape');
  await idle(page);
});

test('the hover tip stays inside the stage and follows a view change without a pointer move', async () => {
  const { page } = t;
  // Zoom into the middle of the first combine kernel (a long name), so it spans the stage.
  await tl(page, async () => {
    const h = window.__tracewise.timeline;
    h.view.highlight({ name: 'internode::combine<' });
  });
  await page.waitForFunction(
    () => window.__tracewise.timeline.details?.details?.name?.includes('internode::combine<'),
    null,
    { timeout: 10_000 }
  );
  const d = await tl(page, () => window.__tracewise.timeline.details.details);
  await tl(
    page,
    (k) => {
      const h = window.__tracewise.timeline,
        o = BigInt(h.originNs);
      h.view.zoomTo(
        o + BigInt(Math.round(k.startNs + k.durNs * 0.3)),
        o + BigInt(Math.round(k.startNs + k.durNs * 0.6))
      );
    },
    d
  );
  await idle(page);
  const r = await tl(page, () =>
    document.querySelector('[data-testid="timeline-stage"]').getBoundingClientRect().toJSON()
  );
  const p = await tl(page, (k) => window.__tracewise.timeline.pointAt(k.startNs + k.durNs / 2, k.lane, k.depth), d);
  await page.mouse.move(r.right - 6, p.y);
  await page.waitForFunction(() => !document.querySelector('.twtl-tip').hidden, null, { timeout: 5_000 });
  // The tip learns its size once laid out (a ResizeObserver, hover_tip.ts) and is placed again then.
  await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
  const tip = await tl(page, () => {
    const e = document.querySelector('.twtl-tip');
    return { text: e.textContent, ...e.getBoundingClientRect().toJSON() };
  });
  assert.match(tip.text, /internode::combine</);
  assert.ok(tip.width > 250, `a long tip (${tip.width} px)`);
  assert.ok(
    tip.left >= r.left && tip.right <= r.right && tip.bottom <= r.bottom,
    `tip ${JSON.stringify(tip)} inside the stage ${JSON.stringify(r)}`
  );
  // F puts the pointer past the trace's end: nothing is under it, the tip goes.
  await page.keyboard.press('f');
  await page
    .waitForFunction(() => document.querySelector('.twtl-tip').hidden, null, { timeout: 2_000 })
    .catch(() => {});
  assert.equal(await tl(page, () => document.querySelector('.twtl-tip').hidden), true, 'the tip is gone after F');
  await page.mouse.move(5, 5);
  await page.keyboard.press('Escape');
  await idle(page);
});

test('a new search starts at the first match in time, wherever the view is; a name link too', async () => {
  const { page } = t;
  const last = await tl(page, () => {
    const h = window.__tracewise.timeline,
      o = BigInt(h.originNs),
      r = h.visibleRange();
    h.view.zoomTo(o + BigInt(Math.round(r.t1 * 0.7)), o + BigInt(Math.round(r.t1 * 0.95)));
    return h.visibleRange();
  });
  await idle(page);
  await page.fill('[data-testid="timeline-search"]', 'internode::dispatch<');
  await page.press('[data-testid="timeline-search"]', 'Enter');
  await page.waitForFunction(
    () => window.__tracewise.timeline.details?.details?.name?.includes('internode::dispatch<'),
    null,
    { timeout: 10_000 }
  );
  await idle(page);
  const n = await tl(page, () => window.__tracewise.timeline.searchCount);
  assert.ok(n > 2, `${n} matches`);
  assert.equal(await page.textContent('[data-testid="timeline-search-count"]'), `1 / ${n}`);
  const first = await tl(page, () => window.__tracewise.timeline.details.details);
  assert.ok(
    first.startNs < last.t0,
    `the first match (${first.startNs}) is before the view it was searched from (${last.t0})`
  );
  await page.click('[data-testid="timeline-search-next"]');
  await page.waitForFunction((id) => window.__tracewise.timeline.details?.details?.id !== id, first.id, {
    timeout: 10_000,
  });
  assert.equal(await page.textContent('[data-testid="timeline-search-count"]'), `2 / ${n}`);
  // Back from a new query: the last match.
  await page.fill('[data-testid="timeline-search"]', 'internode::combine<');
  await page.press('[data-testid="timeline-search"]', 'Shift+Enter');
  await page.waitForFunction(
    () =>
      /^\d+ \/ \d+$/.test(document.querySelector('[data-testid="timeline-search-count"]').textContent) &&
      window.__tracewise.timeline.details?.details?.name?.includes('internode::combine<'),
    null,
    { timeout: 10_000 }
  );
  const m = await tl(page, () => window.__tracewise.timeline.searchCount);
  assert.equal(await page.textContent('[data-testid="timeline-search-count"]'), `${m} / ${m}`);
  // A dashboard name link (highlight without a range) selects the first match even when the query is
  // already the current one.
  await tl(page, () => window.__tracewise.timeline.view.highlight({ name: 'internode::combine<' }));
  await page.waitForFunction(
    (k) => document.querySelector('[data-testid="timeline-search-count"]').textContent === `1 / ${k}`,
    m,
    { timeout: 10_000 }
  );
});

test('a dashboard range link drops the earlier search, so the range is not drawn dimmed', async () => {
  const { page } = t;
  assert.ok((await tl(page, () => window.__tracewise.timeline.searchCount)) > 0, 'a search is active');
  await page.click('[data-tab="overview"]');
  const link = await page.$('.tl-link:not(.name)');
  assert.ok(link, 'the dashboard has range links');
  await link.click();
  await idle(page);
  assert.equal(await page.inputValue('[data-testid="timeline-search"]'), '');
  assert.equal(await tl(page, () => window.__tracewise.timeline.searchCount), 0);
  assert.equal(await tl(page, () => window.__tracewise.timeline.view.getViewState().search), undefined);
  assert.deepEqual(t.pageErrors, []);
});

test('colouring: by class for a Kineto trace, by name for a trace whose slices have no class', async () => {
  const { page } = t;
  assert.equal(await tl(page, () => window.__tracewise.timeline.colorBy), 'class'); // DeepSeek (before)
  await showTimeline(page, 'speedscope/sample/profiles/Chrome/116/Trace-20230603T221323.json');
  assert.equal(await tl(page, () => window.__tracewise.timeline.colorBy), 'name');
  assert.equal(await page.$eval('.twtl-bar select', (s) => s.value), 'name');
  // A choice made by the user is kept.
  await page.selectOption('.twtl-bar select', 'class');
  await idle(page);
  assert.equal(await tl(page, () => window.__tracewise.timeline.colorBy), 'class');
});

test('lanes scrolled under the ruler are cut at its edge: the ruler over the gutter is unchanged', async () => {
  const { page } = t;
  await showTimeline(page, 'deepseek_profile_data/train.json');
  const size = page.viewportSize();
  await page.setViewportSize({ width: size.width, height: 420 }); // short enough to scroll the lanes
  const gutterRuler = () =>
    tl(page, () => {
      const c = document.querySelector('[data-testid="timeline-canvas"]');
      const dpr = c.width / c.getBoundingClientRect().width;
      // The ruler's band over the gutter (left 150 px, top 24 px): only the ruler is drawn there.
      const px = c.getContext('2d').getImageData(0, 0, Math.round(150 * dpr), Math.round(24 * dpr)).data;
      let sum = 0;
      for (let i = 0; i < px.length; i++) sum = (sum * 31 + px[i]) >>> 0;
      return sum;
    });
  await page.keyboard.press('f');
  await idle(page);
  const top = await gutterRuler();
  const box = await page.$eval('[data-testid="timeline-canvas"]', (c) => {
    const r = c.getBoundingClientRect();
    return { x: r.left + 40, y: r.top + 100 };
  });
  for (const dy of [7, 13, 29]) {
    // wheel over the gutter scrolls vertically; names land across the ruler's edge
    await page.mouse.move(box.x, box.y);
    await page.mouse.wheel(0, dy);
    await idle(page);
    assert.ok((await tl(page, () => window.__tracewise.timeline.scrollY)) > 0);
    assert.equal(await gutterRuler(), top, `scrolled by ${dy}`);
  }
  await page.setViewportSize(size);
});
