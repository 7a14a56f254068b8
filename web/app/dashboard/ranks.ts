// Several files open (one per rank): one row per rank with the headline numbers side by side, so a
// slow or badly overlapped rank stands out; with the job analysis (job.ranks, in rank order) also
// each rank's clock offset, how late it arrives at collectives and its time waiting and transferring.
import { h } from '../dom';
import { fmtCount } from '../format';
import { DataTable, type Column, type Row } from './table';
import type { Links } from './links';
import type { FileSummary, JobRank, JobSummary } from '../summary_document';
import { rankFiles } from '../job/job_files';

const kColumns: Column[] = [
  { key: 'label', label: 'Rank', kind: 'text' },
  { key: 'limiter', label: 'Limited by', kind: 'text' },
  { key: 'step_ns', label: 'Step time', kind: 'ns' },
  { key: 'span_ns', label: 'GPU span', kind: 'ns' },
  { key: 'busy_pct', label: 'GPU busy', kind: 'pct' },
  { key: 'exposed_comm_pct', label: 'Exposed comm', kind: 'pct' },
  { key: 'overlap_pct', label: 'Comm overlap', kind: 'pct' },
  // From the job analysis.
  { key: 'late_ns', label: 'Late arrival', kind: 'ns' },
  {
    key: 'last_arrivals',
    label: 'Arrived last',
    kind: 'count',
    display: (v, r) => (typeof v === 'number' && typeof r.collectives === 'number' ? `${v} of ${r.collectives}` : null),
  },
  { key: 'wait_ns', label: 'Wait', kind: 'ns' },
  { key: 'transfer_ns', label: 'Transfer', kind: 'ns' },
  { key: 'clock_offset_ns', label: 'Clock offset', kind: 'ns' },
  { key: 'clock_residual_ns', label: '± residual', kind: 'ns' },
  { key: 'gpu_ops', label: 'GPU ops', kind: 'count' },
  { key: 'events', label: 'Events', kind: 'count' },
];

function fileRow(f: FileSummary | undefined): Row {
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
}

function jobColumns(r: JobRank): Row {
  return {
    label: r.label,
    late_ns: r.late_ns,
    last_arrivals: r.last_arrivals,
    collectives: r.collectives,
    wait_ns: r.wait_ns,
    transfer_ns: r.transfer_ns,
    // A clock that was not estimated is not an offset of 0: shown as unknown.
    clock_offset_ns: r.aligned ? r.clock_offset_ns : null,
    clock_residual_ns: r.aligned ? r.clock_residual_ns : null,
  };
}

export function ranksPanel(all: FileSummary[], links: Links, job: JobSummary | null = null): HTMLElement | null {
  if (all.length < 2) return null;
  const ranks = Array.isArray(job?.ranks) ? job.ranks : null;
  const fileOf = ranks ? rankFiles(ranks, all) : [];
  const rows = ranks ? ranks.map((r, i) => ({ ...fileRow(all[fileOf[i]]), ...jobColumns(r) })) : all.map(fileRow);
  // With the job's columns, the counts of events and ops stay in each rank's Overview: the table fits.
  const cols = kColumns.filter(
    (c) =>
      rows.some((r) => r[c.key] !== null && r[c.key] !== undefined) &&
      !(ranks && (c.key === 'events' || c.key === 'gpu_ops'))
  );
  return h(
    'section',
    { class: 'panel', 'data-section': 'ranks' },
    h('h2', null, `Ranks side by side (${fmtCount(rows.length)} ${ranks ? 'ranks' : 'files'})`),
    ranks
      ? h(
          'p',
          { class: 'muted small' },
          'GPU busy: of the GPU span. Late arrival: mean, at collectives, after the first rank. Wait: summed time waiting in collectives for the ' +
            "last rank. Clock offset: this rank's timestamps minus the reference rank's clock (± the median residual " +
            'of its collective ends).'
        )
      : null,
    new DataTable(rows, cols, links, undefined, 'ranks').root
  );
}
