// The shape of a call tree the flame graph walks: each node's children (in the core's order) as one
// compressed list, and the measure drawn (CPU time or the GPU time its launches caused).
import type { CallTree } from './call_tree';

export type Measure = 'cpu' | 'gpu';

export interface Children {
  start: Int32Array; // node i's children are list[start[i] .. start[i + 1])
  list: Int32Array;
}

// Children by parent, in index order (parents come before children, so one counting pass).
export function childrenOf(t: CallTree): Children {
  const start = new Int32Array(t.size + 1);
  for (let i = 0; i < t.size; i++) if (t.parent[i] >= 0) start[t.parent[i] + 1]++;
  for (let i = 0; i < t.size; i++) start[i + 1] += start[i];
  const fill = start.slice(0, t.size);
  const list = new Int32Array(start[t.size]);
  for (let i = 0; i < t.size; i++) if (t.parent[i] >= 0) list[fill[t.parent[i]]++] = i;
  return { start, list };
}

export function totalOf(t: CallTree, m: Measure): Float64Array {
  return m === 'gpu' ? t.gpuNs : t.totalNs;
}

export function selfOf(t: CallTree, m: Measure): Float64Array {
  return m === 'gpu' ? t.gpuSelfNs : t.selfNs;
}

// The nodes from the root down to `node` (both included).
export function pathTo(t: CallTree, node: number): number[] {
  const path: number[] = [];
  for (let i = node; i >= 0; i = t.parent[i]) path.push(i);
  return path.reverse();
}
