// The Job view's collectives across ranks: how many instances were matched on every rank of their
// process group, a table per (op, group) of sizes, transfer time, arrival skew and bandwidth from
// the transfer after the last arrival (job.collectives.by_op_group), and the mismatches in words.
import { h } from '../dom';
import { fmtBytes, fmtCount } from '../format';
import { countsLine, groupName, mismatchText } from './job_words';
import { DataTable, type Column, type Row } from '../dashboard/table';
import type { Links } from '../dashboard/links';
import type { JobSummary } from '../summary_document';

// No column of this table is a time or an event name, so it links nowhere.
const kNoLinks: Links = { originNs: 0, range: () => {}, name: () => {} };

const kColumns: Column[] = [
  // `collective`, not the summary's `op`: an op name is no event name to search the timeline for.
  { key: 'collective', label: 'Collective', kind: 'text' },
  { key: 'group', label: 'Process group', kind: 'text', display: (v) => (v === '' ? groupName('') : null) },
  { key: 'count', label: 'Instances', kind: 'count' },
  { key: 'group_size', label: 'Group size', kind: 'count' },
  {
    key: 'bytes',
    label: 'Total size',
    kind: 'bytes',
    // Only the instances of known size count (sized): say so when that is not all of them.
    display: (v, r) =>
      r.sized === 0
        ? '–'
        : typeof v === 'number' && Number(r.sized) < Number(r.count)
          ? `${fmtBytes(v)} (${fmtCount(Number(r.sized))} sized)`
          : null,
  },
  { key: 'mean_transfer_ns', label: 'Mean transfer', kind: 'ns' },
  { key: 'mean_skew_ns', label: 'Mean skew', kind: 'ns' },
  { key: 'max_skew_ns', label: 'Max skew', kind: 'ns' },
  { key: 'algbw_gbps', label: 'Alg BW (GB/s)', kind: 'num' },
  { key: 'busbw_gbps', label: 'Bus BW (GB/s)', kind: 'num' },
];

export function collectivesPanel(job: JobSummary | null): HTMLElement | null {
  const c = job?.collectives;
  if (!c || typeof c !== 'object') return null;
  const rows: Row[] = (c.by_op_group ?? []).map((g) => ({ ...g, collective: g.op }));
  const mismatches = Array.isArray(c.mismatches) ? c.mismatches : [];
  return h(
    'section',
    { class: 'panel', 'data-section': 'job-collectives' },
    h('h2', null, 'Collectives across ranks'),
    h('p', { class: 'job-counts' }, countsLine(c)),
    rows.length
      ? new DataTable(rows, kColumns, kNoLinks, undefined, 'job.collectives.by_op_group').root
      : h('p', { class: 'empty-note' }, 'No collective was matched across the ranks.'),
    h(
      'p',
      { class: 'muted small' },
      'Skew: the last rank’s arrival minus the first’s. Transfer: from the last arrival to the end, so the ' +
        'bandwidths (Alg BW = size / transfer; Bus BW scaled by NCCL’s factor for the op) are not lowered by waiting.'
    ),
    mismatches.length
      ? h(
          'div',
          { class: 'subsection' },
          h(
            'h4',
            null,
            c.mismatched > mismatches.length
              ? `Mismatches (the first ${mismatches.length} of ${fmtCount(c.mismatched)})`
              : 'Mismatches'
          ),
          h(
            'ul',
            { class: 'mismatches' },
            ...mismatches.map((m) => h('li', { 'data-problem': m.problem }, mismatchText(m)))
          )
        )
      : null
  );
}
