// The loading strip: one row per opened file with a progress bar (bytes, events, MB/s, time left)
// and a cancel button while it loads; afterwards its error or warnings in plain words. From
// kManyFiles files on (a job of many ranks), one line sums them up ("12 of 32 loaded, 2 loading, 18
// waiting", a bar, cancel all); only the rows of files loading or failed stay in view, every file's
// row is under "All N files".
import { h, clear } from './dom';
import { kManyFiles, type FileSet, type OpenedFile } from './files';
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
  state: string;
}

// A file's row as drawn: its status, or 'reopening' while a released model is opened again.
const stateOf = (f: OpenedFile): string => (f.status === 'ready' && f.reopening ? 'reopening' : f.status);

export class ProgressView {
  private rows = new Map<number, Row>();
  // Compact mode: the summary line, the rows in view (loading, failed), and every other row.
  private readonly head = h('div', { class: 'load-summary' });
  private readonly headText = h('span', { class: 'load-text' });
  private readonly headBar = h('div', { class: 'bar-fill' });
  private readonly cancelAll = h('button', { class: 'btn small', onclick: () => this.cancelLoading() }, 'Cancel all');
  private readonly inView = h('div', { class: 'load-rows' });
  private readonly details = h('details', { class: 'load-details' });
  private readonly detailsLabel = h('summary', null);
  private readonly detailsRows = h('div', { class: 'load-rows' });
  private compact = false;

  constructor(
    private readonly root: HTMLElement,
    private readonly files: FileSet
  ) {
    this.head.append(
      h('strong', { class: 'load-name' }, 'Files'),
      h('div', { class: 'bar', role: 'progressbar' }, this.headBar),
      this.headText,
      this.cancelAll
    );
    this.details.append(this.detailsLabel, this.detailsRows);
    files.onStripChange(() => this.render());
  }

  render(): void {
    const files = this.files.files;
    const keys = new Set(files.map((f) => f.key));
    for (const [k, row] of this.rows)
      if (!keys.has(k)) {
        row.root.remove();
        this.rows.delete(k);
      }
    const compact = files.length >= kManyFiles;
    if (compact !== this.compact) this.setCompact(compact);
    for (const f of files) {
      let row = this.rows.get(f.key);
      const state = stateOf(f);
      if (!row || row.state !== state) {
        const fresh = this.build(f, state);
        if (row) row.root.replaceWith(fresh.root);
        else this.root.appendChild(fresh.root);
        row = fresh;
        this.rows.set(f.key, row);
      }
      if (state === 'loading' || state === 'reopening') this.update(f, row);
    }
    if (this.compact) {
      this.place(files);
      this.summarize(files);
    }
    this.root.hidden = this.rows.size === 0;
  }

  // Many files: the summary line first, then the rows in view, then the others under "All N files".
  private setCompact(on: boolean): void {
    this.compact = on;
    this.root.classList.toggle('compact', on);
    if (on) this.root.append(this.head, this.inView, this.details);
    else {
      for (const row of this.rows.values()) this.root.appendChild(row.root);
      this.head.remove();
      this.inView.remove();
      this.details.remove();
    }
  }

  // Each row into its place, in the files' order: in view while it loads (or opens again) or failed.
  private place(files: OpenedFile[]): void {
    const shown: HTMLElement[] = [];
    const rest: HTMLElement[] = [];
    for (const f of files) {
      const row = this.rows.get(f.key)!;
      const loading = (row.state === 'loading' && f.progress) || row.state === 'reopening';
      (loading || row.state === 'error' ? shown : rest).push(row.root);
    }
    const same = (el: HTMLElement, rows: HTMLElement[]) =>
      el.children.length === rows.length && rows.every((r, i) => el.children[i] === r);
    if (!same(this.inView, shown)) this.inView.replaceChildren(...shown);
    if (!same(this.detailsRows, rest)) this.detailsRows.replaceChildren(...rest);
  }

  // "12 of 32 loaded, 2 loading, 18 waiting, 1 failed" and a bar (each file an equal share).
  private summarize(files: OpenedFile[]): void {
    let ready = 0;
    let loading = 0;
    let waiting = 0;
    let failed = 0;
    let warned = 0;
    let done = 0;
    for (const f of files) {
      if (f.status === 'ready') {
        ready++;
        done++;
        if (f.warnings.length) warned++;
      } else if (f.status === 'loading' && f.progress) {
        loading++;
        const p = f.progress;
        done += p.totalBytes ? Math.min(1, p.bytesRead / p.totalBytes) : 0;
      } else if (f.status === 'loading') waiting++;
      else failed++;
    }
    const parts = [`${ready} of ${files.length} loaded`];
    if (loading) parts.push(`${loading} loading`);
    if (waiting) parts.push(`${waiting} waiting`);
    if (failed) parts.push(`${failed} failed or cancelled`);
    if (warned) parts.push(`${warned} with warnings`);
    this.headText.textContent = parts.join(', ');
    this.headBar.style.transform = `scaleX(${(done / files.length).toFixed(3)})`;
    this.headBar.parentElement?.setAttribute('aria-valuenow', ((done / files.length) * 100).toFixed(0));
    this.cancelAll.hidden = loading + waiting === 0;
    this.root.classList.toggle('settled', loading + waiting + failed === 0); // style.css: off the timeline tab
    this.detailsLabel.textContent = `All ${files.length} files`;
  }

  private cancelLoading(): void {
    for (const f of this.files.files) if (f.status === 'loading') this.files.cancel(f);
  }

  private build(f: OpenedFile, state: string): Row {
    const bar = h('div', { class: 'bar-fill' });
    const text = h('span', { class: 'load-text' });
    const root = h('div', { class: `load-row status-${state}`, 'data-file': f.name });
    const name = h('span', { class: 'load-name', title: f.name }, f.name);
    if (state === 'loading') {
      const cancel = h('button', { class: 'btn small', onclick: () => this.files.cancel(f) }, 'Cancel');
      root.append(name, h('div', { class: 'bar', role: 'progressbar' }, bar), text, cancel);
    } else if (state === 'reopening') {
      root.append(name, h('div', { class: 'bar', role: 'progressbar' }, bar), text);
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
    return { root, bar, text, state };
  }

  private update(f: OpenedFile, row: Row): void {
    const p = f.progress;
    const again = f.status === 'ready' ? 'opening again (its model was released to save memory): ' : '';
    if (!p) {
      row.text.textContent = again ? `${again}waiting…` : 'waiting…';
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
    row.text.textContent = again + parts.join(' · ');
  }

  reset(): void {
    clear(this.root);
    this.rows.clear();
    this.compact = false;
    this.root.classList.remove('compact');
    this.inView.replaceChildren();
    this.detailsRows.replaceChildren();
  }
}
