// The export buttons: "Download report" (a self-contained HTML file) and "Copy Markdown". Both work
// from whatever summary is shown, including a summary link's read-only one.
import type { AppApi } from '../app/app_api';
import type { SummaryDocument } from '../app/summary_document';
import { buildHtmlReport } from './html_report';
import { buildMarkdown } from './markdown';
import { tracewiseHook } from '../hook';

export interface ExportHook {
  lastHtml: string | null;
  lastMarkdown: string | null;
}

export function installExport(
  app: AppApi,
  actions: HTMLElement,
  say: (text: string, extra?: Node) => void,
  fallbackDoc: () => SummaryDocument | null
): ExportHook {
  const hook: ExportHook = { lastHtml: null, lastMarkdown: null };
  tracewiseHook().export = hook;
  const doc = () => app.getSummary() ?? fallbackDoc();
  const stem = (d: SummaryDocument) =>
    String(d.files[0]?.name ?? 'trace')
      .replace(/\.(json|gz|trace)+$/gi, '')
      .replace(/[^\w.-]+/g, '_')
      .slice(0, 80) || 'trace';

  const add = (label: string, title: string, fn: () => Promise<void> | void) => {
    const b = document.createElement('button');
    b.className = 'btn';
    b.type = 'button';
    b.textContent = label;
    b.title = title;
    b.addEventListener('click', () => {
      Promise.resolve(fn()).catch((e) => say(`Export failed: ${String((e as Error)?.message ?? e)}`));
    });
    actions.append(b);
  };
  add(
    'Download report',
    'One self-contained HTML file: numbers, charts and recommendations (no trace, no network requests)',
    () => {
      const d = doc();
      if (!d) {
        say('Open a trace first.');
        return;
      }
      const html = buildHtmlReport(d, {
        generated: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
        diff: app.getDiff(),
      });
      hook.lastHtml = html;
      const a = document.createElement('a');
      a.href = URL.createObjectURL(new Blob([html], { type: 'text/html' }));
      a.download = `${stem(d)}.tracewise.html`;
      a.click();
      setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
    }
  );
  add(
    'Copy Markdown',
    'A Markdown summary (headline table, top kernels, recommendations) for pull requests and issues',
    async () => {
      const d = doc();
      if (!d) {
        say('Open a trace first.');
        return;
      }
      // A comparison: the core's Markdown of its diff (the bytes of `tracewise diff --format markdown`).
      const md = app.getDiff() ? await app.diffMarkdown() : buildMarkdown(d);
      if (md === null) {
        say('The comparison is not ready yet.');
        return;
      }
      hook.lastMarkdown = md;
      try {
        await navigator.clipboard.writeText(md);
        say(`Markdown ${app.getDiff() ? 'comparison' : 'summary'} copied to the clipboard (${md.length} characters).`);
      } catch {
        const area = document.createElement('textarea');
        area.readOnly = true;
        area.rows = 8;
        area.className = 'share-md';
        area.value = md;
        say('Markdown summary; copy it from here:', area);
        area.select();
      }
    }
  );
  return hook;
}
