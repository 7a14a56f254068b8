// The columns of the dashboard's tables (table.ts) and of the exports' (web/export/digest_table.ts):
// what each column of a summary array is, read from its keys (units in the names), in reading order.
import { type FieldKind, kindOfKey, labelOf, wordsOf } from '../format';
import { field } from '../summary_document';
import { reservedRecorded } from './memory_words';

// A row of any table: a summary row (a kernel, a step, a gap...) or one a view made, read by key.
export type Row = Record<string, unknown>;

export interface Column {
  key: string;
  label: string;
  kind: FieldKind;
  // A value computed from the row rather than read from it: its cells carry no data-raw (the
  // summary has no such value to compare with).
  derived?: (row: Row) => unknown;
  // The cell's text when it is not the formatted value (null: the formatted value).
  display?: (value: unknown, row: Row) => string | null;
  // Percentages in one unit (and digits) for the whole column, named in the header ("GPU idle (%)").
  // Durations and timestamps always are (durationColumn): µs beside ms in one column misread.
  fixedUnit?: boolean;
}

export const kDurKeys = ['duration_ns', 'dur_ns', 'delay_ns'];
export const kNameKeys = new Set(['name', 'kernel', 'op', 'operator']);
// Columns that say what a row is without being an event name (no timeline link): shown first, after names.
const kIdKeys = new Set(['type']);
// Columns whose values are the summary's own identifiers (idle causes, op kinds): shown as words.
export const kEnumKeys = new Set(['category', 'kind']);
// Values the summary encodes as known-or-zero: collectives' bytes count only the ops whose size is
// known (sized_ops), so with none of them the 0 means "unknown" (docs/summary-detail-sections.md);
// a device's reserved memory is 0 when its memory events carry none (memory_words.ts).
const reservedUnknown = (r: Row) => !reservedRecorded(r);
export const kUnknownWhen: Record<string, (row: Row) => boolean> = {
  bytes: (r) => r?.sized_ops === 0,
  peak_reserved: reservedUnknown,
  peak_reserved_ts_ns: reservedUnknown,
  peak_reserved_share: reservedUnknown,
  final_reserved: reservedUnknown,
};
const kNumberOrder = [
  'device',
  'stream',
  'number',
  'count',
  'calls',
  'ops',
  'gpu_ops',
  'total_ns',
  'duration_ns',
  'self_ns',
  'device_total_ns',
  'device_self_ns',
  'exposed_ns',
  'mean_ns',
  'p50_ns',
  'p90_ns',
  'p95_ns',
  'p99_ns',
  'min_ns',
  'max_ns',
  'share',
];

export function get(row: Row, key: string): unknown {
  if (!key.includes('.')) return row?.[key];
  let v: unknown = row;
  for (const part of key.split('.')) v = field(v, part);
  return v;
}

export function inferColumns(rows: Row[]): Column[] {
  const seen = new Map<string, { label: string; leaf: string; sample: unknown }>();
  const note = (key: string, label: string, leaf: string, v: unknown) => {
    const prev = seen.get(key);
    if (!prev || prev.sample === null) seen.set(key, { label, leaf, sample: v });
  };
  for (const r of rows.slice(0, 50)) {
    if (!r || typeof r !== 'object') continue;
    for (const [k, v] of Object.entries(r)) {
      if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
        // One level of nesting is flattened: {"classes_ns": {"memory": 5}} -> "Classes memory" in ns.
        const unit = /_(ns|bytes|pct)$/.exec(k)?.[0] ?? '';
        for (const [k2, v2] of Object.entries(v as object)) {
          if (v2 === null || typeof v2 !== 'object')
            note(`${k}.${k2}`, `${labelOf(k)} ${wordsOf(k2)}`, k2.endsWith(unit) ? k2 : k2 + unit, v2);
        }
      } else if (!Array.isArray(v)) note(k, labelOf(k), k, v);
    }
  }
  // A column that is empty or unknown in every row (bandwidths and bytes when no message size is
  // known) says nothing; but for names, null is itself an answer (a sync's call site outside any operator).
  const unknownEverywhere = (key: string) => !!kUnknownWhen[key] && rows.every((r) => kUnknownWhen[key](r));
  const cols: Column[] = [...seen]
    .filter(
      ([key, c]) => ((c.sample !== null && c.sample !== undefined) || kNameKeys.has(key)) && !unknownEverywhere(key)
    )
    .map(([key, c]) => ({ key, label: c.label, kind: kindOfKey(c.leaf, c.sample) }));
  // Time ranges without a length ({begin_ns, end_ns}): the length is what one looks for first.
  const has = (k: string) => cols.some((c) => c.key === k);
  if (has('begin_ns') && has('end_ns') && !kDurKeys.some(has)) {
    cols.push({
      key: 'duration_ns',
      label: 'Duration',
      kind: 'ns',
      derived: (r) => Number(r?.end_ns) - Number(r?.begin_ns),
    });
  }
  // The summary's keys are sorted alphabetically; show names first, then what identifies a row,
  // then text, then the usual statistics in reading order, then anything else, then timestamps.
  const rank = (c: Column) => {
    if (kNameKeys.has(c.key)) return 0;
    if (kIdKeys.has(c.key)) return 0.5;
    if (c.kind === 'text') return 1;
    if (c.kind === 'ts') return 4;
    const i = kNumberOrder.indexOf(c.key);
    return i >= 0 ? 2 + i / 100 : 3;
  };
  return cols.sort((a, b) => rank(a) - rank(b));
}

// A column of durations or trace times: shown in one unit for all its rows (format.ts columnUnit),
// named in its header.
export const durationColumn = (c: Column) => c.kind === 'ns' || c.kind === 'ts';
