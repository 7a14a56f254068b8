// Where each frame of a flame graph goes, computed once per tree, measure, order and zoom (never
// per drawn frame). The focused node spans the whole width [0, 1) on its row; its ancestors sit on
// the rows above it, full width; each child starts where its previous sibling ends, its width its
// share of the focused node's value. Icicle keeps the core's order of children; left-heavy sorts
// them by value, the largest first. Frames of value 0 (a CPU op that launched nothing, in the GPU
// measure) are left out with their subtrees. Typed arrays throughout: 500k frames lay out in tens of ms.
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

// Children in left-heavy order: each node's children sorted by value, the largest first (ties keep
// the core's order). Made once per tree and measure (the caller keeps it).
export function sortedChildren(c: Children, value: Float64Array): Children {
  const list = c.list.slice();
  for (let n = 0; n + 1 < c.start.length; n++) {
    const a = c.start[n],
      b = c.start[n + 1];
    if (b - a > 1) list.subarray(a, b).sort((p, q) => value[q] - value[p] || p - q);
  }
  return { start: c.start, list };
}

// `c`: the children in drawing order (the core's for icicle, sortedChildren's for left-heavy).
export function layoutFlame(t: CallTree, c: Children, value: Float64Array, focus: number): FlameLayout {
  const focusValue = Math.max(0, value[focus] ?? 0);
  const ancestors: number[] = [];
  for (let p = t.parent[focus]; p >= 0; p = t.parent[p]) ancestors.push(p);
  ancestors.reverse();
  const cap = t.size + 1;
  const node = new Int32Array(cap),
    x = new Float64Array(cap),
    w = new Float64Array(cap),
    row = new Int32Array(cap);
  let items = 0;
  for (const a of ancestors) {
    node[items] = a;
    w[items] = 1;
    row[items] = items;
    items++;
  }
  // Depth-first from the focused node, leftmost child first: inside each row, items come by x.
  if (focusValue > 0) {
    const sNode = new Int32Array(cap),
      sX = new Float64Array(cap),
      sRow = new Int32Array(cap);
    let sp = 0;
    sNode[0] = focus;
    sRow[0] = ancestors.length;
    sp = 1;
    while (sp > 0) {
      sp--;
      const n = sNode[sp],
        x0 = sX[sp],
        r = sRow[sp];
      node[items] = n;
      x[items] = x0;
      w[items] = value[n] / focusValue;
      row[items] = r;
      items++;
      const a = c.start[n],
        b = c.start[n + 1];
      // Pushed left to right with their edges, then the pushed run reversed: the leftmost pops first.
      let at = x0;
      const first = sp;
      for (let k = a; k < b; k++) {
        const kid = c.list[k];
        if (!(value[kid] > 0)) continue;
        sNode[sp] = kid;
        sX[sp] = at;
        sRow[sp] = r + 1;
        sp++;
        at += value[kid] / focusValue;
      }
      for (let i = first, j = sp - 1; i < j; i++, j--) {
        const n2 = sNode[i],
          x2 = sX[i];
        sNode[i] = sNode[j];
        sX[i] = sX[j];
        sNode[j] = n2;
        sX[j] = x2;
      }
    }
  }
  // Group by row (a stable counting sort keeps each row's x order).
  let rows = 0;
  for (let i = 0; i < items; i++) if (row[i] + 1 > rows) rows = row[i] + 1;
  const rowStart = new Int32Array(rows + 1);
  for (let i = 0; i < items; i++) rowStart[row[i] + 1]++;
  for (let r = 0; r < rows; r++) rowStart[r + 1] += rowStart[r];
  const fill = rowStart.slice(0, rows);
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
