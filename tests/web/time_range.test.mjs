// The timeline's range rules (web/timeline/time_range.ts) and gestures (web/timeline/gestures.ts),
// bundled with esbuild: absolute times to relative exactly beyond 2^53, the range kept within the
// trace's bounds, a slice framed or centred, a link's two slices kept in view; the wheel, keys and a
// drag's click slop.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadTs } from './load_ts.mjs';

let r;
let g;
before(async () => {
  r = await loadTs('web/timeline/time_range.ts');
  g = await loadTs('web/timeline/gestures.ts');
});

test('absolute times become relative to the origin, exactly as bigint or decimal text', () => {
  const origin = '1700000000123456789';
  assert.equal(r.relativeNs('1700000000123457789', origin), 1000);
  assert.equal(r.relativeNs(1700000000123457789n, origin), 1000);
  assert.equal(r.relativeNs(' 1700000000123456790 ', origin), 1);
  assert.equal(r.relativeNs(5000, '1000'), 4000);
  assert.equal(r.relativeNs('12.5', '2'), 10.5, 'not an integer: taken as a number');
});

test('a range keeps a minimum and maximum span and stays near the trace', () => {
  assert.deepEqual(r.clampRange(100, 101, 1e6), { t0: 90.5, t1: 110.5 });
  const wide = r.clampRange(-1e9, 1e9, 1e6);
  assert.equal(wide.t1 - wide.t0, 4e6);
  const far = r.clampRange(1e9, 1e9 + 10, 1e6);
  assert.equal(far.t1, 2.5e6);
  assert.deepEqual(r.fitRange(1e6), { t0: -1e4, t1: 1.01e6 });
  assert.deepEqual(r.paddedRange(2000, 1000), { t0: 950, t1: 2050 });
  assert.deepEqual(r.paddedRange(100, 100), { t0: 90, t1: 110 }, 'an instant: the minimum span');
  assert.deepEqual(r.zoomedRange({ t0: 0, t1: 100 }, 50, 0.5), { t0: 25, t1: 75 });
});

test('a slice is framed when asked or hard to see, centred when outside, left alone when in view', () => {
  const view = { t0: 0, t1: 1000 };
  assert.deepEqual(r.rangeForSlice(view, { startNs: 100, durNs: 100 }, true), { t0: 75, t1: 225 });
  assert.deepEqual(r.rangeForSlice(view, { startNs: 0, durNs: 900 }, false), { t0: -225, t1: 1125 }, 'too long');
  assert.equal(r.rangeForSlice(view, { startNs: 100, durNs: 100 }, false), null);
  assert.deepEqual(r.rangeForSlice(view, { startNs: 2000, durNs: 100 }, false), { t0: 1550, t1: 2550 });
  const near = r.rangeForJump(view, { startNs: 100, durNs: 100 }, { startNs: 900, durNs: 100 });
  assert.deepEqual(near, { t0: -170, t1: 1270 });
  const far = r.rangeForJump(view, { startNs: 100, durNs: 100 }, { startNs: 1e6, durNs: 100 });
  assert.deepEqual(far, { t0: 1e6 - 25, t1: 1e6 + 125 });
});

const wheel = (o) => ({ deltaMode: 0, deltaX: 0, deltaY: 0, shiftKey: false, ctrlKey: false, ...o });

test('the wheel scrolls over the names or with shift, pans sideways, zooms otherwise (pinch faster)', () => {
  assert.deepEqual(g.wheelAction(wheel({ deltaY: 30 }), 10, 1000, 600), { kind: 'scroll', dy: 30 });
  assert.deepEqual(g.wheelAction(wheel({ deltaX: 40, shiftKey: true }), 500, 1000, 600), { kind: 'scroll', dy: 40 });
  assert.deepEqual(g.wheelAction(wheel({ deltaY: 1, deltaMode: 1, shiftKey: true }), 500, 1000, 600), {
    kind: 'scroll',
    dy: 16,
  });
  const pan = g.wheelAction(wheel({ deltaX: 81 }), 500, 1000, 600);
  assert.equal(pan.kind, 'pan');
  assert.equal(pan.fraction, 81 / (1000 - 190));
  assert.deepEqual(g.wheelAction(wheel({ deltaY: 100 }), 500, 1000, 600), { kind: 'zoom', factor: Math.exp(0.25) });
  assert.deepEqual(g.wheelAction(wheel({ deltaY: 10, ctrlKey: true }), 500, 1000, 600), {
    kind: 'zoom',
    factor: Math.exp(0.1),
  });
});

test('keys act unless a modifier is held or a form field has the focus', () => {
  const key = (k, o = {}) => g.keyAction({ key: k, ctrlKey: false, metaKey: false, altKey: false, target: null, ...o });
  assert.equal(key('W'), 'zoomIn');
  assert.equal(key('s'), 'zoomOut');
  assert.equal(key('Escape'), 'clear');
  assert.equal(key('q'), null);
  assert.equal(key('w', { ctrlKey: true }), null);
  assert.equal(key('w', { target: { tagName: 'INPUT', isContentEditable: false } }), null);
});

test('a drag is a click until it moves more than 3 px; a pan moves the range with it', () => {
  const d = new g.Drag(500, 100, 0, 810, 40, 'pan');
  assert.equal(d.to({ x: 502, y: 101 }), false);
  assert.equal(d.to({ x: 400, y: 90 }), true);
  assert.equal(d.to({ x: 500, y: 100 }), true, 'moved once: a drag from then on');
  assert.deepEqual(d.pannedTo({ x: 400, y: 90 }, 1000), { t0: 100, t1: 910, dy: 10 });
});
