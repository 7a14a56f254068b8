// What the exports show of one file's summary, read defensively (analyses may be absent or grow):
// the headline cards (the dashboard's own function, so the numbers are the ones on screen), the
// facts, the recommendations with their evidence, and the table-like sections with their first
// rows (digest_table.ts).
import { headlineCards, type Card } from '../app/dashboard/cards';
import { fmtField, kindOfKey, labelOf, fmtBytes, fmtCount, kNoOperator } from '../app/format';
import { type FileSummary, isObject, recommendationsOf } from '../app/summary_document';
import { devicesLine } from '../app/device_names';
import { digestTable, shorten, type DigestCell, type DigestTable } from './digest_table';

export type { DigestCell, DigestColumn, DigestTable } from './digest_table';

export interface DigestRec {
  severity: string;
  title: string;
  detail: string; // the recommendation's whole text
  evidence: Array<[string, string]>; // its numbers: label, value with its unit
  offenders: DigestCell[];
}
export interface FileDigest {
  name: string;
  verdict: string | null; // the core's one sentence on what limits the run (null: an older summary)
  facts: Array<[string, string]>;
  cards: Card[];
  recommendations: DigestRec[] | null; // null: the summary has no recommendations section
  tables: DigestTable[];
  originNs: number;
}

// Section order follows the dashboard; "kernels" first because that is what people ask about.
const kTableSections = ['kernels', 'operators', 'collectives', 'idle', 'launches', 'memory', 'steps', 'step_breakdown'];

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

// The evidence numbers as the dashboard shows them (units from the keys), the share that fired the
// rule first.
function evidenceOf(ev: unknown, originNs: number): Pick<DigestRec, 'evidence' | 'offenders'> {
  const numbers = isObject(ev) && isObject(ev.numbers) ? ev.numbers : {};
  const ordered = 'share' in numbers ? { share: numbers.share, ...numbers } : numbers;
  const evidence = Object.entries(ordered).map(([k, v]): [string, string] => [
    labelOf(k),
    fmtField(kindOfKey(k, v), v, originNs),
  ]);
  const list = isObject(ev) && Array.isArray(ev.offenders) ? ev.offenders : [];
  const offenders = list
    .filter((o: unknown): o is string | null => typeof o === 'string' || o === null)
    .map((o) => shorten(o === null ? `code ${kNoOperator}` : o));
  return { evidence, offenders };
}

// The core's keys (title, text) and the other names a summary may use, as the dashboard reads them.
function recsOf(f: FileSummary, originNs: number): DigestRec[] | null {
  const recs = recommendationsOf(f);
  if (!recs) return null;
  return recs.map((r, i) => {
    if (typeof r === 'string') return { severity: 'info', title: r, detail: '', evidence: [], offenders: [] };
    const title = String(r?.title ?? r?.message ?? r?.text ?? r?.id ?? `Recommendation ${i + 1}`);
    const detail = r?.text ?? r?.detail ?? r?.description ?? (r?.title && r?.message ? r.message : '');
    return {
      severity: String(r?.severity ?? r?.level ?? 'info'),
      title,
      detail: detail && String(detail) !== title ? String(detail) : '',
      ...evidenceOf(r?.evidence, originNs),
    };
  });
}

// Titles name the section and the table ("Kernels › Top by total time"), as the dashboard's
// panel heading and table title do together.
function tablesOf(f: FileSummary, maxRows: number, originNs: number): DigestTable[] {
  const out: DigestTable[] = [];
  const visit = (keys: string[], v: unknown, parent: unknown) => {
    if (out.length >= 12 || v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      if (v.length && v.every((x) => x && typeof x === 'object' && !Array.isArray(x))) {
        const title = keys.map(labelOf).join(' › ');
        out.push(digestTable(title, keys.join('.'), parent, v as Record<string, unknown>[], maxRows, originNs));
      }
      return;
    }
    if (keys.length < 3) for (const [k, x] of Object.entries(v)) visit([...keys, k], x, v);
  };
  const sections: Record<string, unknown> = f;
  for (const key of kTableSections) visit([key], sections[key], null);
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
    verdict: typeof f?.verdict?.sentence === 'string' ? f.verdict.sentence : null,
    facts: factsOf(f ?? {}),
    cards,
    recommendations: recsOf(f, originNs),
    tables: tablesOf(f ?? {}, maxRows, originNs),
    originNs,
  };
}

// The job's line (two files or more: the document's job), e.g. "Job (8 files): All 8 ranks are ...".
export function jobLine(doc: { job?: unknown }): { label: string; sentence: string } | null {
  const job = isObject(doc?.job) ? doc.job : null;
  const sentence = job && isObject(job.verdict) ? job.verdict.sentence : null;
  if (typeof sentence !== 'string') return null;
  return { label: `Job (${typeof job?.rank_count === 'number' ? job.rank_count : '?'} files):`, sentence };
}
