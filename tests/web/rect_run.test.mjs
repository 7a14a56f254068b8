// How the timeline fills slices (web/timeline/rect_run.ts): a wide slice is its own rect one pixel
// short (a gap to its neighbour); touching narrow slices of one row, colour and dimming are filled
// as one rect; the pixels filled, with their colour and dimming, are exactly those of filling each
// slice on its own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTs } from './load_ts.mjs';

const { RectRun, kWide } = await loadTs('web/timeline/rect_run.ts');

// A fake 2D context that records each fillRect as [x, y, w, h, fillStyle, globalAlpha].
function recorder() {
  const calls = [];
  const ctx = {
    fillStyle: '',
    globalAlpha: 1,
    fillRect(x, y, w, h) {
      calls.push([x, y, w, h, this.fillStyle, this.globalAlpha]);
    },
  };
  return { ctx, calls };
}

// Pixel -> 'colour@alpha' for a list of rects; a pixel filled twice differently is a conflict.
function paint(calls) {
  const px = new Map();
  for (const [x, y, w, h, color, alpha] of calls) {
    for (let i = x; i < x + w; i++)
      for (let j = y; j < y + h; j++) {
        const key = `${i},${j}`,
          v = `${color}@${alpha}`;
        px.set(key, px.has(key) && px.get(key) !== v ? 'conflict' : v);
      }
  }
  return px;
}

// Each slice on its own, as the timeline drew them before runs: a wide one a pixel short.
function oneByOne(slices, h, gap = true) {
  return slices.map(([x0, x1, y, color, dim, wide]) => [
    x0,
    y,
    (wide && gap ? Math.max(x0 + 1, x1 - 1) : x1) - x0,
    h,
    color,
    dim ? 0.3 : 1,
  ]);
}

test('touching narrow slices of one row and colour become one rect; gaps, rows, colours, dimming and wide slices split runs', () => {
  const { ctx, calls } = recorder();
  const run = new RectRun(ctx, 17);
  const slices = [
    [200, 201, 30, 'red', false, false],
    [201, 203, 30, 'red', false, false], // touches: same run
    [202, 204, 30, 'red', false, false], // overlaps by a pixel (the 1 px minimum width): same run
    [205, 206, 30, 'red', false, false], // a one-pixel gap stays visible
    [206, 207, 30, 'blue', false, false], // another colour
    [207, 208, 30, 'blue', true, false], // dimmed (a search is active and it does not match)
    [208, 209, 48, 'blue', true, false], // next row
    [209, 220, 48, 'blue', true, true], // wide: its own rect, a pixel short
    [220, 221, 48, 'blue', true, false],
    [230, 231, 48, 'blue', true, true], // wide but one pixel left of it on screen: no gap
  ];
  for (const s of slices) run.add(...s);
  run.flush();
  assert.deepEqual(calls, [
    [200, 30, 4, 17, 'red', 1],
    [205, 30, 1, 17, 'red', 1],
    [206, 30, 1, 17, 'blue', 1],
    [207, 30, 1, 17, 'blue', 0.3],
    [208, 48, 1, 17, 'blue', 0.3],
    [209, 48, 10, 17, 'blue', 0.3],
    [220, 48, 1, 17, 'blue', 0.3],
    [230, 48, 1, 17, 'blue', 0.3],
  ]);
  assert.equal(ctx.globalAlpha, 1, 'dimming is undone after each dimmed rect');
  assert.deepEqual(paint(calls), paint(oneByOne(slices, 17)));
});

test('random rows of slices: the same pixels as one fillRect per slice, with far fewer rects', () => {
  let seed = 7;
  const rnd = (n) => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) % n;
  }; // xorshift32
  for (let round = 0; round < 60; round++) {
    const gap = round % 3 !== 0; // the overlap lane draws wide slices whole
    const slices = [];
    for (let row = 0; row < 4; row++) {
      let x = 190 + rnd(5);
      for (let n = rnd(60); n > 0; n--) {
        const x0 = x - rnd(2); // now and then overlapping the previous by a pixel
        const x1 = x0 + 1 + (rnd(20) === 0 ? rnd(40) : rnd(2)); // mostly 1-2 px, as zoomed out
        slices.push([x0, x1, 24 + 18 * row, ['a', 'b'][rnd(10) === 0 ? 1 : 0], rnd(12) === 0, x1 - x0 >= kWide]);
        x = x1 + (rnd(20) === 0 ? 1 + rnd(3) : 0);
      }
    }
    const { ctx, calls } = recorder();
    const run = new RectRun(ctx, 17, gap);
    for (const s of slices) run.add(...s);
    run.flush();
    assert.deepEqual(paint(calls), paint(oneByOne(slices, 17, gap)), `round ${round}`);
    if (slices.length > 100)
      assert.ok(
        calls.length < slices.length * 0.6,
        `round ${round}: ${calls.length} rects for ${slices.length} slices`
      );
  }
});

test('slices out of order: one before the pending run is neither swallowed nor cut', () => {
  for (const slices of [
    [
      [300, 302],
      [290, 292],
    ],
    [
      [300, 302],
      [299, 301],
    ],
    [
      [300, 302],
      [298, 300],
    ],
  ]) {
    const { ctx, calls } = recorder();
    const run = new RectRun(ctx, 10);
    for (const [x0, x1] of slices) run.add(x0, x1, 0, 'red', false, false);
    run.flush();
    assert.deepEqual(
      paint(calls),
      paint(slices.map(([x0, x1]) => [x0, 0, x1 - x0, 10, 'red', 1])),
      JSON.stringify(slices)
    );
  }
});
