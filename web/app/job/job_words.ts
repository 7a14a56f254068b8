// The job's collectives in words, as the Job view and the exports (web/export/job_digest.ts) write
// them, and a straggler metric's value. Pure.
import { fmtCount, fmtDuration } from '../format';
import type { JobCollectives } from '../summary_document';

const plural = (n: number, one: string, many = `${one}s`) => `${fmtCount(n)} ${n === 1 ? one : many}`;

export function countsLine(c: JobCollectives): string {
  return (
    `${plural(c.instances, 'collective instance')} across the ranks: ${fmtCount(c.matched)} matched on every rank of ` +
    `their group, ${fmtCount(c.mismatched)} mismatched, ${fmtCount(c.partial)} partial (outside some rank's profiled ` +
    'steps, or run by one open rank only).'
  );
}

// A process group as the trace names it; point-to-point ops may have none.
export const groupName = (g: string): string => (g === '' ? '(unnamed)' : g);

export function mismatchText(m: JobCollectives['mismatches'][number]): string {
  return `${m.op} #${m.n} of group ${groupName(m.group)}${m.step === null ? '' : `, step ${m.step}`}: ${m.problem}`;
}

// A straggler metric's value in its unit, read from its name (docs/summary-schema.md: `*_ns`, and
// `*_mbps` in MB/s, shown in GB/s as the collectives table shows bandwidths).
export function metricValue(metric: string, v: number): string {
  if (metric.endsWith('_mbps')) return `${(v / 1000).toFixed(1)} GB/s`;
  return fmtDuration(v);
}
