// Recommendations: each rule that fired, in plain sentences, with its evidence (numbers, top
// offenders and time ranges, which link into the timeline).
import { h } from '../dom';
import { renderValue } from './generic';
import type { Links } from './links';

export function recommendationsPanel(f: any, links: Links): HTMLElement | null {
  const recs = Array.isArray(f?.recommendations) ? f.recommendations : Array.isArray(f?.recommendations?.items) ? f.recommendations.items : null;
  if (!recs) return null;
  const items = recs.map((r: any, i: number) => {
    if (typeof r === 'string') return h('li', { class: 'rec' }, r);
    const title = r.title ?? r.message ?? r.text ?? r.id ?? `Recommendation ${i + 1}`;
    const severity = String(r.severity ?? r.level ?? 'info');
    const detail = r.detail ?? r.description ?? (r.title && r.message ? r.message : null);
    const evidence = r.evidence !== undefined ? renderValue('evidence', r.evidence, links, `recommendations.${i}.evidence`, 1) : null;
    return h('li', { class: `rec sev-${severity.replace(/[^a-z]/gi, '')}` },
      h('div', { class: 'rec-title' }, h('span', { class: 'sev' }, severity), String(title)),
      detail ? h('p', null, String(detail)) : null,
      evidence ? h('details', null, h('summary', null, 'Evidence'), evidence) : null);
  });
  return h('section', { class: 'panel', 'data-section': 'recommendations' }, h('h2', null, 'Recommendations'),
    items.length ? h('ol', { class: 'recs' }, ...items) : h('p', { class: 'muted' }, 'Nothing stands out: no rule fired for this trace.'));
}
