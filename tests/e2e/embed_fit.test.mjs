// The embedded timeline in an iframe of a fixed, small height: it ends inside the frame (the page
// does not overflow it) and scrolls its own tracks, so the last one can be brought into view with
// the wheel over the lane names. The parent page is on the page's own origin; the trace is a `?url=`
// of that origin.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve } from '../../web/serve.mjs';
import { siteCopy, launch } from './share_support.mjs';
import { dataPath } from '../test_data.mjs';

const kFrameH = 320;
let copy, server, base, browser;

before(async () => {
  copy = siteCopy({
    'fit/parent.html': {
      text: `<!doctype html><meta charset="utf-8"><body style="margin:0"><iframe id="f" style="width:900px;height:${kFrameH}px;border:0" src="../embed.html?panels=timeline&url=fit/train.json"></iframe></body>`,
    },
    'fit/train.json': dataPath('deepseek_profile_data/train.json'),
  });
  server = await serve(copy.dir, 0);
  base = `http://127.0.0.1:${server.address().port}/`;
  browser = await launch();
});
after(async () => {
  await browser?.close();
  server?.close();
  copy?.remove();
});

test(
  'the embedded timeline fits a frame of fixed height and scrolls to its last track',
  { timeout: 90000 },
  async () => {
    const page = await browser.ctx.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${base}fit/parent.html`);
    const frame = await (await page.$('#f')).contentFrame();
    await frame.waitForFunction(() => window.__tracewise?.timeline?.ready && window.__tracewise.timeline.idle(), null, {
      timeout: 60000,
      polling: 100,
    });
    const box = () =>
      frame.evaluate(() => {
        const r = document.getElementById('timeline').getBoundingClientRect();
        const c = document.querySelector('#timeline canvas').getBoundingClientRect();
        return {
          top: r.top,
          bottom: r.bottom,
          canvasBottom: c.bottom,
          inner: innerHeight,
          pageHeight: document.documentElement.scrollHeight,
        };
      });
    // Fitted once the frame's layout settled (the fit follows resizes): waited for, then asserted.
    for (let i = 0; i < 50 && (await box()).bottom > kFrameH; i++) await new Promise((ok) => setTimeout(ok, 200));
    const b = await box();
    assert.equal(b.inner, kFrameH);
    assert.ok(
      b.bottom <= b.inner && b.canvasBottom <= b.inner,
      `the timeline ends inside the frame: ${JSON.stringify(b)}`
    );
    assert.ok(b.bottom - b.top > 0.6 * kFrameH, `and uses it: ${JSON.stringify(b)}`);
    assert.ok(b.pageHeight <= b.inner, `the page does not overflow the frame: ${JSON.stringify(b)}`);

    // More tracks than the frame shows: the wheel over the lane names scrolls down to the last one.
    // The last lane drawn (of an open group: a collapsed group shows its header only).
    const { lanes, last } = await frame.evaluate(() => {
      const t = window.__tracewise.timeline;
      let l = t.lanes.length - 1;
      while (l >= 0 && t.pointAt(0, l) === null) l--;
      return { lanes: t.lanes.length, last: l };
    });
    assert.ok(last > 0, `${lanes} lanes`);
    const rowOnScreen = () =>
      frame.evaluate((lane) => {
        const p = window.__tracewise.timeline.pointAt(0, lane);
        const c = document.querySelector('#timeline canvas').getBoundingClientRect();
        return p !== null && p.y >= c.top && p.y <= c.bottom && p.y <= innerHeight;
      }, last);
    assert.equal(await rowOnScreen(), false, `the last of ${lanes} lanes starts below the fold`);
    const canvas = await frame.evaluate(() => {
      const c = document.querySelector('#timeline canvas').getBoundingClientRect();
      return { x: c.left + 60, y: c.top + c.height / 2 };
    });
    await page.mouse.move(canvas.x, canvas.y); // the frame sits at the parent's top left corner
    for (let i = 0; i < 200 && !(await rowOnScreen()); i++) {
      await page.mouse.wheel(0, 400);
      await frame.waitForFunction(() => window.__tracewise.timeline.idle(), null, { timeout: 10000, polling: 50 });
    }
    assert.equal(await rowOnScreen(), true, 'the last lane scrolled into view');
    assert.ok((await box()).bottom <= kFrameH, 'the timeline still ends inside the frame');
    assert.deepEqual(errors, []);
    await page.close();
  }
);
