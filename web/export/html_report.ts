// The downloadable report: one self-contained HTML file (inline CSS and SVG, no script, no external
// resource) with the summary numbers, charts and recommendations of every file. A Content-Security-
// Policy of default-src 'none' makes "no network request" a property the browser enforces, not a
// promise. Every text from the trace is HTML-escaped.
import { digestFile, jobLine, type DigestCell, type DigestTable, type FileDigest } from './digest';
import { jobDigest } from './job_digest';
import { fmtInUnit } from '../app/format';
import { escapeHtml } from './escape_html';
import { recommendationsHtml } from './recommendations_html';
import type { FileSummary } from '../app/summary_document';
import type { DiffDocument } from '../app/compare/diff_document';
import { diffHtml } from './diff_html';

const kCss = `
:root{color-scheme:light dark;--fg:#1d2330;--muted:#5b6475;--bg:#fff;--panel:#f5f7fa;--line:#d9dee7;--bar:#3b6fd8;--good:#1f8a4c;--warn:#b7791f;--bad:#c0392b}
@media (prefers-color-scheme:dark){:root{--fg:#e6e9ef;--muted:#9aa3b2;--bg:#14171c;--panel:#1d2128;--line:#333a45;--bar:#6d9bf1}}
body{font:14px/1.45 system-ui,sans-serif;color:var(--fg);background:var(--bg);margin:0 auto;max-width:1100px;padding:24px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid var(--line);padding-bottom:4px}
h3{font-size:15px;margin:18px 0 6px}.muted{color:var(--muted)}
.facts{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;margin:8px 0}.facts dt{color:var(--muted)}.facts dd{margin:0}
.cards{display:flex;flex-wrap:wrap;gap:10px;margin:12px 0}.card{background:var(--panel);border:1px solid var(--line);border-radius:8px;padding:10px 14px;min-width:150px}
.card .l{color:var(--muted);font-size:12px}.card .v{font-size:22px;font-weight:600}.card .s{color:var(--muted);font-size:12px}
.tone-good .v{color:var(--good)}.tone-warn .v{color:var(--warn)}.tone-bad .v{color:var(--bad)}
table{border-collapse:collapse;width:100%;font-size:13px;margin:6px 0}th,td{border-bottom:1px solid var(--line);padding:3px 8px;text-align:left;vertical-align:top}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}td.name{word-break:break-all;max-width:480px}
tfoot td{font-weight:600;border-top:2px solid var(--line)}
.recs li{margin:10px 0}.recs p{margin:2px 0}.evidence{display:flex;flex-wrap:wrap;gap:2px 16px;margin:4px 0;font-size:13px}
.evidence div{display:flex}.evidence dt{color:var(--muted)}.evidence dd{margin:0 0 0 4px}.sev{display:inline-block;font-size:11px;text-transform:uppercase;border:1px solid var(--line);border-radius:4px;padding:0 5px;margin-right:6px}
.verdict{background:var(--panel);border-left:4px solid var(--bar);padding:8px 12px;margin:10px 0;font-size:15px}
svg text{fill:var(--fg);font:11px system-ui,sans-serif}svg .bar{fill:var(--bar)}footer{margin-top:32px;font-size:12px;color:var(--muted)}
`;

// The first rows of the table's bar column as bars, each labelled in the column's one unit.
function barChart(t: DigestTable): string {
  const bar = t.bar;
  if (!bar) return '';
  const nameCol = t.columns.find((c) => /name/.test(c.key)) ?? t.columns[0];
  const rows = t.raw.filter((r) => typeof r[bar.key] === 'number').slice(0, 10);
  if (rows.length < 2) return '';
  const max = Math.max(...rows.map((r) => r[bar.key] as number)) || 1;
  const rowH = 20,
    labelW = 320,
    barW = 520,
    w = labelW + barW + 110,
    hgt = rows.length * rowH + 6;
  const bars = rows
    .map((r, i) => {
      const v = r[bar.key] as number;
      const y = i * rowH + 3;
      const label = String(r[nameCol.key] ?? '');
      const short = label.length > 48 ? `${label.slice(0, 47)}…` : label;
      return (
        `<text x="${labelW - 6}" y="${y + 13}" text-anchor="end"><title>${escapeHtml(label)}</title>${escapeHtml(short)}</text>` +
        `<rect class="bar" x="${labelW}" y="${y + 2}" width="${Math.max(1, (barW * v) / max).toFixed(1)}" height="${rowH - 6}" rx="2"></rect>` +
        `<text x="${labelW + Math.max(1, (barW * v) / max) + 6}" y="${y + 13}">${escapeHtml(`${fmtInUnit(v, bar.unit)} ${bar.unit.unit}`)}</text>`
      );
    })
    .join('');
  const col = t.columns.find((c) => c.key === bar.key)?.label ?? bar.key;
  return `<svg role="img" aria-label="${escapeHtml(`${t.title}: ${col}`)}" viewBox="0 0 ${w} ${hgt}" width="100%" style="max-width:${w}px">${bars}</svg>`;
}

// A cell as text; a shortened one keeps the whole text in its title (shown on hover).
const cellHtml = (cell: DigestCell, cls: string) =>
  `<td${cls ? ` class="${cls}"` : ''}${cell.full ? ` title="${escapeHtml(cell.full)}"` : ''}>${escapeHtml(cell.text)}</td>`;

function tableHtml(t: DigestTable): string {
  const cls = t.columns.map((c) => (c.numeric ? 'n' : /name|kernel|operator/.test(c.key) ? 'name' : ''));
  const head = t.columns.map((c, i) => `<th${cls[i] === 'n' ? ' class="n"' : ''}>${escapeHtml(c.label)}</th>`).join('');
  const line = (r: DigestCell[]) => r.map((cell, i) => cellHtml(cell, cls[i])).join('');
  const body = t.rows.map((r) => `<tr>${line(r)}</tr>`).join('');
  const total = t.totalRow ? `<tfoot><tr class="total">${line(t.totalRow)}</tr></tfoot>` : '';
  const more = t.rowCount > t.rows.length ? `<p class="muted">Top ${t.rows.length} of ${t.rowCount} rows.</p>` : '';
  return `<h3>${escapeHtml(t.title)}</h3>${barChart(t)}<table data-path="${escapeHtml(t.path)}"><thead><tr>${head}</tr></thead><tbody>${body}</tbody>${total}</table>${more}`;
}

function fileHtml(d: FileDigest): string {
  const parts: string[] = [`<h2>${escapeHtml(d.name)}</h2>`];
  if (d.verdict) parts.push(`<p class="verdict"><strong>Verdict:</strong> ${escapeHtml(d.verdict)}</p>`);
  if (d.facts.length)
    parts.push(
      `<dl class="facts">${d.facts.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join('')}</dl>`
    );
  if (d.cards.length) {
    parts.push(
      `<div class="cards">${d.cards
        .map(
          (c) =>
            `<div class="card${c.tone ? ` tone-${c.tone}` : ''}" data-card="${escapeHtml(c.id)}">` +
            `<div class="l">${escapeHtml(c.label)}</div><div class="v" data-raw="${escapeHtml(String(c.raw))}">${escapeHtml(c.value)}</div>` +
            `${c.sub ? `<div class="s">${escapeHtml(c.sub)}</div>` : ''}</div>`
        )
        .join('')}</div>`
    );
  }
  if (d.recommendations) parts.push(recommendationsHtml(d.recommendations));
  for (const t of d.tables) parts.push(tableHtml(t));
  return `<section class="file">${parts.join('\n')}</section>`;
}

function jobHtml(doc: { job?: unknown }): string {
  const job = jobLine(doc);
  const parts = job
    ? [`<p class="verdict"><strong>${escapeHtml(job.label)}</strong> ${escapeHtml(job.sentence)}</p>`]
    : [];
  const jd = jobDigest(doc);
  if (!jd) return parts.join('\n');
  const list = (cls: string, items: string[]) =>
    `<ul class="${cls}">${items.map((x) => `<li>${escapeHtml(x)}</li>`).join('')}</ul>`;
  parts.push('<h3>Stragglers</h3>');
  parts.push(jd.stragglers?.length ? list('stragglers', jd.stragglers) : '<p class="stragglers">None found.</p>');
  if (jd.collectives) {
    parts.push(`<h3>Collectives across ranks</h3><p class="job-counts">${escapeHtml(jd.collectives)}</p>`);
    if (jd.mismatches.length) parts.push(list('mismatches', jd.mismatches));
  }
  return `<section class="job">${parts.join('\n')}</section>`;
}

export function buildHtmlReport(
  doc: { files: FileSummary[]; schema?: string; job?: unknown },
  opts: { title?: string; generated?: string; topRows?: number; diff?: DiffDocument | null } = {}
): string {
  const files = (doc.files ?? []).map((f) => digestFile(f, opts.topRows ?? 15));
  const what = opts.diff ? 'tracewise comparison' : 'tracewise report';
  const title = opts.title ?? `${what}: ${files.map((f) => f.name).join(', ') || 'no files'}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title><style>${kCss}</style></head>
<body><h1>${escapeHtml(title)}</h1>
<p class="muted">Summary of ${files.length} trace file${files.length === 1 ? '' : 's'} (schema ${escapeHtml(String(doc.schema ?? ''))}). Times are from the trace; each table column of times is in one unit, named in its header. This report contains no trace data beyond these numbers and needs no network.</p>
${opts.diff ? diffHtml(opts.diff, opts.topRows ?? 15) : ''}
${jobHtml(doc)}
${files.map(fileHtml).join('\n')}
<footer>Made with tracewise${opts.generated ? ` on ${escapeHtml(opts.generated)}` : ''}.</footer>
</body></html>
`;
}
