// How a flame graph is drawn (web/flame/render.ts) on a recording 2D context: only rows and frames
// on screen, a run of frames narrower than a pixel drawn as one sliver per pixel column, labels
// where they fit, search misses dimmed; and the exact-name query "Show in timeline" searches with
// (web/timeline/lane_match.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTs } from './load_ts.mjs';

const { emptyTree } = await loadTs('web/flame/call_tree.ts');
const { childrenOf, totalOf } = await loadTs('web/flame/tree_shape.ts');
const { layoutFlame } = await loadTs('web/flame/layout.ts');
const { drawFlame, kRowH, rowAt, unitAt } = await loadTs('web/flame/render.ts');
const { exactNameQuery } = await loadTs('web/timeline/lane_match.ts');
const { frameTip, share } = await loadTs('web/flame/tip.ts');

// root (value 2N) > wide (N) and N tiny children of 1 each under 'many' (N).
function tree(n) {
  const t = emptyTree('top_down', ['root', 'wide', 'many', 'tiny'], 3 + n);
  t.parent.set([-1, 0, 0]);
  t.name.set([0, 1, 2]);
  t.totalNs.set([2 * n, n, n]);
  for (let i = 0; i < n; i++) {
    t.parent[3 + i] = 2;
    t.name[3 + i] = 3;
    t.totalNs[3 + i] = 1;
  }
  for (let i = 0; i < t.size; i++) t.depth[i] = t.parent[i] < 0 ? 0 : t.depth[t.parent[i]] + 1;
  return t;
}

function recorder() {
  const rects = [],
    texts = [];
  const ctx = {
    fillStyle: '',
    strokeStyle: '',
    lineWidth: 1,
    globalAlpha: 1,
    font: '',
    textBaseline: '',
    clearRect() {},
    fillRect(x, y, w, h) {
      rects.push({ x, y, w, h, fill: this.fillStyle });
    },
    strokeRect() {},
    fillText(s, x, y) {
      texts.push({ s, x, y });
    },
    measureText: (s) => ({ width: s.length * 6 }),
  };
  return { ctx, rects, texts };
}

function frame(t, l, over = {}) {
  return {
    tree: t,
    layout: l,
    v0: 0,
    v1: 1,
    scrollY: 0,
    width: 1000,
    height: 200,
    flip: false,
    match: null,
    selected: -1,
    fg: '#000',
    ...over,
  };
}

test('frames narrower than a pixel are coalesced: one sliver per pixel column, side by side as one rect', () => {
  const n = 100_000;
  const t = tree(n);
  const l = layoutFlame(t, childrenOf(t), totalOf(t, 'cpu'), 0);
  const { ctx, rects, texts } = recorder();
  const stats = drawFlame(ctx, frame(t, l));
  assert.equal(stats.drawn, 3); // root, wide, many
  assert.ok(stats.coalesced <= 500 && stats.coalesced >= 499, `${stats.coalesced} slivers`); // 'many' is 500 px wide
  // Adjacent slivers are one rect: 'many' is one grey run here, no column filled twice.
  const slivers = rects.filter((r) => r.y === 2 * kRowH && r.fill.startsWith('rgba'));
  assert.equal(slivers.length, 1);
  assert.equal(slivers[0].w, stats.coalesced);
  assert.deepEqual(
    texts.map((x) => x.s),
    ['root', 'wide', 'many']
  );
});

test('zoomed in, the tiny frames are drawn one by one, only those on screen', () => {
  const n = 100_000;
  const t = tree(n);
  const l = layoutFlame(t, childrenOf(t), totalOf(t, 'cpu'), 0);
  const { ctx } = recorder();
  // 100 tiny frames across the 1000 px: 10 px each.
  const v0 = 0.7,
    v1 = 0.7 + 100 / (2 * n);
  const stats = drawFlame(ctx, frame(t, l, { v0, v1 }));
  assert.equal(stats.coalesced, 0);
  assert.ok(stats.drawn >= 100 && stats.drawn <= 103, `${stats.drawn}`); // + root and 'many' (+ an edge frame)
  assert.equal(unitAt(frame(t, l, { v0, v1 }), 500), (v0 + v1) / 2);
});

test('rows scrolled off screen are not drawn; search misses are dimmed', () => {
  const t = tree(4);
  const l = layoutFlame(t, childrenOf(t), totalOf(t, 'cpu'), 0);
  const { ctx, rects } = recorder();
  const stats = drawFlame(ctx, frame(t, l, { scrollY: kRowH, height: kRowH }));
  assert.equal(stats.drawn, 2); // row 1 only: wide, many
  assert.equal(rowAt(frame(t, l, { scrollY: kRowH }), 0), 1);
  const match = Uint8Array.from([0, 1, 0, 0]);
  const r2 = recorder();
  drawFlame(r2.ctx, frame(t, l, { match }));
  const fills = r2.rects.map((r) => r.fill);
  assert.equal(fills.filter((f) => f.startsWith('hsl')).length, 1); // 'wide' keeps its colour
  assert.ok(rects.length > 0);
});

test('flipped rows grow upwards from the bottom', () => {
  const t = tree(2);
  const l = layoutFlame(t, childrenOf(t), totalOf(t, 'cpu'), 0);
  const { ctx, rects } = recorder();
  drawFlame(ctx, frame(t, l, { flip: true }));
  assert.equal(Math.max(...rects.map((r) => r.y)), 200 - kRowH);
  assert.equal(rowAt(frame(t, l, { flip: true }), 200 - 1), 0);
});

test('the exact-name query escapes regex metacharacters; an over-long name falls back to a substring', () => {
  assert.deepEqual(exactNameQuery('aten::mm'), { query: '^aten::mm$', regex: true });
  assert.deepEqual(exactNameQuery('attn(F) [x].*+?|{1}$^\\/-'), {
    query: '^attn\\(F\\) \\[x\\]\\.\\*\\+\\?\\|\\{1\\}\\$\\^\\\\\\/\\-$',
    regex: true,
  });
  const long = 'x'.repeat(1200);
  assert.deepEqual(exactNameQuery(long), { query: 'x'.repeat(1000), regex: false });
});

test('tip: name, CPU and GPU times, calls, share of the root', () => {
  const t = tree(4);
  t.count[1] = 3;
  t.gpuNs[1] = 2500;
  assert.equal(share(1, 3), '33 %');
  assert.equal(share(1, 0), '—');
  assert.equal(share(0.05, 10), '0.50 %');
  assert.equal(
    frameTip(t, 1, 0, 'cpu'),
    'wide\nCPU total 4 ns · self 0 ns\nGPU 2.50 µs · self 0 ns\n3 calls · 50 % of CPU time shown'
  );
});
