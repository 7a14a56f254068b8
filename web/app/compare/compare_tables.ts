// The Compare tab's tables: the headline deltas (one row per step metric, with its verdict and
// confidence), the kernels / operators that changed most (added and removed marked), and the GPU
// streams side by side. Every name
// comes from a trace: text nodes only.
import { h } from '../dom';
import type { ChangeRow, HeadlineRow } from './diff_model';
import type { StreamRow } from './diff_document';

const cell = (text: string, cls = '', attrs: Record<string, string> = {}) =>
  h('td', { class: cls || null, ...attrs }, text);

// A table of these rows under this header (the columns between the name and the verdict hold numbers).
const table = (attrs: Record<string, string>, head: string[], rows: HTMLElement[]) =>
  h(
    'table',
    attrs,
    h('thead', null, h('tr', null, ...head.map((t, i) => h('th', { class: i > 0 && i < 5 ? 'n' : null }, t)))),
    h('tbody', null, ...rows)
  );

function verdictCell(text: string, verdict: string, tone: string): HTMLElement {
  return h(
    'td',
    { class: 'cmp-verdict' },
    h('span', { class: `cmp-badge tone-${tone}`, 'data-verdict': verdict }, text)
  );
}

export function headlineTable(rows: HeadlineRow[]): HTMLElement {
  const head = ['Metric', 'Baseline', 'Candidate', 'Δ', 'Δ %', 'Verdict', 'Confidence'];
  return table(
    { class: 'cmp-table cmp-headline' },
    head,
    rows.map((r) =>
      h(
        'tr',
        { 'data-metric': r.id, 'data-verdict': r.verdict },
        cell(r.label),
        cell(r.base, 'n', { 'data-raw': String(r.raw.base ?? '') }),
        cell(r.cand, 'n', { 'data-raw': String(r.raw.cand ?? '') }),
        cell(r.delta, 'n', { 'data-raw': String(r.raw.delta ?? '') }),
        cell(r.relative || '—', 'n'),
        verdictCell(r.verdictText, r.verdict, r.tone),
        cell(r.confidence || '—', 'muted')
      )
    )
  );
}

const kStatusMark: Record<ChangeRow['status'], string> = {
  added: 'new',
  removed: 'gone',
  changed: '',
  same: '',
};

// `kind`: the table's id (kernels, operators, and the other added or removed rows: kernels-more...).
export function changesTable(kind: string, rows: ChangeRow[]): HTMLElement {
  const head = [kind.startsWith('kernels') ? 'Kernel' : 'Operator', 'Baseline', 'Candidate', 'Δ', 'Δ %', 'Verdict'];
  return table(
    { class: 'cmp-table cmp-changes', 'data-table': kind },
    head,
    rows.map((r) =>
      h(
        'tr',
        { 'data-status': r.status, 'data-verdict': r.verdict },
        h(
          'td',
          { class: 'cmp-name', title: r.name },
          kStatusMark[r.status] ? h('span', { class: `cmp-mark ${r.status}` }, kStatusMark[r.status]) : null,
          h('span', { class: 'cmp-name-text' }, r.name)
        ),
        cell(r.base, 'n'),
        cell(r.cand, 'n'),
        cell(r.delta, 'n', { 'data-raw': String(r.deltaNs) }),
        cell(r.relative, 'n'),
        verdictCell(r.verdictText, r.verdict, r.tone)
      )
    )
  );
}

// Per GPU stream: ops and busy time on each side, matched by (rank, device, stream); a stream on one
// side only reads "—" on the other.
export function streamsTable(rows: StreamRow[], duration: (ns: number) => string): HTMLElement {
  const name = (r: StreamRow) =>
    `${r.rank === null ? '' : `rank ${r.rank} · `}GPU ${r.device ?? '?'} stream ${r.stream ?? '?'}`;
  const ns = (v: number | undefined) => (v === undefined ? '—' : duration(v));
  const busy = (r: StreamRow) => (r.base && r.cand ? r.cand.busy_ns - r.base.busy_ns : null);
  return table(
    { class: 'cmp-table cmp-streams', 'data-table': 'streams' },
    ['Stream', 'Baseline busy', 'Candidate busy', 'Δ busy', 'Ops (baseline → candidate)'],
    rows.map((r) => {
      const d = busy(r);
      return h(
        'tr',
        null,
        cell(name(r)),
        cell(ns(r.base?.busy_ns), 'n'),
        cell(ns(r.cand?.busy_ns), 'n'),
        cell(d === null ? '—' : `${d >= 0 ? '+' : '−'}${duration(Math.abs(d))}`, 'n'),
        cell(`${r.base?.ops ?? '—'} → ${r.cand?.ops ?? '—'}`)
      );
    })
  );
}
