// A sortable, filterable table over an array of summary rows. Column kinds come from the keys
// (units in the names). Rows with a begin/end (or ts/dur) pair get a link into the timeline, and a
// `name` column links to a search for that name. Each table's filter and sort order can be read and
// set from outside by its id (tableStates / applyTableStates), so view links can carry them.
import { h, clear } from '../dom';
import { type ColumnUnit, type FieldKind, columnUnit, fmtField, fmtInColumn, kNoOperator, valueLabel } from '../format';
import { type Links, nameLink, rangeLink } from './links';
import { type Column, type Row, durationColumn, get, kDurKeys, kEnumKeys, kNameKeys, kUnknownWhen } from './columns';

export type { Column, Row } from './columns';

const kPage = 50;

// A table's rows are laid out and painted only once scrolled near (content-visibility), even when
// its panel is laid out: a dashboard holds thousands of cells, and Chrome's autofill lays out every
// skipped panel that holds a form field (here the filter), each time it scans the page's fields
// after new ones appear (a long task at the end of a load, before the rows were skipped). The
// placeholder is the box's height once shown (header and rows 25.8-25.9 px each in Chromium 156, the
// border 2 px, at most the 420 px the box scrolls at), so the page does not jump when they appear.
function renderRowsWhenVisible(scroll: HTMLElement, rows: number): void {
  scroll.style.contentVisibility = 'auto';
  scroll.style.containIntrinsicSize = `auto ${Math.min(420, 26 * (rows + 1) + 2)}px`;
}

// The filter text and sort order of one table, by its id (the summary path it shows).
export interface TableState {
  id: string;
  filter?: string;
  sort?: string;
  desc?: boolean;
}

// The table of each root element, for the tables with an id. Found through the document, in page
// order: a table is built before it is on the page (the dashboard is built in slices off the
// page), and those of an older dashboard go with their elements.
const tableOfRoot = new WeakMap<Element, DataTable>();
function connectedTables(): DataTable[] {
  const out: DataTable[] = [];
  for (const el of document.querySelectorAll('[data-table]')) {
    const t = tableOfRoot.get(el);
    if (t) out.push(t);
  }
  return out;
}

// The non-default states of the tables on screen (first table of each id), in page order.
export function tableStates(): TableState[] {
  const seen = new Set<string>();
  const out: TableState[] = [];
  for (const t of connectedTables()) {
    const st = t.state();
    if (!st || seen.has(st.id)) continue;
    seen.add(st.id);
    if (st.filter || st.sort) out.push(st);
  }
  return out;
}

// Applies states to the tables on screen with those ids; returns how many tables took one.
export function applyTableStates(states: TableState[]): number {
  let n = 0;
  for (const t of connectedTables()) {
    const st = states.find((s) => s.id === t.id);
    if (st && t.setState(st)) n++;
  }
  return n;
}

export class DataTable {
  readonly root: HTMLElement;
  private sortKey: string | null = null;
  private sortDesc = true;
  private filter = '';
  private shown = kPage;
  private readonly scroll: HTMLElement;
  private readonly body = h('tbody');
  private readonly head = h('thead');
  private readonly foot = h('div', { class: 'table-foot' });
  private readonly rangeKeys: { begin?: string; end?: string; dur?: string };
  private readonly input: HTMLInputElement;
  private readonly units = new Map<string, ColumnUnit>(); // the fixedUnit columns' units, by key
  private readonly cols: Column[];
  readonly id: string;

  constructor(
    private readonly rows: Row[],
    cols: Column[],
    private readonly links: Links,
    title?: string,
    id?: string
  ) {
    this.id = id ?? '';
    this.cols = cols = cols.map((c) => {
      if (c.display) return c;
      // A null name is a host sync's call site outside any operator (format.ts, kNoOperator).
      if (kNameKeys.has(c.key)) return { ...c, display: (v: unknown) => (v === null ? `(${kNoOperator})` : null) };
      // Identifiers of the summary shown as words ("host wait"), as the legends write them.
      if (c.kind === 'text' && kEnumKeys.has(c.key))
        return { ...c, display: (v: unknown) => (typeof v === 'string' ? valueLabel(v) : null) };
      const unknown = kUnknownWhen[c.key];
      return unknown ? { ...c, display: (_v: unknown, row: Row) => (unknown(row) ? '–' : null) } : c;
    });
    for (const c of cols)
      if (c.fixedUnit || durationColumn(c)) {
        const u = this.unitOf(c);
        if (u) this.units.set(c.key, u);
      }
    // A row's time range: its first two timestamp columns, or one timestamp and a duration.
    const ts = cols.filter((c) => c.kind === 'ts' && !c.key.includes('.')).map((c) => c.key);
    const k = new Set(cols.map((c) => c.key));
    this.rangeKeys = { begin: ts[0], end: ts[1], dur: ts.length === 1 ? kDurKeys.find((x) => k.has(x)) : undefined };
    const input = (this.input = h('input', {
      type: 'search',
      class: 'filter',
      placeholder: 'Filter…',
      'aria-label': 'Filter rows',
    }));
    input.addEventListener('input', () => {
      this.filter = input.value.toLowerCase();
      this.shown = kPage;
      this.renderBody();
    });
    this.scroll = h('div', { class: 'table-scroll' }, h('table', { class: 'data' }, this.head, this.body));
    renderRowsWhenVisible(this.scroll, Math.min(rows.length, kPage));
    this.root = h(
      'div',
      { class: 'table-block', 'data-table': id ?? title ?? '' },
      h(
        'div',
        { class: 'table-tools' },
        title ? h('h3', null, title) : null,
        h('span', { class: 'count' }, `${rows.length} row${rows.length === 1 ? '' : 's'}`),
        input
      ),
      this.scroll,
      this.foot
    );
    this.renderHead();
    this.renderBody();
    if (this.id) tableOfRoot.set(this.root, this);
  }

  // Null for tables without an id (nothing could find them again).
  state(): TableState | null {
    if (!this.id) return null;
    const st: TableState = { id: this.id };
    if (this.input.value) st.filter = this.input.value;
    if (this.sortKey) {
      st.sort = this.sortKey;
      st.desc = this.sortDesc;
    }
    return st;
  }

  // False when the state names a column this table does not have (nothing is changed then).
  setState(st: TableState): boolean {
    if (st.sort && !this.cols.some((c) => c.key === st.sort)) return false;
    this.input.value = st.filter ?? '';
    this.filter = this.input.value.toLowerCase();
    this.sortKey = st.sort ?? null;
    this.sortDesc = st.desc ?? true;
    this.shown = kPage;
    this.renderHead();
    this.renderBody();
    return true;
  }

  private value(row: Row, c: Column): unknown {
    return c.derived ? c.derived(row) : get(row, c.key);
  }

  // The one unit of a column shown in one (timestamps: from the trace's start).
  private unitOf(c: Column): ColumnUnit | null {
    return columnUnit(
      c.kind,
      this.rows.map((r) => this.value(r, c)),
      this.links.originNs
    );
  }

  // What a cell shows for value v of row r.
  private text(r: Row, c: Column, v: unknown): string {
    const shown = c.display?.(v, r);
    if (shown !== null && shown !== undefined) return shown;
    const u = this.units.get(c.key);
    if (u && typeof v === 'number') return fmtInColumn(c.kind, v, u, this.links.originNs);
    return fmtField(c.kind, v, this.links.originNs);
  }

  private hasRange(): boolean {
    return !!this.rangeKeys.begin && !!(this.rangeKeys.end || this.rangeKeys.dur);
  }

  private renderHead(): void {
    clear(this.head);
    const tr = h('tr');
    for (const c of this.cols) {
      const arrow = this.sortKey === c.key ? (this.sortDesc ? ' ▾' : ' ▴') : '';
      tr.append(
        h(
          'th',
          {
            class: c.kind === 'text' ? 'text' : 'num',
            'data-key': c.key,
            title: c.key,
            onclick: () => {
              if (this.sortKey === c.key) this.sortDesc = !this.sortDesc;
              else {
                this.sortKey = c.key;
                this.sortDesc = c.kind !== 'text';
              }
              this.renderHead();
              this.renderBody();
            },
          },
          c.label + (this.units.has(c.key) ? ` (${this.units.get(c.key)!.unit})` : '') + arrow
        )
      );
    }
    if (this.hasRange()) tr.append(h('th', null, ''));
    this.head.append(tr);
  }

  private view(): Row[] {
    let rows = this.rows;
    if (this.filter) {
      // The raw value or the words shown for it ("host_wait" or "host wait").
      const match = (r: Row, c: Column) => {
        const v = this.value(r, c);
        return (
          String(v ?? '')
            .toLowerCase()
            .includes(this.filter) ||
          (!!c.display && this.text(r, c, v).toLowerCase().includes(this.filter))
        );
      };
      rows = rows.filter((r) => this.cols.some((c) => c.kind === 'text' && match(r, c)));
    }
    if (this.sortKey) {
      const col = this.cols.find((c) => c.key === this.sortKey) ?? {
        key: this.sortKey,
        label: '',
        kind: 'text' as FieldKind,
      };
      const dir = this.sortDesc ? -1 : 1;
      rows = [...rows].sort((a, b) => {
        const x = this.value(a, col),
          y = this.value(b, col);
        if (x === y) return 0;
        if (x === null || x === undefined) return 1;
        if (y === null || y === undefined) return -1;
        return (x < y ? -1 : 1) * dir;
      });
    }
    return rows;
  }

  private renderBody(): void {
    clear(this.body);
    const rows = this.view();
    for (const r of rows.slice(0, this.shown)) {
      const tr = h('tr');
      for (const c of this.cols) {
        const v = this.value(r, c);
        // data-raw: the summary's own value, so tests can check every number shown against the CLI's.
        const raw = !c.derived && (typeof v === 'number' || v === null) ? String(v) : null;
        const td = h('td', { class: c.kind === 'text' ? 'text' : 'num', 'data-raw': raw });
        if (kNameKeys.has(c.key) && typeof v === 'string' && v) td.append(nameLink(this.links, v));
        else {
          td.textContent = this.text(r, c, v);
          // The value in its own unit on hover: the column's unit may round a short one away ("<0.01").
          if (typeof v === 'string' && v.length > 40) td.title = v;
          else if (typeof v === 'number' && this.units.has(c.key) && durationColumn(c))
            td.title = fmtField(c.kind, v, this.links.originNs);
        }
        tr.append(td);
      }
      if (this.hasRange()) {
        const a = Number(get(r, this.rangeKeys.begin!));
        const b = this.rangeKeys.end ? Number(get(r, this.rangeKeys.end)) : a + Number(get(r, this.rangeKeys.dur!));
        const t0 = Math.min(a, b),
          t1 = Math.max(a, b);
        const name = typeof r?.name === 'string' ? r.name : typeof r?.kernel === 'string' ? r.kernel : undefined;
        tr.append(
          h(
            'td',
            { class: 'link-cell' },
            Number.isFinite(t0) && Number.isFinite(t1) ? rangeLink(this.links, t0, t1, 'show ›', name) : null
          )
        );
      }
      this.body.append(tr);
    }
    clear(this.foot);
    if (rows.length > this.shown) {
      this.foot.append(
        h(
          'button',
          {
            class: 'btn small',
            onclick: () => {
              this.shown += 200;
              this.renderBody();
            },
          },
          `Show more (${rows.length - this.shown} hidden)`
        )
      );
    } else if (this.filter) this.foot.append(`${rows.length} of ${this.rows.length} rows match`);
  }
}
