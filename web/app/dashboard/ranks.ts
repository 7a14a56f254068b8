// Several files open (one per rank): one row per rank with the headline numbers side by side, so a
// slow or badly overlapped rank stands out. Each row selects that rank's dashboard.
import { h } from '../dom';
import { DataTable, type Column } from './table';
import type { Links } from './links';
import type { FileSummary } from '../summary_document';

const kColumns: Column[] = [
  { key: 'label', label: 'Rank', kind: 'text' },
  { key: 'limiter', label: 'Limited by', kind: 'text' },
  { key: 'step_ns', label: 'Step time', kind: 'ns' },
  { key: 'span_ns', label: 'GPU span', kind: 'ns' },
  { key: 'busy_pct', label: 'GPU busy (of span)', kind: 'pct' },
  { key: 'exposed_comm_pct', label: 'Exposed comm', kind: 'pct' },
  { key: 'overlap_pct', label: 'Comm overlap', kind: 'pct' },
  { key: 'gpu_ops', label: 'GPU ops', kind: 'count' },
  { key: 'events', label: 'Events', kind: 'count' },
];

export function ranksPanel(all: FileSummary[], links: Links): HTMLElement | null {
  if (all.length < 2) return null;
  const rows = all.map((f): Record<string, string | number | null> => {
    const t = f?.temporal;
    const span = typeof t?.span_ns === 'number' && t.span_ns > 0 ? t.span_ns : null;
    return {
      label: f?.rank !== null && f?.rank !== undefined ? `rank ${f.rank}` : String(f?.name ?? ''),
      limiter: typeof f?.verdict?.limiter === 'string' ? f.verdict.limiter.replace(/_/g, ' ') : null,
      step_ns: f?.step_breakdown?.mean_ns ?? null,
      span_ns: span,
      busy_pct: span && typeof t?.busy_ns === 'number' ? (100 * t.busy_ns) / span : null,
      exposed_comm_pct:
        span && typeof t?.exposed?.communication_ns === 'number' ? (100 * t.exposed.communication_ns) / span : null,
      overlap_pct: f?.overlap?.pct ?? null,
      gpu_ops: f?.model?.gpu_ops ?? null,
      events: f?.import?.events ?? null,
    };
  });
  const cols = kColumns.filter((c) => rows.some((r) => r[c.key] !== null && r[c.key] !== undefined));
  return h(
    'section',
    { class: 'panel', 'data-section': 'ranks' },
    h('h2', null, `Ranks side by side (${all.length} files)`),
    new DataTable(rows, cols, links, undefined, 'ranks').root
  );
}
