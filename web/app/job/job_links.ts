// Where the Job view's clicks go. Every jump from the job into a timeline goes through here, so the
// target can change in one place: today a collective opens the timeline of the clicked rank's own
// file, zoomed to that collective on that rank's clock (an aligned all-rank timeline may take this
// over: re-target onCollective).
import type { OpenedFile } from '../files';
import type { JobSummary } from '../summary_document';
import { collectiveRange, rankFiles, stepRange } from './job_files';

export interface JobLinks {
  // Heatmap cell: collective job.collectives.worst[worstIndex] on rank job.ranks[rankIndex].
  onCollective(worstIndex: number, rankIndex: number): void;
  // A straggler's step: profiler step `number` on rank job.ranks[rankIndex].
  onStep(rankIndex: number, number: number): void;
}

// show: switch to the timeline of `file` zoomed to [t0, t1] (raw ns of that file).
export function jobLinks(
  job: JobSummary | null,
  files: readonly OpenedFile[],
  show: (file: OpenedFile, t0: number, t1: number) => void
): JobLinks {
  const fileOf = rankFiles(
    job?.ranks ?? [],
    files.map((f) => f.summary)
  );
  const fileAt = (rank: number): OpenedFile | null => files[fileOf[rank] ?? -1] ?? null;
  return {
    onCollective(worstIndex, rankIndex) {
      const file = fileAt(rankIndex);
      const r = job ? collectiveRange(job, worstIndex, rankIndex) : null;
      if (file && r) show(file, r.t0, r.t1);
    },
    onStep(rankIndex, number) {
      const file = fileAt(rankIndex);
      const r = stepRange(file?.summary, number);
      if (file && r) show(file, r.t0, r.t1);
    },
  };
}
