// Embed options through <tracewise-view>: `panels=timeline` with `range=` shows only the timeline,
// zoomed to that absolute window; `theme` fixes the colours; `panels=chart,table` shows only those
// sections; each iframe is sized from the content height its page reports.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { serve } from '../../web/serve.mjs';
import { root, launch, siteCopy } from './share_support.mjs';
import { dataPath } from '../test_data.mjs';

const trace = dataPath('deepseek_profile_data/train.json');
let app, host, dir, copy, browser, step;

before(async () => {
  // The first step's absolute bounds, as the CLI prints them (beyond 2^53: read from the text).
  const text = execFileSync(resolve(root, process.env.TW_CLI || 'build/native/tracewise'), ['summarize', trace], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  step = /"steps":\[\{"begin_ns":(\d+),"duration_ns":\d+,"end_ns":(\d+)/.exec(text);
  dir = mkdtempSync(join(tmpdir(), 'tw-panels-'));
  copyFileSync(trace, join(dir, 'train.json'));
  // The docs host first: the site's embed-config.json names its origin (no other origin is allowed).
  host = await serve(dir, 0);
  const hostOrigin = `http://127.0.0.1:${host.address().port}`;
  copy = siteCopy({ 'embed-config.json': { text: JSON.stringify({ allowedOrigins: [hostOrigin] }) } });
  app = await serve(copy.dir, 0);
  const appUrl = `http://127.0.0.1:${app.address().port}/`;
  writeFileSync(
    join(dir, 'docs.html'),
    `<!doctype html><meta charset="utf-8"><body style="width:1000px"><h1>docs</h1>
<tracewise-view id="tl" src="train.json" panels="timeline" range="${step?.[1]}-${step?.[2]}" theme="light"></tracewise-view>
<tracewise-view id="ct" src="train.json" panels="chart,table" theme="dark"></tracewise-view>
<script src="${appUrl}tracewise-view.js"></script></body>`
  );
  browser = await launch();
});
after(async () => {
  await browser?.close();
  app?.close();
  host?.close();
  copy?.remove();
  rmSync(dir, { recursive: true, force: true });
});

test(
  'panels, range and theme of two <tracewise-view> elements; iframes follow the reported height',
  { timeout: 90000 },
  async () => {
    assert.ok(step, 'the trace has a step');
    const page = await browser.ctx.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`http://127.0.0.1:${host.address().port}/docs.html`);
    await page.waitForFunction(() => ['tl', 'ct'].every((id) => document.getElementById(id).summary), null, {
      timeout: 60000,
    });
    const frameOf = async (id) => await (await page.$(`#${id} iframe`)).contentFrame();
    const tl = await frameOf('tl');
    const ct = await frameOf('ct');

    // The timeline element: only the timeline, zoomed to the step, light theme.
    await tl.waitForFunction(() => window.__tracewise.timeline?.ready && window.__tracewise.timeline.idle(), null, {
      timeout: 30000,
      polling: 100,
    });
    const t = await tl.evaluate(() => ({
      range: window.__tracewise.timeline.visibleRange(),
      origin: window.__tracewise.timeline.originNs,
      theme: document.documentElement.dataset.theme,
      overview: getComputedStyle(document.getElementById('overview')).display,
      timeline: getComputedStyle(document.getElementById('timeline')).display,
      bg: getComputedStyle(document.documentElement).getPropertyValue('--bg').trim(),
    }));
    const b = Number(BigInt(step[1]) - BigInt(t.origin)),
      e = Number(BigInt(step[2]) - BigInt(t.origin));
    assert.ok(
      t.range.t0 <= b + 1 && t.range.t1 >= e - 1 && t.range.t1 - t.range.t0 < 1.5 * (e - b),
      JSON.stringify({ t, b, e })
    );
    assert.deepEqual([t.theme, t.overview, t.bg], ['light', 'none', '#f6f7f9']);
    assert.notEqual(t.timeline, 'none');

    // The chart + table element: exactly the chart sections and the kernels table, dark theme.
    const c = await ct.evaluate(() => ({
      shown: [...document.querySelectorAll('#overview > *')]
        .filter((el) => getComputedStyle(el).display !== 'none')
        .map((el) => el.dataset.section ?? el.className),
      timeline: getComputedStyle(document.getElementById('timeline')).display,
      theme: document.documentElement.dataset.theme,
    }));
    assert.ok(c.shown.includes('kernels') && c.shown.length >= 2, JSON.stringify(c));
    assert.ok(
      c.shown.every((s) => ['kernels', 'utilization', 'memory-chart', 'temporal'].includes(s)),
      JSON.stringify(c)
    );
    assert.deepEqual([c.timeline, c.theme], ['none', 'dark']);

    // Each iframe's height is its page's content height (as reported by tracewise.height).
    // (The page is cross-origin to the parent, so both sides are read from here; it may still be settling.)
    for (const [id, f] of [
      ['tl', tl],
      ['ct', ct],
    ]) {
      let frameH, contentH;
      for (let i = 0; i < 50; i++) {
        frameH = parseInt(await page.$eval(`#${id} iframe`, (x) => x.style.height));
        contentH = await f.evaluate(() => document.body.scrollHeight);
        if (Math.abs(frameH - contentH) <= 1) break;
        await new Promise((ok) => setTimeout(ok, 200));
      }
      assert.ok(Math.abs(frameH - contentH) <= 1 && frameH > 160, `${id}: iframe ${frameH}px, content ${contentH}px`);
    }
    assert.deepEqual(errors, []);
    await page.close();
  }
);
