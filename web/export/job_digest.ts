// What the exports say of the job (two files or more), after its verdict line: each straggler's
// reason in the core's words (or that there is none), and the collectives matched across the ranks
// with their mismatches, as the Job view writes them (web/app/job/job_words.ts). A document rebuilt
// from saved summaries has no job analysis: then only the verdict line (digest.ts jobLine).
import { isObject, type JobCollectives } from '../app/summary_document';
import { countsLine, mismatchText } from '../app/job/job_words';

export interface JobDigest {
  stragglers: string[] | null; // reason sentences; null: no job analysis
  collectives: string | null; // the counts line
  mismatches: string[];
}

const isCollectives = (c: unknown): c is JobCollectives =>
  isObject(c) && ['instances', 'matched', 'mismatched', 'partial'].every((k) => typeof c[k] === 'number');

export function jobDigest(doc: { job?: unknown }): JobDigest | null {
  const job = isObject(doc?.job) ? doc.job : null;
  if (!job || !Array.isArray(job.stragglers)) return null;
  const stragglers = job.stragglers.flatMap((s: unknown) =>
    isObject(s) && typeof s.reason === 'string' ? [s.reason] : []
  );
  const c = isCollectives(job.collectives) ? job.collectives : null;
  const mismatches = c && Array.isArray(c.mismatches) ? c.mismatches.filter(isObject).map(mismatchText) : [];
  return { stragglers, collectives: c ? countsLine(c) : null, mismatches };
}
