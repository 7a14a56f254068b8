// The words of a frame's hover tip and details line: its name, CPU total and self time, calls,
// share of the root, and the GPU time its launches caused. Plain text (textContent only).
import { formatDuration } from '../timeline/time_format';
import type { CallTree } from './call_tree';
import { totalOf, type Measure } from './tree_shape';

export function share(part: number, whole: number): string {
  if (!(whole > 0)) return '—';
  const p = (100 * part) / whole;
  return `${p >= 10 || p === 0 ? p.toFixed(0) : p.toFixed(p >= 1 ? 1 : 2)} %`;
}

// One line per fact; `root`: the node the share is of (the top of the graph).
export function frameFacts(t: CallTree, node: number, root: number, measure: Measure): string[] {
  const v = totalOf(t, measure);
  const calls = t.count[node];
  return [
    `CPU total ${formatDuration(t.totalNs[node])} · self ${formatDuration(t.selfNs[node])}`,
    `GPU ${formatDuration(t.gpuNs[node])} · self ${formatDuration(t.gpuSelfNs[node])}`,
    `${calls} call${calls === 1 ? '' : 's'} · ${share(v[node], v[root])} of ${measure === 'gpu' ? 'GPU' : 'CPU'} time shown`,
  ];
}

export function frameTip(t: CallTree, node: number, root: number, measure: Measure): string {
  return [t.names[t.name[node]], ...frameFacts(t, node, root, measure)].join('\n');
}
