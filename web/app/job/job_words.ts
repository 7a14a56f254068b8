// The job's collectives in words, as the Job view and the exports (web/export/job_digest.ts) write
// them. Pure.
import { fmtCount } from '../format';
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
