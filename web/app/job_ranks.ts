// Which opened trace files make the job's aligned timeline, in the job's rank order, with each
// rank's label and clock offset (docs/summary-schema.md, "The job analysis": job.ranks[]). A rank
// is found by its file name (each name used once). Null unless two traces or more are ranks of the
// job: one trace, no job yet, or a saved summary (no trace behind it) have no aligned timeline.
import type { OpenedFile } from './files';
import type { JobSummary } from './summary_document';

export interface JobRankFile {
  file: OpenedFile;
  label: string; // "rank 3"
  offsetNs: number; // clock_offset_ns (0 when none was estimated: the times as written)
}

export function jobRankFiles(files: OpenedFile[], job: JobSummary | null): JobRankFile[] | null {
  const unused = files.filter((f) => f.status === 'ready' && f.load);
  if (unused.length < 2 || !job?.ranks?.length) return null;
  const out: JobRankFile[] = [];
  for (const r of job.ranks) {
    const i = unused.findIndex((f) => f.name === r.file);
    if (i < 0) continue;
    const [file] = unused.splice(i, 1);
    out.push({ file, label: r.label, offsetNs: Number.isFinite(r.clock_offset_ns) ? r.clock_offset_ns : 0 });
  }
  return out.length >= 2 ? out : null;
}

// What identifies the aligned view's set-up: the same files, labels and offsets keep one view.
export function jobRanksKey(ranks: JobRankFile[]): string {
  return ranks.map((r) => `${r.file.key}:${r.offsetNs}:${r.label}`).join(',');
}
