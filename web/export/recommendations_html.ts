// The report's recommendations, as the dashboard lists them: each with its severity, title, whole
// text, evidence numbers (with their units) and top offenders. All of it is trace text: escaped.
import type { DigestRec } from './digest';
import { escapeHtml } from './escape_html';

function recHtml(r: DigestRec): string {
  const evidence = r.evidence.length
    ? `<dl class="evidence">${r.evidence
        .map(([k, v]) => `<div><dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd></div>`)
        .join('')}</dl>`
    : '';
  const offenders = r.offenders.length
    ? `<p class="muted">Top offenders: ${r.offenders
        .map((o) => `<code${o.full ? ` title="${escapeHtml(o.full)}"` : ''}>${escapeHtml(o.text)}</code>`)
        .join(', ')}</p>`
    : '';
  return (
    `<li class="rec" data-severity="${escapeHtml(r.severity)}"><span class="sev">${escapeHtml(r.severity)}</span>` +
    `<strong class="rec-title">${escapeHtml(r.title)}</strong>` +
    `${r.detail ? `<p class="rec-text">${escapeHtml(r.detail)}</p>` : ''}${evidence}${offenders}</li>`
  );
}

export function recommendationsHtml(recs: DigestRec[]): string {
  const list = recs.length
    ? `<ol class="recs">${recs.map(recHtml).join('')}</ol>`
    : '<p class="muted">Nothing stands out: no rule fired for this trace.</p>';
  return `<h3>Recommendations</h3>${list}`;
}
