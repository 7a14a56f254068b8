// The Job view's straggler call-outs: each rank the core flagged (core/job: median + k scaled MADs
// across ranks), in its own sentence, with the number against the median rank, the likely cause and
// the steps it was latest in, each a link to that step on that rank's timeline. Without one, the
// rule that was checked, so "no straggler" says what it means.
import { h } from '../dom';
import { fmtDuration, fmtPct } from '../format';
import type { JobSummary, Straggler, StragglerCause } from '../summary_document';
import type { JobLinks } from './job_links';
import { metricValue } from './job_words';

const kMetrics: Record<string, string> = {
  arrival_late_ns: 'mean arrival after the first rank',
  step_compute_ns: 'GPU compute per step',
  step_host_ns: 'host work (CPU ops, runtime) per step',
  step_data_loader_ns: 'DataLoader per step',
  step_memcpy_ns: 'memory copies per step',
  step_unrecorded_ns: 'unrecorded time per step',
  group_busbw_mbps: 'bus bandwidth of its process groups',
};
// What a metric's value is compared with (its `median`).
const kAgainst: Record<string, string> = { group_busbw_mbps: 'the groups of the same op and size' };
const kCauses: Record<StragglerCause, string> = {
  gpu_compute: 'GPU compute',
  host: 'host work (CPU ops, runtime)',
  data_loader: 'DataLoader',
  memory_copy: 'memory copies',
  unrecorded: 'time the profiler did not record',
  slow_link: 'a slow link',
  unknown: 'not clear from the trace',
};

function callout(s: Straggler, job: JobSummary, links: JobLinks): HTMLElement {
  const rankIndex = (job.ranks ?? []).findIndex((r) => r.label === s.label);
  const diff = s.median > 0 ? (100 * (s.value - s.median)) / s.median : null;
  const over = diff === null ? '' : ` (${fmtPct(Math.abs(diff))} ${diff >= 0 ? 'over' : 'under'})`;
  const steps = Array.isArray(s.steps) ? s.steps : [];
  return h(
    'div',
    { class: 'straggler-callout', 'data-rank': String(rankIndex), 'data-metric': s.metric },
    h(
      'p',
      { class: 'straggler-head' },
      h('span', { class: 'flag' }, '⚑'),
      h('strong', null, s.label),
      h('span', { class: 'muted' }, ` — ${kMetrics[s.metric] ?? s.metric}: `),
      h('span', { class: 'num' }, metricValue(s.metric, s.value)),
      h(
        'span',
        { class: 'muted' },
        ` vs ${kAgainst[s.metric] ?? 'median rank'} ${metricValue(s.metric, s.median)}${over}`
      ),
      h('span', { class: `cause cause-${s.cause}`, title: 'Likely cause' }, `cause: ${kCauses[s.cause] ?? s.cause}`)
    ),
    h('p', { class: 'straggler-reason' }, s.reason),
    steps.length
      ? h(
          'p',
          { class: 'straggler-steps small' },
          h('span', { class: 'muted' }, s.metric === 'arrival_late_ns' ? 'Latest in: ' : 'Steps: '),
          ...steps.flatMap((st, i) => [
            i ? h('span', { class: 'muted' }, ' · ') : null,
            stepLink(links, rankIndex, st.number),
            st.late_ns > 0 ? h('span', { class: 'muted' }, ` ${fmtDuration(st.late_ns)} late`) : null,
          ])
        )
      : null
  );
}

function stepLink(links: JobLinks, rankIndex: number, number: number): HTMLElement {
  const a = h('a', { href: '#timeline', class: 'tl-link step-link', 'data-step': String(number) }, `step ${number}`);
  a.title = 'Show this step in the timeline of this rank';
  a.addEventListener('click', (e) => {
    e.preventDefault();
    links.onStep(rankIndex, number);
  });
  return a;
}

// The rule that found none, with its numbers (docs/summary-schema.md, stragglers: "arrives last" at
// max(50 %, min(90 %, 3/n)) of its collectives, n the ranks).
function ruleText(job: JobSummary): string {
  const r = job.straggler_rule;
  if (!r) return '';
  const n = Math.max(1, job.ranks?.length ?? job.rank_count);
  const lastShare = Math.max(0.5, Math.min(0.9, 3 / n));
  return (
    `Checked: no rank arrives at collectives later than the median rank by more than ` +
    `${r.k} × 1.4826 × MAD of the ranks (and at least ${fmtDuration(r.late_floor_ns)}), none arrives last ` +
    `(by more than ${fmtDuration(r.tie_ns)}) at ${fmtPct(100 * lastShare)} or more of its collectives, no ` +
    `part of a rank's mean step (GPU compute, host work, DataLoader, copies, unrecorded time) exceeds the ` +
    `median rank's by ${r.k} MADs and at least 10 µs or ${fmtPct(100 * r.step_margin_share)} of the median step, ` +
    'and no rank is only in process groups that transfer at under half the bus bandwidth of the groups of the ' +
    'same op and message size.'
  );
}

export function stragglersPanel(job: JobSummary | null, links: JobLinks): HTMLElement | null {
  if (!job || !Array.isArray(job.stragglers)) return null; // a document from saved summaries: no analysis
  const list = job.stragglers;
  return h(
    'section',
    { class: `panel stragglers${list.length ? ' found' : ''}`, 'data-section': 'stragglers' },
    h('h2', null, list.length ? `Stragglers (${list.length})` : 'Stragglers'),
    ...(list.length
      ? list.map((s) => callout(s, job, links))
      : [h('p', { class: 'no-straggler' }, h('strong', null, 'No straggler. '), ruleText(job))])
  );
}
