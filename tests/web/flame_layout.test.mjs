// Where the flame graph puts its frames (web/flame/layout.ts) and what its search matches
// (web/flame/search.ts), on the hand-made tree of flame_fixture.mjs under a synthetic root.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTs } from './load_ts.mjs';
import { json } from './flame_fixture.mjs';

const { decodeCallTree } = await loadTs('web/flame/call_tree.ts');
const { childrenOf, totalOf } = await loadTs('web/flame/tree_shape.ts');
const { withRoot } = await loadTs('web/flame/merge.ts');
const { layoutFlame, sortedChildren, itemAt, itemOf, firstEndingAfter } = await loadTs('web/flame/layout.ts');
const { matchNames, matchedValue } = await loadTs('web/flame/search.ts');

const tree = withRoot(decodeCallTree(json), 'All threads');
const kids = childrenOf(tree);
// Rows as lists of 'name@x+w' (x and w in % of the focused value).
function rows(l) {
  const out = [];
  for (let r = 0; r < l.rows; r++) {
    const row = [];
    for (let i = l.rowStart[r]; i < l.rowStart[r + 1]; i++)
      row.push(`${tree.names[tree.name[l.node[i]]]}@${+(l.x[i] * 100).toFixed(2)}+${+(l.w[i] * 100).toFixed(2)}`);
    out.push(row);
  }
  return out;
}

test('icicle: the core order of children, widths by CPU time', () => {
  const l = layoutFlame(tree, kids, totalOf(tree, 'cpu'), 0);
  assert.equal(l.focusRow, 0);
  assert.equal(l.focusValue, 150);
  assert.deepEqual(rows(l), [
    ['All threads@0+100'],
    ['python 1 / thread MainThread 1@0+66.67', 'python 1 / thread bwd 2@66.67+33.33'],
    ['backward@0+20', 'forward@20+40', 'aten::mm@66.67+33.33'],
    ['aten::mm@0+16.67', 'aten::mm@20+20', 'aten::relu@40+13.33'],
    ['cudaLaunchKernel@20+6.67'],
  ]);
});

test('left-heavy: children sorted by value, the largest left', () => {
  const l = layoutFlame(tree, sortedChildren(kids, totalOf(tree, 'cpu')), totalOf(tree, 'cpu'), 0);
  assert.deepEqual(rows(l)[2], ['forward@0+40', 'backward@40+20', 'aten::mm@66.67+33.33']);
  assert.deepEqual(rows(l)[3], ['aten::mm@0+20', 'aten::relu@20+13.33', 'aten::mm@40+16.67']);
});

test('GPU measure: frames that caused no GPU time are left out', () => {
  const l = layoutFlame(tree, kids, totalOf(tree, 'gpu'), 0);
  assert.equal(l.focusValue, 60);
  assert.deepEqual(rows(l), [
    ['All threads@0+100'],
    ['python 1 / thread MainThread 1@0+66.67', 'python 1 / thread bwd 2@66.67+33.33'],
    ['forward@0+66.67', 'aten::mm@66.67+33.33'],
    ['aten::mm@0+50', 'aten::relu@50+16.67'],
    ['cudaLaunchKernel@0+50'],
  ]);
});

test('zoom: the focused frame spans the width, its ancestors above it', () => {
  const forward = 4; // 'forward' under the synthetic root
  assert.equal(tree.names[tree.name[forward]], 'forward');
  const l = layoutFlame(tree, kids, totalOf(tree, 'cpu'), forward);
  assert.equal(l.focusRow, 2);
  assert.deepEqual(rows(l), [
    ['All threads@0+100'],
    ['python 1 / thread MainThread 1@0+100'],
    ['forward@0+100'],
    ['aten::mm@0+50', 'aten::relu@50+33.33'],
    ['cudaLaunchKernel@0+16.67'],
  ]);
  assert.equal(itemOf(l, 2), -1); // backward: not under the focus
});

test('hit testing by row and unit x', () => {
  const l = layoutFlame(tree, kids, totalOf(tree, 'cpu'), 0);
  const at = (r, ux) => {
    const i = itemAt(l, r, ux);
    return i < 0 ? null : tree.names[tree.name[l.node[i]]];
  };
  assert.equal(at(2, 0.1), 'backward');
  assert.equal(at(2, 0.2), 'forward'); // left edge belongs to the frame
  assert.equal(at(2, 0.65), null); // the MainThread root's self time: no child there
  assert.equal(at(2, 0.7), 'aten::mm');
  assert.equal(at(4, 0.5), null);
  assert.equal(at(9, 0.5), null);
  assert.equal(at(-1, 0.5), null);
  assert.equal(firstEndingAfter(l, 2, 0.61), l.rowStart[2] + 2);
});

test('search: case-insensitive substring; the matched share counts nested matches once', () => {
  assert.equal(matchNames(tree.names, '  '), null);
  const m = matchNames(tree.names, 'MM');
  assert.deepEqual(
    tree.names.filter((_, i) => m[i]),
    ['aten::mm']
  );
  const cpu = totalOf(tree, 'cpu');
  assert.deepEqual(matchedValue(tree, kids, cpu, 0, m), { value: 105, nodes: 3 });
  const thread = matchNames(tree.names, 'thread'); // both threads and 'All threads'
  assert.deepEqual(matchedValue(tree, kids, cpu, 0, thread), { value: 150, nodes: 3 });
  assert.deepEqual(matchedValue(tree, kids, cpu, 4, m), { value: 30, nodes: 1 }); // under forward only
  const nested = matchNames(tree.names, 'a'); // forward, backward, aten::*, cudaLaunchKernel, MainThread, 'All threads'
  assert.deepEqual(matchedValue(tree, kids, cpu, 0, nested).value, 150);
});
