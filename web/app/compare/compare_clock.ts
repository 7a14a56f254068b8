// The stacked timelines of a comparison are one aligned view (web/timeline/aligned) over both sides'
// files: each file a group, its clock moved so that the chosen step begins at the same instant on
// every file (the first baseline file's clock is the reference). A file without that step is aligned
// at its first step, else at its first event.
import type { Side } from './compare_sides';
import { sideName } from './compare_sides';

export interface CompareFile {
  side: Side;
  name: string;
  rank: number | null;
  steps: ReadonlyArray<{ number: number; begin_ns: number; duration_ns?: number }>;
  firstTsNs: number; // the model's first_ts_ns
}

// The step numbers every file has, in order (the step picker's choices).
export function commonSteps(files: readonly CompareFile[]): number[] {
  if (!files.length) return [];
  const sets = files.map((f) => new Set(f.steps.map((s) => s.number)));
  return [...sets[0]].filter((n) => sets.every((s) => s.has(n))).sort((a, b) => a - b);
}

// Where file f's alignment point is (absolute ns on its own clock).
export function anchorNs(f: CompareFile, step: number | null): number {
  const s = (step === null ? undefined : f.steps.find((x) => x.number === step)) ?? f.steps[0];
  return s ? s.begin_ns : f.firstTsNs;
}

// Per file, its clock offset from the reference (files[0]): its raw times minus it are on the
// reference's clock, so every anchor falls on the reference's anchor.
export function stepOffsets(files: readonly CompareFile[], step: number | null): number[] {
  if (!files.length) return [];
  const ref = anchorNs(files[0], step);
  return files.map((f) => anchorNs(f, step) - ref);
}

// Each file's group label in the stacked view: "baseline", or "baseline · rank 1" when its side has
// several files ("baseline · NAME" without a rank).
export function groupLabels(files: readonly CompareFile[]): string[] {
  return files.map((f) => {
    const several = files.filter((g) => g.side === f.side).length > 1;
    if (!several) return sideName(f.side);
    return `${sideName(f.side)} · ${f.rank !== null ? `rank ${f.rank}` : f.name}`;
  });
}
