// The files of a comparison as the aligned timeline's "ranks" (web/app/timeline_host.ts): the
// baseline's files first, then the candidate's, each labelled by its side and moved onto the first
// baseline file's clock so that the chosen step starts at the same instant on all (./compare_clock.ts).
import type { OpenedFile } from '../files';
import type { JobRankFile } from '../job_ranks';
import { anchorNs, commonSteps, groupLabels, stepOffsets, type CompareFile } from './compare_clock';

function compareFile(f: OpenedFile): CompareFile {
  const steps = Array.isArray(f.summary?.steps) ? f.summary.steps : [];
  return {
    side: f.side ?? 'base',
    name: f.name,
    rank: typeof f.summary?.rank === 'number' ? f.summary.rank : null,
    steps: steps.filter((s) => Number.isFinite(s?.number) && Number.isFinite(s?.begin_ns)),
    firstTsNs: Number(f.summary?.model?.first_ts_ns ?? 0),
  };
}

// The ready traces with a side, baseline first (null: fewer than one trace on a side).
export function compareFiles(files: OpenedFile[]): OpenedFile[] | null {
  const traces = files.filter((f) => f.status === 'ready' && f.load && f.side);
  const base = traces.filter((f) => f.side === 'base');
  const cand = traces.filter((f) => f.side === 'cand');
  return base.length && cand.length ? [...base, ...cand] : null;
}

// The step numbers every side's file has (the step picker's choices).
export function compareSteps(files: OpenedFile[]): number[] {
  return commonSteps(files.map(compareFile));
}

export function compareRankFiles(files: OpenedFile[], step: number | null): JobRankFile[] {
  const cf = files.map(compareFile);
  const offsets = stepOffsets(cf, step);
  const labels = groupLabels(cf);
  return files.map((file, i) => ({ file, label: labels[i], offsetNs: offsets[i] }));
}

// The chosen step's span on the reference clock (absolute ns): from its begin to the end of the
// longest of its instances on every file; null without steps.
export function stepSpanNs(files: OpenedFile[], step: number | null): { begin: number; end: number } | null {
  const cf = files.map(compareFile);
  if (!cf.length || !cf[0].steps.length) return null;
  const begin = anchorNs(cf[0], step);
  let dur = 0;
  for (const f of cf) {
    const s = (step === null ? undefined : f.steps.find((x) => x.number === step)) ?? f.steps[0];
    const d = Number(s?.duration_ns);
    if (Number.isFinite(d)) dur = Math.max(dur, d);
  }
  return dur > 0 ? { begin, end: begin + dur } : null;
}
