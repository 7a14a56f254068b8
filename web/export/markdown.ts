// The Markdown summary for pull requests and issues: per file a headline table, the top kernels
// (or the first table the summary has) and the recommendations. Text from the trace is escaped so it
// cannot break the table, start a link, or inject HTML when GitHub renders it.
import { digestFile, jobLine, type DigestCell } from './digest';
import { jobDigest } from './job_digest';
import type { FileSummary } from '../app/summary_document';

export function mdEscape(s: string): string {
  return s
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/([\\`*_{}[\]()#+!|~>])/g, '\\$1');
}

// `marked`: rows whose cells are Markdown already (the bold total row), the others are escaped here.
function table(head: string[], rows: string[][], marked: string[][] = []): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const escaped = (cells: string[]) => line(cells.map(mdEscape));
  return [escaped(head), `|${head.map(() => '---').join('|')}|`, ...rows.map(escaped), ...marked.map(line)].join('\n');
}

export function buildMarkdown(
  doc: { files: FileSummary[]; job?: unknown },
  opts: { topRows?: number; source?: string } = {}
): string {
  const out: string[] = [];
  const job = jobLine(doc);
  if (job) out.push(`**${job.label}** ${mdEscape(job.sentence)}`, ''); // (the label is ours: no trace text)
  const jd = jobDigest(doc);
  if (jd) {
    if (jd.stragglers?.length) out.push('**Stragglers**', '', ...jd.stragglers.map((s) => `- ${mdEscape(s)}`), '');
    else out.push('**Stragglers:** none found.', '');
    if (jd.collectives) {
      out.push(`**Collectives across ranks:** ${mdEscape(jd.collectives)}`, '');
      if (jd.mismatches.length) out.push(...jd.mismatches.map((m) => `- Mismatch: ${mdEscape(m)}`), '');
    }
  }
  for (const f of doc.files ?? []) {
    const d = digestFile(f, opts.topRows ?? 10);
    out.push(`### tracewise: ${mdEscape(d.name)}`, '');
    if (d.verdict) out.push(`**Verdict:** ${mdEscape(d.verdict)}`, '');
    const head: string[][] = [
      ...d.facts.map(([k, v]) => [k, v]),
      ...d.cards.map((c) => [c.label, c.sub ? `${c.value} (${c.sub})` : c.value]),
    ];
    if (head.length) out.push(table(['Metric', 'Value'], head), '');
    const t = d.tables.find((x) => /kernel/i.test(x.path)) ?? d.tables[0];
    if (t) {
      out.push(`**${mdEscape(t.title)}** (top ${t.rows.length} of ${t.rowCount})`, '');
      const text = (r: DigestCell[]) => r.map((c) => c.text);
      const total = t.totalRow ? [text(t.totalRow).map((c) => (c ? `**${mdEscape(c)}**` : ''))] : [];
      out.push(
        table(
          t.columns.map((c) => c.label),
          t.rows.map(text),
          total
        ),
        ''
      );
    }
    if (d.recommendations) {
      out.push('**Recommendations**', '');
      if (d.recommendations.length === 0) out.push('- Nothing stands out: no rule fired.');
      for (const r of d.recommendations) {
        out.push(`- **${mdEscape(r.severity)}**: ${mdEscape(r.title)}${r.detail ? ` — ${mdEscape(r.detail)}` : ''}`);
        if (r.evidence.length)
          out.push(`  - Evidence: ${r.evidence.map(([k, v]) => mdEscape(`${k} ${v}`)).join(', ')}`);
      }
      out.push('');
    }
  }
  out.push(
    `<sub>Made with tracewise${opts.source ? ` from ${mdEscape(opts.source)}` : ''}; numbers from \`tracewise summarize\`.</sub>`
  );
  return out.join('\n') + '\n';
}
