// The dashboard's time charts (web/app/dashboard/charts.ts, series.ts): x tick labels that do not
// run into each other, in one unit and precision per axis; launch queue lengths drawn as steps on one
// shared x range with synced cursors; a legend that names the series until the pointer is on a chart.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openViaInput, trace } from './helpers.mjs';

const DEEPSEEK = trace('deepseek_profile_data/train.json'); // queue of stream 23: 4 -> 0 in steps, 20 ms apart
const RANKS = [
  trace('hta/tests/data/trace_filter/sampled_rank-0.json.gz'),
  trace('hta/tests/data/trace_filter/sampled_rank-1.json.gz'),
];
// The font charts.ts draws axis labels in.
const AXIS_FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif';

let s;
before(async () => {
  s = await start();
});
after(async () => {
  await s?.close();
});

async function open(paths, width) {
  await s.page.setViewportSize({ width, height: 900 });
  const r = await openViaInput(s.page, paths);
  assert.equal(r.error, null);
  if (paths.length > 1) await s.page.click('[data-tab="overview"]'); // the Job view comes first
  await s.page.evaluate(() =>
    document.querySelectorAll('details[data-section="queues"]').forEach((d) => {
      d.open = true;
    })
  );
  // Charts are made once their panel comes near the viewport (below the verdicts and the cards on a
  // narrow page), in a task after their first size; a resize redraws them in the next frame.
  await s.page.evaluate(() =>
    document.querySelector('[data-section="utilization"]')?.scrollIntoView({ block: 'start' })
  );
  await s.page.waitForFunction(
    () => {
      const charts = [
        ...document.querySelectorAll('[data-section="utilization"] .chart, [data-section="queues"] .chart'),
      ];
      return charts.length > 0 && charts.every((c) => c.querySelector('canvas'));
    },
    null,
    { timeout: 10_000, polling: 50 }
  );
  await s.page.waitForTimeout(200);
}

// Every time chart's x tick labels as drawn: position (css px in the plot), text, width in the axis font.
function xTicks() {
  return s.page.evaluate((font) => {
    const ctx = document.createElement('canvas').getContext('2d');
    ctx.font = font;
    return [...document.querySelectorAll('.chart[data-x-ticks]')].map((c) => ({
      section: c.closest('[data-section]')?.dataset.section,
      ticks: JSON.parse(c.dataset.xTicks).map(([x, text]) => ({ x, text, w: ctx.measureText(text).width })),
    }));
  }, AXIS_FONT);
}

for (const [name, paths] of [
  ['DeepSeek', [DEEPSEEK]],
  ['two ranks', RANKS],
]) {
  for (const width of [800, 1400]) {
    test(`${name} at ${width} px: x tick labels apart, one unit and precision per axis`, async () => {
      await open(paths, width);
      const charts = await xTicks();
      assert.ok(charts.length >= 2, `utilisation and queue charts with their ticks (data-x-ticks): ${charts.length}`);
      for (const { section, ticks } of charts) {
        assert.ok(ticks.length >= 3, `${section}: ${ticks.length} ticks`);
        const forms = new Set(ticks.map((t) => t.text.replace(/^[+−]?\d+/, 'N').replace(/\d/g, 'd')));
        assert.equal(
          forms.size,
          1,
          `${section}: one unit and number of decimals: ${ticks.map((t) => t.text).join(' ')}`
        );
        for (let i = 1; i < ticks.length; i++) {
          const a = ticks[i - 1],
            b = ticks[i];
          const room = b.x - a.x - (a.w + b.w) / 2; // labels are centred on their tick
          assert.ok(room >= 8, `${section}: "${a.text}" and "${b.text}" ${room.toFixed(1)} px apart`);
        }
      }
    });
  }
}

// Top stroke row per pixel column of a chart's line (the series colour --c1): a step chart holds each
// count level flat, so its columns share a few rows (one per level); a slope crosses every row.
function strokeRows(section, heading) {
  return s.page.evaluate(
    ([section, heading]) => {
      const sub = [...document.querySelectorAll(`[data-section="${section}"] .subsection`)].find((e) =>
        e.querySelector('h4')?.textContent.startsWith(heading)
      );
      const canvas = sub?.querySelector('.chart canvas');
      if (!canvas) return null;
      const hex = getComputedStyle(document.documentElement).getPropertyValue('--c1').trim();
      const want = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
      const { width, height } = canvas;
      const px = canvas.getContext('2d').getImageData(0, 0, width, height).data;
      const rows = new Set();
      let columns = 0;
      for (let x = 0; x < width; x++) {
        for (let y = 0; y < height; y++) {
          const k = 4 * (y * width + x);
          if (
            px[k + 3] > 200 &&
            Math.abs(px[k] - want[0]) + Math.abs(px[k + 1] - want[1]) + Math.abs(px[k + 2] - want[2]) < 60
          ) {
            rows.add(y);
            columns++;
            break;
          }
        }
      }
      return { rows: rows.size, columns };
    },
    [section, heading]
  );
}

test('launch queue lengths are steps on one x range, and their cursors move together', async () => {
  await open([DEEPSEEK], 1400);
  // Stream 23 (max 4): the drawn line sits on at most a few rows per level, not on every row of a ramp.
  const rows = await strokeRows('queues', 'GPU 0 stream 23');
  assert.ok(rows && rows.columns > 500, `the line is drawn across the chart: ${JSON.stringify(rows)}`);
  assert.ok(rows.rows <= 2 * (4 + 1), `${rows.rows} distinct rows: a stepped line has about one per level (0..4)`);

  const q = await s.page.$$eval('[data-section="queues"] .chart', (els) =>
    els.map((e) => ({ paths: e.dataset.paths, range: e.dataset.xRange }))
  );
  assert.ok(q.length >= 2, 'DeepSeek has several launch queues');
  assert.ok(
    q.every((c) => c.paths === 'stepped'),
    JSON.stringify(q)
  );
  const util = await s.page.$eval('[data-section="utilization"] .chart', (e) => e.dataset.xRange);
  assert.deepEqual(new Set(q.map((c) => c.range)), new Set([util]), 'every time chart of the file has one x range');

  // Hovering one queue chart shows the cursor's x in every chart of the file, with the value held there.
  const charts = s.page.locator('[data-section="queues"] .chart');
  await charts.nth(1).scrollIntoViewIfNeeded();
  const box = await charts.nth(1).locator('.u-over').boundingBox();
  await s.page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2);
  await s.page.waitForTimeout(100);
  const legends = await s.page.$$eval(
    '[data-section="queues"] .chart .chart-legend, [data-section="utilization"] .chart .chart-legend',
    (els) => els.map((e) => e.textContent)
  );
  const at = legends.map((t) => /at (\+[\d.]+ \S+)/.exec(t)?.[1]);
  assert.ok(at.every(Boolean), `every chart of the file shows the cursor's x: ${legends.join(' | ')}`);
  assert.equal(new Set(at.slice(1)).size, 1, `the queue charts show the same x: ${legends.join(' | ')}`);
  await s.page.mouse.move(2, 2);
});

test('legends name the series until the pointer is on a chart, then show values', async () => {
  await open([DEEPSEEK], 1400);
  await s.page.mouse.move(2, 2);
  await s.page.waitForTimeout(100);
  const chart = s.page.locator('[data-section="utilization"] .chart');
  const idle = (await chart.textContent()).trim();
  assert.equal(idle, 'all devices', `idle legend: "${idle}"`);
  await chart.scrollIntoViewIfNeeded();
  const box = await chart.locator('.u-over').boundingBox();
  await s.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await s.page.waitForTimeout(100);
  const hover = (await chart.textContent()).trim();
  assert.match(hover, /^all devices\s*\d+%\s*at \+[\d.]+ (ms|s)$/, `hover legend: "${hover}"`);
  await s.page.mouse.move(2, 2);
});

test('dragging across a synced chart opens that range in the timeline', async () => {
  await open([DEEPSEEK], 1400);
  const chart = s.page.locator('[data-section="queues"] .chart').nth(1);
  await chart.scrollIntoViewIfNeeded();
  const [lo, hi] = (await chart.getAttribute('data-x-range')).split(',').map(Number); // ms from the trace start
  const box = await chart.locator('.u-over').boundingBox();
  const y = box.y + box.height / 2;
  await s.page.mouse.move(box.x + box.width * 0.25, y);
  await s.page.mouse.down();
  await s.page.mouse.move(box.x + box.width * 0.5, y, { steps: 5 });
  await s.page.mouse.up();
  await s.page.waitForFunction(() => window.__tracewise.timeline?.ready && window.__tracewise.timeline.idle(), null, {
    timeout: 20_000,
    polling: 50,
  });
  assert.equal(await s.page.getAttribute('[data-tab="timeline"]', 'aria-selected'), 'true');
  const { t0, t1 } = await s.page.evaluate(() => window.__tracewise.timeline.visibleRange());
  const want0 = (lo + 0.25 * (hi - lo)) * 1e6,
    want1 = (lo + 0.5 * (hi - lo)) * 1e6;
  // The timeline shows the range with a little margin on each side.
  const slack = 0.02 * (want1 - want0);
  assert.ok(
    t0 <= want0 + slack && t1 >= want1 - slack && t1 - t0 < 1.3 * (want1 - want0),
    `timeline ${t0}..${t1}, dragged ${want0}..${want1}`
  );
  await s.page.click('[data-tab="overview"]').catch(() => {});
});
