// One table of the exports, read like the dashboard's: the dashboard's column labels (not the
// summary's keys), every duration column in one unit named in its header, long names shortened
// (the whole name kept beside the short one), and for the kernel and operator tables a share column
// and a total row (export_columns.ts says which columns and which total).
import { type ColumnUnit, columnUnit, fmtField, fmtInColumn } from '../app/format';
import { type Column, type Row, durationColumn, get, inferColumns, kUnknownWhen } from '../app/dashboard/columns';
import { sectionColumns } from './export_columns';

// Names longer than this (C++ kernel signatures run to 1,500 characters) are shortened.
export const kMaxNameChars = 120;
const kMaxColumns = 8;

export interface DigestColumn {
  key: string;
  label: string; // with the column's unit when it has one: "Total (ms)"
  numeric: boolean;
}
// `full`: the whole text when `text` is shortened.
export interface DigestCell {
  text: string;
  full?: string;
}
export interface DigestTable {
  title: string;
  path: string;
  columns: DigestColumn[];
  rows: DigestCell[][];
  totalRow: DigestCell[] | null; // what all the rows of the section add up to (kernels, operators)
  raw: Row[]; // the rows shown, as the summary has them
  rowCount: number; // rows in the summary (more than shown when cut)
  bar: { key: string; unit: ColumnUnit } | null; // the column the report's bar chart draws
}

// `text` cut to `max` characters (whole code points) with an ellipsis.
export function shorten(text: string, max = kMaxNameChars): DigestCell {
  const points = Array.from(text);
  return points.length <= max ? { text } : { text: `${points.slice(0, max - 1).join('')}…`, full: text };
}

function cellText(c: Column, r: Row, v: unknown, unit: ColumnUnit | null, originNs: number): DigestCell {
  if (v === undefined || v === null) return { text: v === null && c.kind === 'text' ? '–' : '' };
  if (kUnknownWhen[c.key]?.(r)) return { text: '–' }; // a 0 that means "not known", as on the dashboard
  if (typeof v === 'number' && unit) return { text: fmtInColumn(c.kind, v, unit, originNs) };
  return shorten(fmtField(c.kind, v, originNs));
}

export function digestTable(
  title: string,
  path: string,
  section: unknown,
  rows: Row[],
  maxRows: number,
  originNs: number
): DigestTable {
  const special = sectionColumns(path, section, rows);
  const cols = special?.columns ?? inferColumns(rows).slice(0, kMaxColumns);
  const value = (r: Row, c: Column) => (c.derived ? c.derived(r) : get(r, c.key));
  // One unit per duration (and percentage) column, from the section's rows: a total row is shown in
  // it too, without making the rows coarser.
  const units = cols.map((c) =>
    durationColumn(c) || c.kind === 'pct' || c.kind === 'frac'
      ? columnUnit(
          c.kind,
          rows.map((r) => value(r, c)),
          originNs
        )
      : null
  );
  const shown = rows.slice(0, maxRows);
  const line = (r: Row) => cols.map((c, i) => cellText(c, r, value(r, c), units[i], originNs));
  const barIndex = cols.findIndex(
    (c, i) => c.kind === 'ns' && units[i] && /(^|_)(total|sum|time|dur)[a-z_]*_ns$|^ns$/.test(c.key)
  );
  return {
    title,
    path,
    columns: cols.map((c, i) => ({
      key: c.key,
      label: units[i] ? `${c.label} (${units[i]!.unit})` : c.label,
      numeric: c.kind !== 'text' && c.kind !== 'bool',
    })),
    rows: shown.map(line),
    totalRow: special?.total ? line(special.total) : null,
    raw: shown,
    rowCount: rows.length,
    bar: barIndex >= 0 ? { key: cols[barIndex].key, unit: units[barIndex]! } : null,
  };
}
