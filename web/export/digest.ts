// What the exports show of one file's summary, read defensively (analyses may be absent or grow):
// the headline cards (the dashboard's own function, so the numbers are the ones on screen), the
// facts, the recommendations, and the table-like sections with their first rows.
import { headlineCards, type Card } from '../app/dashboard/cards';
import { fmtField, kindOfKey, labelOf, fmtBytes, fmtCount } from '../app/format';
import { type FileSummary, recommendationsOf } from '../app/summary_document';
import { devicesLine } from '../app/device_names';

export interface DigestTable {
  title: string;
  path: string;
  columns: string[];
  rows: string[][];
  raw: Record<string, unknown>[];
  total: number;
  barColumn: string | null;
}
export interface DigestRec {
  severity: string;
  title: string;
  detail: string;
}
export interface FileDigest {
  name: string;
  facts: Array<[string, string]>;
  cards: Card[];
  recommendations: DigestRec[] | null; // null: the summary has no recommendations section
  tables: DigestTable[];
  originNs: number;
}

// Section order follows the dashboard; "kernels" first because that is what people ask about.
const kTableSections = ['kernels', 'operators', 'collectives', 'idle', 'launches', 'memory', 'steps', 'step_breakdown'];
const isScalar = (v: unknown) => v === null || typeof v !== 'object';

function factsOf(f: FileSummary): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  if (f.rank !== null && f.rank !== undefined)
    out.push(['Rank', f.world_size ? `${f.rank} of ${f.world_size}` : String(f.rank)]);
  const devices = devicesLine(f.devices);
  if (devices) out.push(['Devices', devices]);
  if (typeof f.bytes === 'number') out.push(['File size', fmtBytes(f.bytes)]);
  if (typeof f.import?.events === 'number') out.push(['Events', fmtCount(f.import.events)]);
  return out;
}

function recsOf(f: FileSummary): DigestRec[] | null {
  const recs = recommendationsOf(f);
  if (!recs) return null;
  return recs.map((r, i) => {
    if (typeof r === 'string') return { severity: 'info', title: r, detail: '' };
    const title = String(r?.title ?? r?.message ?? r?.text ?? r?.id ?? `Recommendation ${i + 1}`);
    const detail = r?.detail ?? r?.description ?? (r?.title && r?.message ? r.message : '');
    return { severity: String(r?.severity ?? r?.level ?? 'info'), title, detail: detail ? String(detail) : '' };
  });
}

function columnsOf(rows: Record<string, unknown>[], max: number): string[] {
  const cols: string[] = [];
  for (const r of rows.slice(0, 20)) {
    for (const [k, v] of Object.entries(r)) if (isScalar(v) && !cols.includes(k)) cols.push(k);
  }
  // Names first, then the rest in order of appearance.
  cols.sort((a, b) => Number(b === 'name') - Number(a === 'name'));
  return cols.slice(0, max);
}

function tableOf(
  title: string,
  path: string,
  rows: Record<string, unknown>[],
  maxRows: number,
  originNs: number
): DigestTable {
  const columns = columnsOf(rows, 7);
  const shown = rows.slice(0, maxRows);
  const cell = (k: string, v: unknown) => (v === undefined ? '' : fmtField(kindOfKey(k, v), v, originNs));
  const barColumn =
    columns.find(
      (c) =>
        /(^|_)(total|sum|time|dur)[a-z_]*_ns$|^total_ns$|^ns$/.test(c) &&
        shown.every((r) => typeof r[c] === 'number' || r[c] === undefined)
    ) ?? null;
  return {
    title,
    path,
    columns,
    rows: shown.map((r) => columns.map((c) => cell(c, r[c]))),
    raw: shown,
    total: rows.length,
    barColumn,
  };
}

function tablesOf(f: FileSummary, maxRows: number, originNs: number): DigestTable[] {
  const out: DigestTable[] = [];
  const visit = (key: string, v: unknown, path: string, depth: number) => {
    if (out.length >= 12 || v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      if (v.length && v.every((x) => x && typeof x === 'object' && !Array.isArray(x)))
        out.push(tableOf(labelOf(key), path, v as Record<string, unknown>[], maxRows, originNs));
      return;
    }
    if (depth < 2)
      for (const [k, x] of Object.entries(v)) visit(depth === 0 ? k : `${key} ${k}`, x, `${path}.${k}`, depth + 1);
  };
  const sections: Record<string, unknown> = f;
  for (const key of kTableSections) visit(key, sections[key], key, 0);
  return out;
}

export function digestFile(f: FileSummary, maxRows = 10): FileDigest {
  const originNs = Number(f?.model?.first_ts_ns ?? 0);
  let cards: Card[] = [];
  try {
    cards = headlineCards(f);
  } catch {
    cards = [];
  }
  return {
    name: String(f?.name ?? 'trace'),
    facts: factsOf(f ?? {}),
    cards,
    recommendations: recsOf(f),
    tables: tablesOf(f ?? {}, maxRows, originNs),
    originNs,
  };
}
