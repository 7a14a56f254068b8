// The diff dashboard's view model: the `tracewise.diff/1` document (./diff_document.ts) read as the
// Compare tab shows it, as plain data (no DOM), so it is tested alone (tests/web/compare_model.test.mjs).
// Every part reads the document defensively: a summary link carries a trimmed one.
import { fmtDuration, fmtPct } from '../format';
import type { DiffDocument, Metric, NameRow, NameTable, RowStatus, Verdict } from './diff_document';

export type Tone = 'bad' | 'good' | 'same' | 'unknown';

export interface HeadlineRow {
  id: string;
  label: string;
  base: string;
  cand: string;
  delta: string; // "+1.20 ms" or "+1.10 pts"
  relative: string; // "+6.2 %" (ns metrics) or "" (shares: their change is in points already)
  verdict: Verdict;
  verdictText: string;
  confidence: string; // "95 % (p 0.003)", or "" without a test
  tone: Tone;
  raw: { base: number | null; cand: number | null; delta: number | null };
}

export interface BarPair {
  id: string;
  label: string;
  unit: 'ns' | 'pct';
  base: number; // 0 when missing
  cand: number;
  baseText: string;
  candText: string;
  max: number; // the common scale of its group
}

export interface ChangeRow {
  name: string;
  status: RowStatus;
  base: string; // total per step (or whole trace), "—" when absent
  cand: string;
  delta: string;
  relative: string;
  verdict: Verdict;
  verdictText: string;
  tone: Tone;
  deltaNs: number;
}

export interface Histogram {
  edges: number[]; // bins + 1 values, ns
  base: number[]; // counts per bin
  cand: number[];
  baseMedian: number | null;
  candMedian: number | null;
}

const kVerdictText: Record<Verdict, string> = {
  worse: 'worse',
  better: 'better',
  higher: 'higher',
  lower: 'lower',
  unchanged: 'unchanged',
  no_noise_estimate: 'no noise estimate',
  added: 'added',
  removed: 'removed',
  not_comparable: 'not comparable',
};

export const verdictText = (v: Verdict): string => kVerdictText[v] ?? String(v);

export function toneOf(v: Verdict): Tone {
  if (v === 'worse' || v === 'added') return 'bad';
  if (v === 'better' || v === 'removed') return 'good';
  if (v === 'unchanged' || v === 'higher' || v === 'lower') return 'same';
  return 'unknown';
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const signed = (s: string, v: number) => (v > 0 ? `+${s}` : s);

export function fmtValue(v: number | null, unit: 'ns' | 'pct'): string {
  if (v === null) return '—';
  return unit === 'pct' ? fmtPct(v) : fmtDuration(v);
}

// cand − base: a duration, or points of a share.
export function fmtDelta(v: number | null, unit: 'ns' | 'pct'): string {
  if (v === null) return '—';
  if (unit === 'pct') return `${signed(Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(2), v)} pts`;
  return signed(fmtDuration(v), v);
}

export function fmtRelative(pct: number | null): string {
  if (pct === null) return '—';
  return `${signed(Math.abs(pct) >= 10 ? pct.toFixed(1) : pct.toFixed(2), pct)} %`;
}

// The test's confidence that the metric moved (100 (1 − p)) and its p-value.
function confidenceOf(m: Metric): string {
  const t = m.test;
  const c = num(t?.confidence_pct);
  if (!t || c === null) return '';
  const p = num(t.p_value);
  const pct = c >= 99.95 ? '> 99.9' : c >= 10 ? c.toFixed(1) : c.toFixed(2);
  return `${pct} %${p === null ? '' : ` (p ${p < 0.001 ? '< 0.001' : p.toFixed(3)})`}`;
}

export function headlineRow(m: Metric): HeadlineRow {
  const unit = m.unit === 'pct' ? 'pct' : 'ns';
  const base = num(m.base);
  const cand = num(m.cand);
  const delta = num(m.delta) ?? (base !== null && cand !== null ? cand - base : null);
  return {
    id: String(m.id),
    label: String(m.label ?? m.id),
    base: fmtValue(base, unit),
    cand: fmtValue(cand, unit),
    delta: fmtDelta(delta, unit),
    relative: unit === 'pct' ? '' : fmtRelative(num(m.delta_pct)),
    verdict: m.verdict,
    verdictText: verdictText(m.verdict),
    confidence: confidenceOf(m),
    tone: toneOf(m.verdict),
    raw: { base, cand, delta },
  };
}

const metricsOf = (doc: DiffDocument): Metric[] => (Array.isArray(doc.metrics) ? doc.metrics : []);

// The step metrics and kernel classes, in the core's order.
export function headlineRows(doc: DiffDocument): HeadlineRow[] {
  return metricsOf(doc).map(headlineRow);
}

// Bars side by side: the shares of the step on one 0–100 scale, the kernel classes' time on another.
export function breakdownBars(doc: DiffDocument): { shares: BarPair[]; classes: BarPair[] } {
  const pair = (m: Metric): Omit<BarPair, 'max'> => {
    const unit = m.unit === 'pct' ? 'pct' : 'ns';
    const base = num(m.base);
    const cand = num(m.cand);
    return {
      id: m.id,
      label: String(m.label ?? m.id),
      unit,
      base: base ?? 0,
      cand: cand ?? 0,
      baseText: fmtValue(base, unit),
      candText: fmtValue(cand, unit),
    };
  };
  const all = metricsOf(doc);
  const shares = all.filter((m) => m.unit === 'pct').map(pair);
  const classes = all.filter((m) => String(m.id).startsWith('class:') || m.id === 'step_time').map(pair);
  const top = (xs: Array<Omit<BarPair, 'max'>>, floor: number) =>
    Math.max(floor, ...xs.flatMap((x) => [x.base, x.cand]));
  const maxShare = top(shares, 100);
  const maxClass = top(classes, 1);
  return {
    shares: shares.map((x) => ({ ...x, max: maxShare })),
    classes: classes.map((x) => ({ ...x, max: maxClass })),
  };
}

// The `limit` rows that changed most (the core sorts by |delta|; sorted again here, ties by name),
// and (`more`) every other added or removed row the document lists: a name that appeared or
// vanished is news even when it is small. Both in |delta| order.
export function changeLists(
  table: NameTable | null | undefined,
  limit: number
): { top: ChangeRow[]; more: ChangeRow[] } {
  const rows = Array.isArray(table?.rows) ? [...table.rows] : [];
  rows.sort((a, b) => Math.abs(num(b.delta) ?? 0) - Math.abs(num(a.delta) ?? 0) || cmp(a.name, b.name));
  const marked = (r: NameRow) => r.status === 'added' || r.status === 'removed';
  return {
    top: rows.slice(0, limit).map(changeRow),
    more: rows.slice(limit).filter(marked).map(changeRow),
  };
}

// The rows that changed most, then the other added and removed ones (the exports' one table).
export function topChanges(table: NameTable | null | undefined, limit: number): ChangeRow[] {
  const { top, more } = changeLists(table, limit);
  return [...top, ...more];
}

const cmp = (a: unknown, b: unknown) => (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0);

export function changeRow(r: NameRow): ChangeRow {
  const base = num(r.base);
  const cand = num(r.cand);
  const delta = num(r.delta) ?? (cand ?? 0) - (base ?? 0);
  return {
    name: String(r.name ?? String(r.id).replace(/^(kernel|operator):/, '')),
    status: r.status,
    base: r.status === 'added' ? '—' : fmtValue(base, 'ns'),
    cand: r.status === 'removed' ? '—' : fmtValue(cand, 'ns'),
    delta: fmtDelta(delta, 'ns'),
    relative: r.status === 'added' || r.status === 'removed' ? r.status : fmtRelative(num(r.delta_pct)),
    verdict: r.verdict,
    verdictText: verdictText(r.verdict),
    tone: toneOf(r.verdict),
    deltaNs: delta,
  };
}

// The counts of a name table in words: "12 kernels: 2 added, 1 removed, 5 changed".
export function tableCounts(table: NameTable | null | undefined, noun: string): string {
  if (!table) return `No ${noun}s compared.`;
  const n = (v: unknown) => num(v) ?? 0;
  return `${n(table.total)} ${noun}${n(table.total) === 1 ? '' : 's'}: ${n(table.added)} added, ${n(table.removed)} removed, ${n(table.changed)} changed.`;
}

// The gate-free verdicts in one line: how many step metrics went each way.
export function verdictCounts(doc: DiffDocument): string {
  const counts = new Map<Verdict, number>();
  for (const m of metricsOf(doc)) counts.set(m.verdict, (counts.get(m.verdict) ?? 0) + 1);
  const order: Verdict[] = ['worse', 'better', 'higher', 'lower', 'unchanged', 'no_noise_estimate', 'not_comparable'];
  const parts = order.filter((v) => counts.get(v)).map((v) => `${counts.get(v)} ${verdictText(v)}`);
  return parts.length ? `Step metrics: ${parts.join(', ')}.` : 'No step metric compared.';
}

// What each side is, in words: "control.json.gz (1 file, rank 3, 6 steps, NVIDIA A100 × 8)".
export function sideText(side: DiffDocument['base'] | null | undefined): string {
  if (!side) return '—';
  const files = num(side.files) ?? 0;
  const ranks = Array.isArray(side.ranks) ? side.ranks.filter((r): r is number => num(r) !== null) : [];
  const steps = num(side.steps) ?? 0;
  const parts = [
    `${files} file${files === 1 ? '' : 's'}`,
    ranks.length === 1 ? `rank ${ranks[0]}` : ranks.length > 1 ? `ranks ${ranks.join(', ')}` : null,
    `${steps} step${steps === 1 ? '' : 's'}`,
    ...(Array.isArray(side.devices) ? side.devices.map(String) : []),
  ];
  return `${String(side.label ?? '—')} (${parts.filter((x) => x !== null).join(', ')})`;
}

function median(xs: number[]): number | null {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

// Both sides' step times binned on one scale (so the two histograms overlay).
export function stepHistogram(base: unknown, cand: unknown, bins = 16): Histogram | null {
  const clean = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is number => num(x) !== null) : []);
  const b = clean(base);
  const c = clean(cand);
  const all = [...b, ...c];
  if (!all.length) return null;
  let lo = Math.min(...all);
  let hi = Math.max(...all);
  if (hi === lo) {
    lo -= Math.max(1, lo * 0.05);
    hi += Math.max(1, hi * 0.05);
  }
  const n = Math.max(1, Math.floor(bins));
  const width = (hi - lo) / n;
  const edges = Array.from({ length: n + 1 }, (_, i) => lo + i * width);
  const count = (xs: number[]) => {
    const out = new Array<number>(n).fill(0);
    for (const x of xs) out[Math.min(n - 1, Math.floor((x - lo) / width))]++;
    return out;
  };
  return { edges, base: count(b), cand: count(c), baseMedian: median(b), candMedian: median(c) };
}
