// Where each frame of a flame graph goes, computed once per tree, measure, order and zoom (never
// per drawn frame). The focused node spans the whole width [0, 1) on its row; its ancestors sit on
// the rows above it, full width; each child starts where its previous sibling ends, its width its
// share of the focused node's value. Icicle keeps the core's order of children; left-heavy sorts
// them by value, the largest first. Frames of value 0 (a CPU op that launched nothing, in the GPU
// measure) are left out with their subtrees.
import type { CallTree } from './call_tree';
import type { Children } from './tree_shape';

export type Order = 'icicle' | 'left-heavy';

export interface FlameLayout {
  items: number;
  node: Int32Array; // node of each item; items are grouped by row, by x inside a row
  x: Float64Array; // left edge, as a share of the focused node's value
  w: Float64Array; // width, likewise
  rowStart: Int32Array; // row r holds items rowStart[r] .. rowStart[r + 1]
  rows: number;
  focus: number;
  focusRow: number; // rows above it hold its ancestors
  focusValue: number;
}

// Children of `n` in drawing order (left-heavy: by value, largest first; ties keep the core's order).
function orderedChildren(c: Children, n: number, value: Float64Array, order: Order): Int32Array {
  const kids = c.list.subarray(c.start[n], c.start[n + 1]);
  if (order === 'icicle' || kids.length < 2) return kids;
  return Int32Array.from(kids).sort((a, b) => value[b] - value[a] || a - b);
}

export function layoutFlame(t: CallTree, c: Children, value: Float64Array, focus: number, order: Order): FlameLayout {
  const focusValue = Math.max(0, value[focus] ?? 0);
  const ancestors: number[] = [];
  for (let p = t.parent[focus]; p >= 0; p = t.parent[p]) ancestors.push(p);
  ancestors.reverse();
  // Depth-first from the focused node, children in drawing order: inside each row, items come by x.
  const node: number[] = [...ancestors];
  const x: number[] = ancestors.map(() => 0);
  const w: number[] = ancestors.map(() => 1);
  const row: number[] = ancestors.map((_, i) => i);
  if (focusValue > 0) {
    const stack: Array<[number, number, number]> = [[focus, 0, ancestors.length]];
    while (stack.length) {
      const [n, x0, r] = stack.pop()!;
      node.push(n);
      x.push(x0);
      w.push(value[n] / focusValue);
      row.push(r);
      const kids = orderedChildren(c, n, value, order);
      let at = x0;
      const next: Array<[number, number, number]> = [];
      for (const k of kids) {
        if (!(value[k] > 0)) continue;
        next.push([k, at, r + 1]);
        at += value[k] / focusValue;
      }
      for (let i = next.length - 1; i >= 0; i--) stack.push(next[i]); // leftmost popped first
    }
  }
  // Group by row (a stable counting sort keeps each row's x order).
  const rows = row.reduce((m, r) => Math.max(m, r + 1), 0);
  const rowStart = new Int32Array(rows + 1);
  for (const r of row) rowStart[r + 1]++;
  for (let r = 0; r < rows; r++) rowStart[r + 1] += rowStart[r];
  const fill = rowStart.slice(0, rows);
  const items = node.length;
  const out = { node: new Int32Array(items), x: new Float64Array(items), w: new Float64Array(items) };
  for (let i = 0; i < items; i++) {
    const j = fill[row[i]]++;
    out.node[j] = node[i];
    out.x[j] = x[i];
    out.w[j] = w[i];
  }
  return { items, ...out, rowStart, rows, focus, focusRow: ancestors.length, focusValue };
}

// The first item of row `r` whose right edge is beyond `ux` (rowStart[r + 1] when none).
export function firstEndingAfter(l: FlameLayout, r: number, ux: number): number {
  let lo = l.rowStart[r],
    hi = l.rowStart[r + 1];
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (l.x[mid] + l.w[mid] <= ux) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// The item at unit x `ux` on row `r`, or -1.
export function itemAt(l: FlameLayout, r: number, ux: number): number {
  if (r < 0 || r >= l.rows) return -1;
  const i = firstEndingAfter(l, r, ux);
  return i < l.rowStart[r + 1] && l.x[i] <= ux ? i : -1;
}

// The item of `node`, or -1 (not laid out: value 0, or outside the focused subtree).
export function itemOf(l: FlameLayout, node: number): number {
  for (let i = 0; i < l.items; i++) if (l.node[i] === node) return i;
  return -1;
}
