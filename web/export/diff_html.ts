// The HTML report's comparison section (Compare mode): the diff's headline sentence, the headline
// deltas with their verdicts, and the kernels and operators that changed most, read through the
// Compare tab's view model (web/app/compare/diff_model.ts). Every text is HTML-escaped (names come
// from traces).
import type { DiffDocument } from '../app/compare/diff_document';
import {
  headlineRows,
  sideText,
  tableCounts,
  topChanges,
  verdictCounts,
  type ChangeRow,
} from '../app/compare/diff_model';
import { escapeHtml } from './escape_html';

const row = (cells: string[], cls: string[]) =>
  `<tr>${cells.map((c, i) => `<td${cls[i] ? ` class="${cls[i]}"` : ''}>${escapeHtml(c)}</td>`).join('')}</tr>`;
const head = (cells: string[], cls: string[]) =>
  `<thead><tr>${cells.map((c, i) => `<th${cls[i] ? ` class="${cls[i]}"` : ''}>${escapeHtml(c)}</th>`).join('')}</tr></thead>`;

function changes(title: string, kind: 'kernels' | 'operators', rows: ChangeRow[], counts: string): string {
  const cls = ['name', 'n', 'n', 'n', 'n', ''];
  const body = rows
    .map((r) =>
      row(
        [
          `${r.status === 'added' || r.status === 'removed' ? `[${r.status}] ` : ''}${r.name}`,
          r.base,
          r.cand,
          r.delta,
          r.relative,
          r.verdictText,
        ],
        cls
      )
    )
    .join('');
  return (
    `<h3>${escapeHtml(title)}</h3><p class="muted">${escapeHtml(counts)}</p>` +
    (rows.length
      ? `<table data-table="${kind}">${head(['Name', 'Baseline', 'Candidate', 'Δ', 'Δ %', 'Verdict'], cls)}<tbody>${body}</tbody></table>`
      : '')
  );
}

export function diffHtml(doc: DiffDocument, topRows = 15): string {
  const cls = ['', 'n', 'n', 'n', 'n', '', ''];
  const metrics = headlineRows(doc)
    .map((r) => row([r.label, r.base, r.cand, r.delta, r.relative || '—', r.verdictText, r.confidence || '—'], cls))
    .join('');
  return `<section class="compare">
<h2>Comparison</h2>
<p class="verdict">${escapeHtml(String(doc.verdict?.sentence ?? ''))}</p>
<p class="muted">${escapeHtml(verdictCounts(doc))} Baseline: ${escapeHtml(sideText(doc.base))}. Candidate: ${escapeHtml(sideText(doc.cand))}.</p>
<table data-table="metrics">${head(['Metric', 'Baseline', 'Candidate', 'Δ', 'Δ %', 'Verdict', 'Confidence'], cls)}<tbody>${metrics}</tbody></table>
${changes('Kernels that changed most', 'kernels', topChanges(doc.kernels, topRows), tableCounts(doc.kernels, 'kernel'))}
${changes('Operators that changed most', 'operators', topChanges(doc.operators, topRows), tableCounts(doc.operators, 'operator'))}
</section>`;
}
