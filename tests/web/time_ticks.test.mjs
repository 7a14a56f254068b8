// X-axis ticks of the time charts (web/app/dashboard/time_ticks.ts, bundled here with esbuild): one
// unit and precision per axis, and a spacing that keeps labels apart, checked against uPlot's way of
// picking the increment from that spacing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTs } from './load_ts.mjs';

const load = () => loadTs('web/app/dashboard/time_ticks.ts');

const measure = (text) => 7 * text.length; // about 12px system-ui

// uPlot 1.6 (findIncr): the first of 1, 2, 2.5, 5 x 10^k at least `space` px apart; ticks at its multiples.
function uplotTicks(lo, hi, dim, space) {
  for (let e = -12; e < 16; e++) {
    for (const m of [1, 2, 2.5, 5]) {
      const incr = +`${m}e${e}`;
      if ((dim * incr) / (hi - lo) < space) continue;
      const ticks = [];
      for (let v = Math.ceil(lo / incr) * incr; v <= hi + 1e-9 * incr; v += incr) ticks.push(v);
      return { incr, ticks };
    }
  }
  throw new Error('no increment');
}

test('one unit and number of decimals per axis, chosen from the increment', async () => {
  const { tickFormat, formatTick } = await load();
  const labels = (incr, lo, hi, ticks) => {
    const f = tickFormat(incr, lo, hi);
    return ticks.map((v) => formatTick(v, f));
  };
  // The review's overlapping axes: "+900.0 ms+950.0 ms+1.00 s" and "+10.00 ms" next to "+100.0 ms".
  assert.deepEqual(labels(50, 855.5, 2078.3, [900, 950, 1000, 1050]), ['+0.90 s', '+0.95 s', '+1.00 s', '+1.05 s']);
  assert.deepEqual(labels(100, 855.5, 2078.3, [900, 1000, 2000]), ['+0.9 s', '+1.0 s', '+2.0 s']);
  assert.deepEqual(labels(10, 0.69, 129.7, [10, 50, 100, 120]), ['+10 ms', '+50 ms', '+100 ms', '+120 ms']);
  assert.deepEqual(labels(2.5, 0, 20, [0, 2.5, 5, 17.5]), ['0.0 ms', '+2.5 ms', '+5.0 ms', '+17.5 ms']);
  assert.deepEqual(labels(0.0002, 0, 0.0012, [0.0002, 0.001]), ['+0.2 µs', '+1.0 µs']);
  assert.deepEqual(labels(60_000, 0, 600_000, [60_000, 600_000]), ['+60 s', '+600 s']);
  assert.deepEqual(labels(5, -20, 40, [-20, -5, 0, 35]), ['−20 ms', '−5 ms', '0 ms', '+35 ms']);
});

test('ticks spaced by tickSpace leave room between labels, at any width and range', async () => {
  const { tickFormat, formatTick, tickSpace } = await load();
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const cases = [
    [855.5, 2078.3, 1230],
    [855.5, 2078.3, 640],
    [0.69, 129.7, 1240],
    [0.69, 129.7, 650],
    [0, 600_000, 700],
  ];
  for (let i = 0; i < 3000; i++) {
    const lo = rand() < 0.5 ? 0 : rand() * 10 ** (rand() * 7 - 3);
    cases.push([lo, lo + 10 ** (rand() * 9 - 4), 200 + rand() * 1800]);
  }
  for (const [lo, hi, dim] of cases) {
    const space = tickSpace(lo, hi, dim, measure);
    const { incr, ticks } = uplotTicks(lo, hi, dim, space);
    const f = tickFormat(incr, lo, hi);
    const texts = ticks.map((v) => formatTick(v, f));
    const px = (dim * incr) / (hi - lo);
    const widest = Math.max(...texts.map(measure));
    assert.ok(
      px >= widest + 16,
      `${lo}..${hi} in ${dim} px: ticks ${px.toFixed(1)} px apart, labels up to ${widest} px: ${texts.join(' ')}`
    );
    // Not needlessly sparse: the next smaller increment would not have fitted its labels.
    const mantissa = incr / 10 ** Math.floor(Math.log10(incr) + 1e-9);
    const before = Math.abs(mantissa - 2.5) < 1e-6 ? incr / 1.25 : incr / 2; // 1 <- 0.5, 2 <- 1, 2.5 <- 2, 5 <- 2.5
    const fb = tickFormat(before, lo, hi);
    const pxBefore = (dim * before) / (hi - lo);
    assert.ok(
      pxBefore < Math.max(measure(formatTick(lo, fb)), measure(formatTick(hi, fb))) + 16,
      `${lo}..${hi} in ${dim} px: ${before} would have fitted too`
    );
    assert.equal(new Set(texts.map((t) => t.replace(/^[+−]?\d+/, 'N').replace(/\d/g, 'd'))).size, 1, texts.join(' '));
  }
});

test("degenerate ranges fall back to uPlot's 50 px", async () => {
  const { tickSpace } = await load();
  assert.equal(tickSpace(5, 5, 800, measure), 50);
  assert.equal(tickSpace(0, 10, 0, measure), 50);
});
