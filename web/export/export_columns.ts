// The kernel and operator tables of the exports: the dashboard's columns that say the most in a
// report's width, a share-of-total column and a total row. Kernels: the section's own totals (all
// GPU ops, not only the rows listed); `share` is the summary's (of the summed time of all GPU ops).
// Operators: inclusive times nest (an operator's total holds its children's), so only the exclusive
// ones (self times, calls) add up; the summary lists the top operators only, so their total and
// shares are of the operators listed, and the total row says so.
import { fmtCount, labelOf } from '../app/format';
import type { Column, Row } from '../app/dashboard/columns';
import { isObject } from '../app/summary_document';

export interface SectionColumns {
  columns: Column[];
  total: Row | null;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const col = (key: string, kind: Column['kind']): Column => ({ key, label: labelOf(key), kind });
const sum = (rows: Row[], key: string) => rows.reduce((n, r) => n + (num(r?.[key]) ?? 0), 0);

function kernelColumns(section: unknown): SectionColumns {
  const columns = [
    col('name', 'text'),
    col('count', 'count'),
    col('total_ns', 'ns'),
    col('share', 'frac'),
    col('mean_ns', 'ns'),
    col('p50_ns', 'ns'),
    col('p95_ns', 'ns'),
    col('max_ns', 'ns'),
  ];
  const count = num(isObject(section) ? section.count : null);
  const total = num(isObject(section) ? section.total_ns : null);
  const names = num(isObject(section) ? section.distinct_names : null);
  if (count === null || total === null) return { columns, total: null };
  return {
    columns,
    total: {
      name: `All GPU ops${names === null ? '' : ` (${fmtCount(names)} names)`}`,
      count,
      total_ns: total,
      share: total > 0 ? 1 : null,
      mean_ns: count > 0 ? total / count : null,
    },
  };
}

function operatorColumns(rows: Row[], section: unknown): SectionColumns {
  const self = sum(rows, 'self_ns');
  const columns: Column[] = [
    col('name', 'text'),
    col('calls', 'count'),
    col('total_ns', 'ns'),
    col('self_ns', 'ns'),
    {
      key: 'self_share',
      label: 'Share of self time',
      kind: 'frac',
      derived: (r) => (self > 0 && num(r?.self_ns) !== null ? (r.self_ns as number) / self : null),
    },
    col('device_self_ns', 'ns'),
    col('device_total_ns', 'ns'),
  ];
  const distinct = num(isObject(section) ? section.distinct_operators : null);
  const of = distinct !== null && distinct > rows.length ? ` of ${fmtCount(distinct)}` : '';
  return {
    columns,
    total: {
      name: `The ${fmtCount(rows.length)} operators listed${of} (self times)`,
      calls: sum(rows, 'calls'),
      self_ns: self,
      device_self_ns: sum(rows, 'device_self_ns'),
    },
  };
}

// The columns and total row of the table at `path` (`section`: the object holding it), or null
// for the tables shown with the dashboard's generic columns.
export function sectionColumns(path: string, section: unknown, rows: Row[]): SectionColumns | null {
  if (path === 'kernels.top') return kernelColumns(section);
  if (path === 'operators.top') return operatorColumns(rows, section);
  return null;
}
