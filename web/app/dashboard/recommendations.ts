// Recommendations: each rule that fired, in plain sentences, with its evidence (numbers, top
// offenders and time ranges, which link into the timeline).
import { h } from '../dom';
import { kvGrid, renderValue } from './generic';
import { fmtDuration, kNoOperator, valueLabel } from '../format';
import { nameLink, rangeLink } from './links';
import type { Links } from './links';
import type { FileSummary, RecommendationLike, TimeRange } from '../summary_document';
import { field, isObject, recommendationsOf } from '../summary_document';

export function recommendationsPanel(f: FileSummary, links: Links): HTMLElement | null {
  const recs = recommendationsOf(f);
  if (!recs) return null;
  const kRank: Record<string, number> = { high: 0, critical: 0, medium: 1, warning: 1, low: 2, info: 3 };
  const rank = (r: RecommendationLike) => kRank[String(field(r, 'severity'))] ?? 3;
  const order = recs.map((r, i) => ({ r, i })).sort((a, b) => rank(a.r) - rank(b.r) || a.i - b.i); // most severe first
  const items = order.map(({ r, i }) => {
    if (typeof r === 'string') return h('li', { class: 'rec' }, r);
    const title = r.title ?? r.message ?? r.text ?? r.id ?? `Recommendation ${i + 1}`;
    const severity = String(r.severity ?? r.level ?? 'info');
    const detail = r.text ?? r.detail ?? r.description ?? (r.title && r.message ? r.message : null);
    const evidence = r.evidence !== undefined ? evidenceView(r.evidence, String(r.id ?? ''), links, i) : null;
    return h(
      'li',
      { class: `rec sev-${severity.replace(/[^a-z]/gi, '')}`, 'data-rec': typeof r.id === 'string' ? r.id : null },
      h('div', { class: 'rec-title' }, h('span', { class: 'sev' }, severity), String(title)),
      detail ? h('p', null, String(detail)) : null,
      evidence
    );
  });
  return h(
    'section',
    { class: 'panel', 'data-section': 'recommendations' },
    h('h2', null, 'Recommendations'),
    items.length
      ? h('ol', { class: 'recs' }, ...items)
      : h('p', { class: 'muted' }, 'Nothing stands out: no rule fired for this trace.')
  );
}

// What each rule's offenders are (core/analysis/recommendations.cc): only event names can be searched
// in the timeline; idle causes, collective types and "stream 7" match no slice, and a search for them
// dimmed every slice. A rule not listed here (newer than this page) gets plain text.
const kNameOffenders = new Set(['data_loading', 'launch_bound', 'host_syncs', 'no_tensor_cores']); // steps, ops, kernels
const kCategoryOffenders = new Set(['gpu_idle']); // idle causes: host_wait, kernel_wait, other
// null: an offender without a name (host_syncs: a sync called from no operator), so no link.
function offenderView(rule: string, o: string | null, links: Links): HTMLElement {
  if (o === null) return h('span', { class: 'offender muted' }, `code ${kNoOperator}`);
  if (kNameOffenders.has(rule)) return nameLink(links, o);
  return h('span', { class: 'offender', title: o }, kCategoryOffenders.has(rule) ? valueLabel(o) : o);
}

// The JSON's keys come alphabetically (the core's objects are sorted maps); the share that fired
// the rule reads best first, before the times it is made of.
function shareFirst(numbers: Record<string, unknown>): Record<string, unknown> {
  return 'share' in numbers ? { share: numbers.share, ...numbers } : numbers;
}

// A range of the evidence that can be shown: both ends are numbers.
const isRange = (r: unknown): r is TimeRange =>
  typeof field(r, 'begin_ns') === 'number' && typeof field(r, 'end_ns') === 'number';

// Evidence: the numbers (units in their names), the top offenders (event names link to a search in
// the timeline) and the worst time ranges (links to zoom there).
function evidenceView(ev: unknown, rule: string, links: Links, i: number): HTMLElement | null {
  if (!isObject(ev)) return null;
  const box = h('div', { class: 'evidence' });
  const { numbers, offenders, ranges, ...rest } = ev;
  if (isObject(numbers) && Object.keys(numbers).length) {
    box.append(kvGrid(shareFirst(numbers), links, `recommendations.${i}.evidence.numbers`));
  }
  if (Array.isArray(offenders) && offenders.length) {
    box.append(
      h(
        'div',
        { class: 'offenders' },
        h('span', { class: 'muted' }, kCategoryOffenders.has(rule) ? 'Main cause: ' : 'Top offenders: '),
        ...offenders
          .filter((o: unknown): o is string | null => typeof o === 'string' || o === null)
          .map((o) => offenderView(rule, o, links))
      )
    );
  }
  if (Array.isArray(ranges) && ranges.length) {
    box.append(
      h(
        'div',
        { class: 'ranges' },
        h('span', { class: 'muted' }, 'Worst ranges: '),
        ...ranges
          .filter(isRange)
          .map((r) =>
            rangeLink(
              links,
              r.begin_ns,
              r.end_ns,
              `+${fmtDuration(r.begin_ns - links.originNs)} (${fmtDuration(r.end_ns - r.begin_ns)})`
            )
          )
      )
    );
  }
  for (const [k, v] of Object.entries(rest)) {
    const el = renderValue(k, v, links, `recommendations.${i}.evidence.${k}`, 1);
    if (el) box.append(el);
  }
  return box.childNodes.length ? box : null;
}
