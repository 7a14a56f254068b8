// The comparison of two runs as the core writes it (`tracewise.diff/1`, docs/diff-schema.md): the
// page's Compare mode reads it, the CLI prints it (`tracewise diff --format json`). Names in it come
// from traces (kernels, operators, labels): untrusted text, shown as text only.
import { isObject } from '../summary_document';

export const kDiffSchema = 'tracewise.diff/1';

// higher / lower: a metric with no worse direction (the computation share) moved.
export type Verdict =
  'worse' | 'better' | 'higher' | 'lower' | 'unchanged' | 'no_noise_estimate' | 'added' | 'removed' | 'not_comparable';
export type Unit = 'ns' | 'pct';
export type Gate = 'relative' | 'points';

export interface DiffSide {
  label: string; // the file's or folder's name (the page: its files' names)
  files: number; // how many files the side has
  ranks: Array<number | null>; // per file, its rank (null without distributedInfo)
  steps: number; // compared: common to every rank
  per_step: boolean; // its metrics are per step (else whole-trace values)
  devices: string[];
  mode: 'default' | 'hta_compat';
  names_complete: boolean; // false: a summary without by_name (no kernels or operators compared)
}

export interface RankTest {
  shift: number; // Hodges–Lehmann shift (cand − base), in the metric's unit
  ci_low: number;
  ci_high: number;
  p_value: number;
  confidence_pct: number; // 100 (1 − p)
  exact: boolean; // the exact distribution (else the normal approximation)
}

export interface Metric {
  id: string; // step_time, gpu_idle, ..., class:computation, kernel:NAME, operator:NAME
  label: string;
  unit: Unit;
  gate: Gate | null;
  worse: 'up' | 'down' | null;
  base: number | null;
  cand: number | null;
  delta: number | null;
  delta_pct: number | null;
  samples: { base: number; cand: number };
  test: RankTest | null;
  verdict: Verdict;
  gated: boolean; // in the set the gate looks at
  beyond_gate: boolean;
}

export interface NameStats {
  count: number;
  total_ns: number;
  mean_ns: number;
  share_pct: number;
}

export type RowStatus = 'changed' | 'same' | 'added' | 'removed';

export interface NameRow extends Metric {
  name: string;
  status: RowStatus;
  variants: { base: number; cand: number };
  base_stats: NameStats | null;
  cand_stats: NameStats | null;
  impact_pct: number; // |delta| as % of the baseline step
}

export interface NameTable {
  rows: NameRow[]; // by |delta|, largest first; at most 200
  total: number;
  added: number;
  removed: number;
  changed: number;
}

export interface StreamRow {
  rank: number | null;
  device: number | null;
  stream: number | null;
  base: { ops: number; busy_ns: number } | null;
  cand: { ops: number; busy_ns: number } | null;
}

export interface DiffOptions {
  fail_above_pct: number | null;
  metric: string | null;
  confidence_pct: number;
  min_impact_pct: number;
}

export interface DiffDocument {
  schema: typeof kDiffSchema;
  base: DiffSide;
  cand: DiffSide;
  options: DiffOptions;
  verdict: { regression: boolean; beyond_gate: string[]; sentence: string };
  metrics: Metric[];
  kernels: NameTable;
  operators: NameTable;
  streams: StreamRow[];
  step_samples: { base: number[]; cand: number[] };
  notes: string[];
}

// The page's options: no gate, so the verdicts are the gate-free ones (worse / better / unchanged);
// each side labelled as the CLI labels it (./compare_sides.ts sideLabel).
export function pageDiffOptions(baseLabel: string, candLabel: string): string {
  const options: DiffOptions = { fail_above_pct: null, metric: null, confidence_pct: 95, min_impact_pct: 0.5 };
  return JSON.stringify({ ...options, base_label: baseLabel, cand_label: candLabel });
}

// What the core answers instead of a diff when a side is not a summary (or an option is bad).
export function diffError(v: unknown): string | null {
  return isObject(v) && typeof v.error === 'string' ? v.error : null;
}

// A document the views can read: the schema and the parts they index into. Each part is still read
// defensively (a summary link's diff is trimmed, an older core may lack a key).
export function isDiffDocument(v: unknown): v is DiffDocument {
  return (
    isObject(v) &&
    v.schema === kDiffSchema &&
    isObject(v.base) &&
    isObject(v.cand) &&
    isObject(v.verdict) &&
    Array.isArray(v.metrics) &&
    v.metrics.every(isObject)
  );
}
