// Where the Job view's clicks go. Every jump from the job into a timeline goes through here, so the
// target can change in one place: a collective opens the aligned all-rank timeline at that
// collective (every rank's copy of it, on the reference clock); without an aligned view (the job
// not known yet) the clicked rank's own timeline, zoomed to the collective on that rank's clock.
import type { OpenedFile } from '../files';
import type { JobSummary } from '../summary_document';
import { collectiveRange, rankFiles, stepRange } from './job_files';

export interface JobLinks {
  // Heatmap cell: collective job.collectives.worst[worstIndex] on rank job.ranks[rankIndex].
  onCollective(worstIndex: number, rankIndex: number): void;
  // A straggler's step: profiler step `number` on rank job.ranks[rankIndex].
  onStep(rankIndex: number, number: number): void;
}

// show: switch to the timeline of `file` zoomed to [t0, t1] (raw ns of that file). showAligned:
// switch to the aligned timeline zoomed to [begin, end] on the reference clock; false when there is
// none.
export function jobLinks(
  job: JobSummary | null,
  files: readonly OpenedFile[],
  show: (file: OpenedFile, t0: number, t1: number) => void,
  showAligned: (beginNsRef: number, endNsRef: number) => Promise<boolean> = () => Promise.resolve(false)
): JobLinks {
  const fileOf = rankFiles(
    job?.ranks ?? [],
    files.map((f) => f.summary)
  );
  const fileAt = (rank: number): OpenedFile | null => files[fileOf[rank] ?? -1] ?? null;
  return {
    onCollective(worstIndex, rankIndex) {
      const own = () => {
        const file = fileAt(rankIndex);
        const r = job ? collectiveRange(job, worstIndex, rankIndex) : null;
        if (file && r) show(file, r.t0, r.t1);
      };
      const w = job?.collectives?.worst?.[worstIndex];
      if (!w) return own();
      void showAligned(w.begin_ns, w.end_ns).then((aligned) => aligned || own());
    },
    onStep(rankIndex, number) {
      const file = fileAt(rankIndex);
      const r = stepRange(file?.summary, number);
      if (file && r) show(file, r.t0, r.t1);
    },
  };
}
