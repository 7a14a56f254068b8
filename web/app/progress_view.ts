// The loading strip: one row per opened file with a progress bar (bytes, events, MB/s, time left)
// and a cancel button while it loads; afterwards its error or warnings in plain words.
import { h, clear } from './dom';
import type { FileSet, OpenedFile } from './files';
import { fmtBytes, fmtCount, fmtRate, fmtSeconds } from './format';

const kTitles: Record<string, string> = {
  not_trace: 'Not a trace',
  too_large: 'Too large',
  out_of_memory: 'Out of memory',
  cancelled: 'Cancelled',
  network: 'Download failed',
  cors: 'Download blocked',
  read: 'Could not read the file',
  internal: 'Something went wrong',
};

interface Row {
  root: HTMLElement;
  bar: HTMLElement;
  text: HTMLElement;
  status: string;
}

export class ProgressView {
  private rows = new Map<number, Row>();
  constructor(
    private readonly root: HTMLElement,
    private readonly files: FileSet
  ) {}

  render(): void {
    const keys = new Set(this.files.files.map((f) => f.key));
    for (const [k, row] of this.rows)
      if (!keys.has(k)) {
        row.root.remove();
        this.rows.delete(k);
      }
    for (const f of this.files.files) {
      let row = this.rows.get(f.key);
      if (!row || row.status !== f.status) {
        const fresh = this.build(f);
        if (row) row.root.replaceWith(fresh.root);
        else this.root.appendChild(fresh.root);
        row = fresh;
        this.rows.set(f.key, row);
      }
      if (f.status === 'loading') this.update(f, row);
    }
    this.root.hidden = this.rows.size === 0;
  }

  private build(f: OpenedFile): Row {
    const bar = h('div', { class: 'bar-fill' });
    const text = h('span', { class: 'load-text' });
    const root = h('div', { class: `load-row status-${f.status}`, 'data-file': f.name });
    const name = h('span', { class: 'load-name', title: f.name }, f.name);
    if (f.status === 'loading') {
      const cancel = h('button', { class: 'btn small', onclick: () => this.files.cancel(f) }, 'Cancel');
      root.append(name, h('div', { class: 'bar', role: 'progressbar' }, bar), text, cancel);
    } else if (f.status === 'error' || f.status === 'cancelled') {
      const title = kTitles[f.error?.code ?? 'internal'] ?? 'Error';
      let text = f.error?.message ?? '';
      if (text.startsWith(`${title}: `)) text = text.slice(title.length + 2); // the core's messages name it already
      root.append(name, h('span', { class: 'msg error', role: 'alert' }, h('strong', null, `${title}: `), text));
    } else {
      const r = f.result;
      root.append(
        name,
        h(
          'span',
          { class: 'load-text' },
          r
            ? `${fmtBytes(r.fileBytes)}${r.gzip ? ` (gzip, ${fmtBytes(r.inputBytes)})` : ''} · ${fmtCount(r.events)} events · ` +
                `${r.seconds.toFixed(2)} s · ${fmtRate(r.inputBytes / 1e6 / Math.max(r.seconds, 1e-3))}`
            : ''
        )
      );
      for (const w of f.warnings)
        root.append(h('span', { class: 'msg warning', role: 'status' }, h('strong', null, 'Warning: '), w));
    }
    return { root, bar, text, status: f.status };
  }

  private update(f: OpenedFile, row: Row): void {
    const p = f.progress;
    if (!p) {
      row.text.textContent = 'waiting…';
      return;
    }
    if (p.phase === 'loading') {
      row.text.textContent = 'loading the analyzer…';
      return;
    }
    const frac = p.totalBytes ? Math.min(1, p.bytesRead / p.totalBytes) : 0;
    row.bar.style.transform = `scaleX(${frac.toFixed(3)})`;
    // Unknown size (a download without Content-Length) or the analysis after reading: no fraction to show.
    row.bar.parentElement?.classList.toggle('indeterminate', !p.totalBytes || p.phase === 'finishing');
    row.bar.parentElement?.setAttribute('aria-valuenow', (frac * 100).toFixed(0));
    const parts = [
      p.totalBytes ? `${fmtBytes(p.bytesRead)} of ${fmtBytes(p.totalBytes)}` : fmtBytes(p.bytesRead),
      `${fmtCount(p.events)} events`,
      // For gzip the file's own rate looks slow next to what the analyzer reads: show both.
      p.gzip ? `${fmtRate(p.mbPerSec)} (${fmtRate(p.inputMbPerSec)} inflated)` : fmtRate(p.mbPerSec),
    ];
    if (p.phase === 'finishing') parts.push('analysing…');
    else if (p.secondsLeft !== null) parts.push(`${fmtSeconds(p.secondsLeft)} left`);
    row.text.textContent = parts.join(' · ');
  }

  reset(): void {
    clear(this.root);
    this.rows.clear();
  }
}
