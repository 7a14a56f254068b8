// The job analysis lists its ranks in rank order (docs/summary-schema.md, "The job analysis"), the
// page its files in the order they were opened: which opened file each entry of job.ranks[] is, and
// the raw time ranges (on that file's own clock) its links point at. Pure: tests/web/job_data.test.mjs.
import type { FileSummary, JobRank, JobSummary } from '../summary_document';

type Identity = Pick<FileSummary, 'rank' | 'name'> | null | undefined;

// Index into `files` of each entry of `ranks` (-1: none). By rank number when exactly one file has
// it (names may repeat across folders), else by file name; each file is taken once.
export function rankFiles(ranks: readonly JobRank[], files: readonly Identity[]): number[] {
  const taken = new Set<number>();
  const pick = (ok: (f: Identity) => boolean): number => {
    const hits = files.flatMap((f, i) => (!taken.has(i) && ok(f) ? [i] : []));
    return hits.length === 1 ? hits[0] : -1;
  };
  return ranks.map((r) => {
    let i = typeof r?.rank === 'number' ? pick((f) => f?.rank === r.rank) : -1;
    if (i < 0) i = files.findIndex((f, k) => !taken.has(k) && f?.name === r?.file);
    if (i >= 0) taken.add(i);
    return i;
  });
}

export interface TimeRange {
  t0: number;
  t1: number;
}

// Collective `worst` of the heatmap on rank `rank` (an index into job.ranks), on that rank's clock:
// the job gives its first arrival and end on the reference rank's clock, and a rank's timestamps
// are the reference clock plus its offset. Null when the rank did not run it.
export function collectiveRange(job: JobSummary, worst: number, rank: number): TimeRange | null {
  const w = job.collectives?.worst?.[worst];
  const r = job.ranks?.[rank];
  if (!w || !r || w.waits_ns?.[rank] === null || w.waits_ns?.[rank] === undefined) return null;
  const offset = Number(r.clock_offset_ns) || 0;
  return { t0: w.begin_ns + offset, t1: w.end_ns + offset };
}

// Profiler step `number` of a file, from its steps (else its step breakdown's steps).
export function stepRange(f: FileSummary | null | undefined, number: number): TimeRange | null {
  const lists: unknown[] = [f?.steps, f?.step_breakdown?.steps];
  for (const list of lists) {
    if (!Array.isArray(list)) continue;
    const s = list.find((x) => x?.number === number);
    if (s && typeof s.begin_ns === 'number' && typeof s.end_ns === 'number') return { t0: s.begin_ns, t1: s.end_ns };
  }
  return null;
}
