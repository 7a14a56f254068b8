// The Job view's per-rank bars: each rank's mean profiler step split by activity (the TensorBoard
// step categories of its summary's step_breakdown, memcpy and memset together), or, when not every
// rank has steps, its GPU span split as the time breakdown splits it; beside it the time the rank
// spent in collectives waiting for the last rank against transferring (job.ranks). Every bar of a
// kind shares one scale, so the odd rank stands out. Pure: tests/web/job_data.test.mjs.
import type { FileSummary, JobSummary } from '../summary_document';
import { rankFiles } from './job_files';

export interface Segment {
  key: string;
  label: string;
  color: string; // a CSS custom property of style.css
  ns: number;
}
export interface RankBar {
  label: string;
  file: number; // index into the summaries, -1: none
  segments: Segment[]; // empty when the rank has nothing for the basis
  total_ns: number;
  wait_ns: number | null; // null: no job analysis of this rank
  transfer_ns: number | null;
  straggler: boolean;
}
export interface RankBars {
  basis: 'step' | 'gpu_span' | null;
  rows: RankBar[];
  max_ns: number;
  max_comm_ns: number; // the largest wait + transfer
}

// [label, colour, categories summed]: the step categories, in the order the breakdown draws them.
const kStepParts: Array<[string, string, string, string[]]> = [
  ['kernel', 'Kernels', '--c-compute', ['kernel']],
  ['memory', 'Memcpy / memset', '--c-mem', ['memcpy', 'memset']],
  ['communication', 'Communication', '--c-comm', ['communication']],
  ['runtime', 'CUDA runtime', '--c5', ['runtime']],
  ['dataloader', 'DataLoader', '--c6', ['dataloader', 'data_loader']],
  ['cpu_exec', 'CPU exec', '--c3', ['cpu_exec']],
  ['other', 'Other', '--c-idle', ['other']],
];
// The GPU span as the time breakdown splits it (temporal.exposed: they add up to the span).
const kSpanParts: Array<[string, string, string]> = [
  ['computation_ns', 'Compute', '--c-compute'],
  ['communication_ns', 'Exposed communication', '--c-comm'],
  ['memory_ns', 'Exposed memory', '--c-mem'],
  ['other_ns', 'Other GPU', '--c-other'],
  ['idle_ns', 'GPU idle', '--c-idle'],
];

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

function hasSteps(f: FileSummary | undefined): boolean {
  const sb = f?.step_breakdown;
  return !!sb && num(sb.count) > 0 && !!sb.categories_ns && typeof sb.categories_ns === 'object';
}
function hasSpan(f: FileSummary | undefined): boolean {
  return num(f?.temporal?.span_ns) > 0 && !!f?.temporal?.exposed;
}

function stepSegments(f: FileSummary): Segment[] {
  const sb = f.step_breakdown!;
  const c: Record<string, unknown> = sb.categories_ns;
  return kStepParts.map(([key, label, color, cats]) => ({
    key,
    label,
    color,
    ns: cats.reduce((a, k) => a + num(c[k]), 0) / sb.count,
  }));
}

function spanSegments(f: FileSummary): Segment[] {
  const e: Record<string, unknown> = f.temporal!.exposed;
  return kSpanParts.map(([key, label, color]) => ({ key, label, color, ns: num(e[key]) }));
}

// The parts every bar is split into for `basis` (the legend's entries).
export function basisParts(basis: RankBars['basis']): Array<{ label: string; color: string }> {
  if (basis === 'step') return kStepParts.map(([, label, color]) => ({ label, color }));
  if (basis === 'gpu_span') return kSpanParts.map(([, label, color]) => ({ label, color }));
  return [];
}

const labelOf = (f: FileSummary | undefined, i: number) =>
  f?.rank !== null && f?.rank !== undefined ? `rank ${f.rank}` : String(f?.name ?? `file ${i + 1}`);

export function rankBars(summaries: ReadonlyArray<FileSummary | undefined>, job: JobSummary | null): RankBars {
  const ranks = Array.isArray(job?.ranks) ? job.ranks : null;
  const files = ranks ? rankFiles(ranks, summaries) : summaries.map((_, i) => i);
  const shown = files.map((i) => (i >= 0 ? summaries[i] : undefined));
  const basis = shown.every(hasSteps) ? 'step' : shown.every(hasSpan) ? 'gpu_span' : null;
  const late = new Set((job?.stragglers ?? []).map((s) => s.label));
  const rows = files.map((file, i): RankBar => {
    const f = shown[i];
    const r = ranks?.[i];
    const segments = !f ? [] : basis === 'step' ? stepSegments(f) : basis === 'gpu_span' ? spanSegments(f) : [];
    const label = r?.label ?? labelOf(f, i);
    return {
      label,
      file,
      segments,
      total_ns: segments.reduce((a, s) => a + s.ns, 0),
      wait_ns: r ? num(r.wait_ns) : null,
      transfer_ns: r ? num(r.transfer_ns) : null,
      straggler: late.has(label),
    };
  });
  return {
    basis,
    rows,
    max_ns: Math.max(0, ...rows.map((r) => r.total_ns)),
    max_comm_ns: Math.max(0, ...rows.map((r) => (r.wait_ns ?? 0) + (r.transfer_ns ?? 0))),
  };
}
