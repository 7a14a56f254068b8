// Renders any summary section whatever its shape: objects of scalars become key/value grids,
// arrays of objects become tables, arrays of numbers a sparkline; nested objects recurse. The
// analysis sections grow while the app is written, so anything without a dedicated view still shows.
import { h } from '../dom';
import { fmtField, kindOfKey, labelOf } from '../format';
import type { Links } from './links';
import { DataTable } from './table';
import { inferColumns } from './columns';
import { lineChart } from './charts';

const isScalar = (v: unknown) => v === null || typeof v !== 'object';

export function renderValue(key: string, value: unknown, links: Links, path: string, depth = 0): HTMLElement | null {
  if (value === null || value === undefined) return null;
  if (isScalar(value)) return kvGrid({ [key]: value }, links, path.split('.').slice(0, -1).join('.'));
  if (Array.isArray(value)) {
    if (value.length === 0) return h('div', { class: 'empty-note' }, `${labelOf(key)}: none`);
    if (value.every((v) => typeof v === 'number')) {
      return h(
        'div',
        { class: 'subsection' },
        h('h4', null, labelOf(key)),
        lineChart([value.map((_, i) => i), value as number[]], [labelOf(key)], { height: 120 })
      );
    }
    if (value.every((v) => v && typeof v === 'object' && !Array.isArray(v))) {
      return new DataTable(value, inferColumns(value), links, labelOf(key), path).root;
    }
    return kvGrid({ [key]: value.map((v) => (isScalar(v) ? String(v) : JSON.stringify(v))).join(', ') }, links, path);
  }
  const obj = value as Record<string, unknown>;
  const scalars: Record<string, unknown> = {};
  const nested: Array<[string, unknown]> = [];
  for (const [k, v] of Object.entries(obj)) isScalar(v) ? (scalars[k] = v) : nested.push([k, v]);
  // Objects whose values are all scalars (e.g. per-kind stats keyed by kind) read best as one table.
  const flat = nested.filter(
    ([, v]) => v && typeof v === 'object' && !Array.isArray(v) && Object.values(v as object).every(isScalar)
  );
  let rest = nested;
  let table: HTMLElement | null = null;
  if (flat.length > 1) {
    const rows = flat.map(([k, v]) => ({ name: k, ...(v as object) }));
    table = new DataTable(
      rows,
      inferColumns(rows),
      links,
      depth > 0 || Object.keys(scalars).length ? labelOf(key) : undefined,
      path
    ).root;
    rest = nested.filter((e) => !flat.includes(e));
    if (!rest.length && !Object.keys(scalars).length) return table;
  }
  const box = h('div', { class: depth === 0 ? 'section-body' : 'subsection' });
  if (depth > 0) box.append(h('h4', null, labelOf(key)));
  if (Object.keys(scalars).length) box.append(kvGrid(scalars, links, path));
  if (table) box.append(table);
  // A section's main table ("top": the names with the most time) before its other parts.
  rest = [...rest].sort(([a], [b]) => Number(b === 'top') - Number(a === 'top'));
  for (const [k, v] of rest) {
    const el = depth < 4 ? renderValue(k, v, links, `${path}.${k}`, depth + 1) : null;
    if (el) box.append(el);
  }
  return box;
}

export function kvGrid(obj: Record<string, unknown>, links: Links, path: string): HTMLElement {
  const grid = h('dl', { class: 'kv' });
  for (const [k, v] of Object.entries(obj)) {
    const kind = kindOfKey(k, v);
    grid.append(
      h('dt', { title: k }, labelOf(k)),
      h(
        'dd',
        { 'data-path': path ? `${path}.${k}` : k, 'data-raw': v === null ? 'null' : String(v) },
        fmtField(kind, v, links.originNs)
      )
    );
  }
  return grid;
}
