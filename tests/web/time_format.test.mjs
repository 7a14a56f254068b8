// Unit tests of the timeline's time text (web/timeline/time_format.ts, bundled with esbuild).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTs } from './load_ts.mjs';

const m = await loadTs('web/timeline/time_format.ts');

test('ruler ticks: one unit per ruler, decimals from the step', () => {
  assert.equal(m.formatTick(20e6, 20e6, 133e6), '20 ms');
  assert.equal(m.formatTick(12_850_000, 10_000, 12_950_000), '12.85 ms');
  assert.equal(m.formatTick(12_850_010, 10, 12_950_000), '12.85001 ms');
  assert.equal(m.formatTick(500, 100, 900), '500 ns');
  assert.equal(m.formatTick(-2e6, 1e6, 5e6), '-2 ms');
  assert.equal(m.formatTick(3e9, 1e9, 5e9), '3 s');
});

test('nice steps are 1, 2 or 5 x 10^k and at least minPx apart', () => {
  for (const nsPerPx of [0.01, 0.3, 7, 1234, 5e6, 3e9]) {
    const s = m.niceStep(nsPerPx, 90);
    assert.ok(s / nsPerPx >= 90 || s === 1, `${nsPerPx} -> ${s}`);
    const mant = s / 10 ** Math.floor(Math.log10(s) + 1e-9);
    assert.ok(
      [1, 2, 5].some((k) => Math.abs(mant - k) < 1e-9),
      `${s}`
    );
  }
});

test('durations and absolute times', () => {
  assert.equal(m.formatDuration(52_000), '52.0 µs');
  assert.equal(m.formatDuration(0), '0 ns');
  assert.equal(m.formatDuration(1.5e9), '1.50 s');
  assert.equal(m.formatDuration(NaN), '—');
  assert.equal(m.absoluteNs('1740461679470630000', 12_900_000), '1740461679483530000');
  assert.equal(m.absoluteNs('not a number', 1), '?');
});
