// The downloadable report: one self-contained HTML file (inline CSS and SVG, no script, no external
// resource) with the summary numbers, charts and recommendations of every file. A Content-Security-
// Policy of default-src 'none' makes "no network request" a property the browser enforces, not a
// promise. Every text from the trace is HTML-escaped.
import { digestFile, type DigestTable, type FileDigest } from './digest';
import { fmtDuration } from '../app/format';
import type { FileSummary } from '../app/summary_document';

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

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
.recs li{margin:6px 0}.sev{display:inline-block;font-size:11px;text-transform:uppercase;border:1px solid var(--line);border-radius:4px;padding:0 5px;margin-right:6px}
svg text{fill:var(--fg);font:11px system-ui,sans-serif}svg .bar{fill:var(--bar)}footer{margin-top:32px;font-size:12px;color:var(--muted)}
`;

function barChart(t: DigestTable): string {
  const col = t.barColumn;
  if (!col) return '';
  const nameCol = t.columns.find((c) => /name/.test(c)) ?? t.columns[0];
  const rows = t.raw.filter((r) => typeof r[col] === 'number').slice(0, 10);
  if (rows.length < 2) return '';
  const max = Math.max(...rows.map((r) => r[col] as number)) || 1;
  const rowH = 20,
    labelW = 320,
    barW = 520,
    w = labelW + barW + 110,
    hgt = rows.length * rowH + 6;
  const bars = rows
    .map((r, i) => {
      const v = r[col] as number;
      const y = i * rowH + 3;
      const label = String(r[nameCol] ?? '');
      const short = label.length > 48 ? `${label.slice(0, 47)}…` : label;
      return (
        `<text x="${labelW - 6}" y="${y + 13}" text-anchor="end"><title>${escapeHtml(label)}</title>${escapeHtml(short)}</text>` +
        `<rect class="bar" x="${labelW}" y="${y + 2}" width="${Math.max(1, (barW * v) / max).toFixed(1)}" height="${rowH - 6}" rx="2"></rect>` +
        `<text x="${labelW + Math.max(1, (barW * v) / max) + 6}" y="${y + 13}">${escapeHtml(fmtDuration(v))}</text>`
      );
    })
    .join('');
  return `<svg role="img" aria-label="${escapeHtml(`${t.title}: ${col}`)}" viewBox="0 0 ${w} ${hgt}" width="100%" style="max-width:${w}px">${bars}</svg>`;
}

function tableHtml(t: DigestTable): string {
  const num = t.raw.length
    ? t.columns.map((c) => t.raw.every((r) => typeof r[c] === 'number' || r[c] === undefined || r[c] === null))
    : [];
  const head = t.columns.map((c, i) => `<th${num[i] ? ' class="n"' : ''}>${escapeHtml(c)}</th>`).join('');
  const body = t.rows
    .map(
      (r) =>
        `<tr>${r.map((cell, i) => `<td class="${num[i] ? 'n' : /name/.test(t.columns[i]) ? 'name' : ''}">${escapeHtml(cell)}</td>`).join('')}</tr>`
    )
    .join('');
  const more = t.total > t.rows.length ? `<p class="muted">Top ${t.rows.length} of ${t.total} rows.</p>` : '';
  return `<h3>${escapeHtml(t.title)}</h3>${barChart(t)}<table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>${more}`;
}

function fileHtml(d: FileDigest): string {
  const parts: string[] = [`<h2>${escapeHtml(d.name)}</h2>`];
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
  if (d.recommendations) {
    parts.push('<h3>Recommendations</h3>');
    parts.push(
      d.recommendations.length === 0
        ? '<p class="muted">Nothing stands out: no rule fired for this trace.</p>'
        : `<ol class="recs">${d.recommendations
            .map(
              (r) =>
                `<li><span class="sev">${escapeHtml(r.severity)}</span><strong>${escapeHtml(r.title)}</strong>` +
                `${r.detail ? `<br>${escapeHtml(r.detail)}` : ''}</li>`
            )
            .join('')}</ol>`
    );
  }
  for (const t of d.tables) parts.push(tableHtml(t));
  return `<section class="file">${parts.join('\n')}</section>`;
}

export function buildHtmlReport(
  doc: { files: FileSummary[]; schema?: string },
  opts: { title?: string; generated?: string; topRows?: number } = {}
): string {
  const files = (doc.files ?? []).map((f) => digestFile(f, opts.topRows ?? 15));
  const title = opts.title ?? `tracewise report: ${files.map((f) => f.name).join(', ') || 'no files'}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title><style>${kCss}</style></head>
<body><h1>${escapeHtml(title)}</h1>
<p class="muted">Summary of ${files.length} trace file${files.length === 1 ? '' : 's'} (schema ${escapeHtml(String(doc.schema ?? ''))}). Times are from the trace, shown in the largest readable unit. This report contains no trace data beyond these numbers and needs no network.</p>
${files.map(fileHtml).join('\n')}
<footer>Made with tracewise${opts.generated ? ` on ${escapeHtml(opts.generated)}` : ''}.</footer>
</body></html>
`;
}
