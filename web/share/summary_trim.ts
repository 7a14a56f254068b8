// Trims a summary document to what a link can carry: every headline number (scalars are kept
// exactly), the first rows of each table (the core writes tables most-important-first), short
// series, and the recommendations. Bigger levels are tried first; the caller picks the first level
// whose encoded link fits its budget. The shape of the summary is preserved, so the dashboard renders
// a trimmed summary with the same code as a full one; `cuts` lists what was shortened or dropped.

export interface TrimLevel {
  rows: number; // rows kept per array of objects
  text: number; // characters kept per string
  series: number; // longest array of numbers kept (longer ones are dropped)
  depth: number; // deepest nesting kept
  stepDetails?: boolean; // keep each step's `sections` (per-step idle, kernels, launches...)
}

// Per-step details repeat the whole-trace sections once per step, so they are the first thing a
// link gives up: only the most generous level keeps them; every other level drops them before it
// shortens anything else.
export const kTrimLevels: TrimLevel[] = [
  { rows: 25, text: 200, series: 512, depth: 8, stepDetails: true },
  { rows: 25, text: 200, series: 512, depth: 8 },
  { rows: 15, text: 160, series: 256, depth: 8 },
  { rows: 10, text: 120, series: 128, depth: 7 },
  { rows: 5, text: 80, series: 64, depth: 6 },
  { rows: 3, text: 60, series: 0, depth: 5 },
  { rows: 1, text: 40, series: 0, depth: 4 },
];

// The verdict and the recommendations are the point of sharing: keep more of them, and more of
// their text.
const kKeepWhole = new Set(['recommendations', 'verdict']);
const kSentenceChars = 1000;

export interface TrimResult {
  doc: { files: unknown[]; schema: string; job?: unknown };
  cuts: Record<string, number>;
}

// The document's job (two files or more) is kept like a verdict: it is one.
export function trimSummary(doc: { files?: unknown[]; schema?: unknown; job?: unknown }, level: TrimLevel): TrimResult {
  const cuts: Record<string, number> = {};
  const files = Array.isArray(doc.files) ? doc.files : [];
  const out = files.map((f, i) => trimValue(f, level, 1, `files.${i}`, cuts, false));
  const trimmed: TrimResult['doc'] = { files: out, schema: String(doc.schema ?? '') };
  const job =
    doc.job !== null && typeof doc.job === 'object' ? trimValue(doc.job, level, 1, 'job', cuts, true) : undefined;
  if (job !== undefined) trimmed.job = job;
  return { doc: trimmed, cuts };
}

// A comparison's diff document (Compare mode's summary link), trimmed by the same level: its first
// rows of kernels and operators (the core lists them by |delta|), its step samples while short.
export function trimDiff(diff: unknown, level: TrimLevel, cuts: Record<string, number> = {}): unknown {
  return trimValue(diff, level, 1, 'diff', cuts, false);
}

function trimString(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, Math.max(1, max - 1))}…`;
}

function trimValue(
  v: unknown,
  lv: TrimLevel,
  depth: number,
  path: string,
  cuts: Record<string, number>,
  whole: boolean
): unknown {
  if (typeof v === 'string') return trimString(v, whole ? Math.max(lv.text * 3, 240) : lv.text);
  if (v === null || typeof v !== 'object') return v;
  if (depth > lv.depth) {
    cuts[path] = -1;
    return undefined;
  }
  if (Array.isArray(v)) {
    if (v.every((x) => typeof x === 'number' || x === null)) {
      if (v.length <= lv.series || v.length <= 4) return v;
      cuts[path] = v.length;
      return undefined;
    }
    const keep = whole ? Math.max(lv.rows, 10) : lv.rows;
    if (v.length > keep) cuts[path] = v.length;
    // Rows cut by the depth limit are left out, not turned into nulls (JSON has no holes).
    const rows = v.slice(0, keep).map((x, i) => trimValue(x, lv, depth + 1, `${path}.${i}`, cuts, whole));
    const kept = rows.filter((x) => x !== undefined);
    if (kept.length === 0 && v.length > 0) {
      cuts[path] = -1;
      return undefined;
    }
    return kept;
  }
  const o: Record<string, unknown> = {};
  const isStep = /^files\.\d+\.steps\.\d+$/.test(path);
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    if (isStep && k === 'sections' && !lv.stepDetails) {
      const key = `${path.replace(/\.\d+$/, '')}.*.sections`; // one entry for all steps: how many lost theirs
      if (x !== null && x !== undefined) cuts[key] = (cuts[key] ?? 0) + 1;
      continue;
    }
    // The per-name table is what a comparison reads; cut to its first rows it would make names look
    // added or removed, so a link leaves it out whole (a comparison then says it cannot match names).
    if (k === 'by_name' && /^files\.\d+$/.test(path)) {
      cuts[`${path}.by_name`] = -1;
      continue;
    }
    // A verdict's sentence is read whole or not at all (the core keeps it under ~700 characters).
    if (k === 'sentence' && typeof x === 'string') {
      o[k] = trimString(x, kSentenceChars);
      continue;
    }
    const t = trimValue(x, lv, depth + 1, `${path}.${k}`, cuts, whole || kKeepWhole.has(k));
    if (t !== undefined) o[k] = t;
  }
  return o;
}
