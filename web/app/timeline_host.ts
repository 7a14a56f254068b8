// Hosts the timeline of the opened files: one TimelineView (web/timeline, helper W2's component)
// per file, created when first shown, talking to that file's worker.
import { TimelineView } from '../timeline/index';
import { h, clear } from './dom';
import type { OpenedFile } from './files';

export class TimelineHost {
  private views = new Map<number, { view: TimelineView; el: HTMLElement; loaded: Promise<void> }>();
  private current: OpenedFile | null = null;
  private readonly picker = h('select', { class: 'file-pick', 'aria-label': 'File shown in the timeline' });
  private readonly stage = h('div', { class: 'tl-stage' });
  private readonly none = h(
    'p',
    { class: 'tl-none muted' },
    'No timeline: what is open is a saved summary, not a trace. Open the trace file itself to see its timeline.'
  );
  private files: OpenedFile[] = [];

  constructor(root: HTMLElement) {
    this.picker.addEventListener('change', () => {
      const f = this.files.find((x) => String(x.key) === this.picker.value);
      if (f) void this.show(f);
    });
    root.append(h('div', { class: 'tl-bar' }, this.picker), this.stage);
  }

  // The set of files changed: drop the views of files that are gone.
  setFiles(files: OpenedFile[]): void {
    this.files = files.filter((f) => f.status === 'ready' && f.load);
    for (const [key, v] of this.views) {
      if (!this.files.some((f) => f.key === key)) {
        v.view.destroy();
        v.el.remove();
        this.views.delete(key);
      }
    }
    clear(this.picker);
    for (const f of this.files)
      this.picker.append(
        h('option', { value: String(f.key) }, f.summary?.rank != null ? `rank ${f.summary.rank} — ${f.name}` : f.name)
      );
    this.picker.hidden = this.files.length < 2;
    if (this.current && !this.files.includes(this.current)) this.current = null;
    if (this.current) this.picker.value = String(this.current.key);
  }

  // Shows the timeline of `file` (the first ready file when null) and resolves once it has loaded.
  async show(file: OpenedFile | null = null): Promise<TimelineView | null> {
    // A saved summary has no trace behind it: say so rather than show another file's timeline.
    const f = file ? (this.files.includes(file) ? file : null) : (this.current ?? this.files[0] ?? null);
    if (!this.none.isConnected) this.stage.append(this.none);
    this.none.hidden = f !== null;
    if (!f) {
      for (const x of this.views.values()) x.el.hidden = true;
      return null;
    }
    this.current = f;
    this.picker.value = String(f.key);
    let v = this.views.get(f.key);
    if (!v) {
      const el = h('div', { class: 'tl-view', 'data-file': f.name });
      this.stage.append(el);
      const view = new TimelineView(el, f.load!.timeline);
      v = { view, el, loaded: Promise.resolve() };
      this.views.set(f.key, v);
      const entry = v;
      entry.loaded = view.load().catch((e) => {
        el.append(
          h('p', { class: 'msg error' }, `The timeline could not be drawn: ${String((e as Error)?.message ?? e)}`)
        );
      });
    }
    for (const [key, x] of this.views) x.el.hidden = key !== f.key;
    await v.loaded;
    return v.view;
  }

  async zoomTo(file: OpenedFile, t0: number, t1: number, name?: string): Promise<void> {
    const view = await this.show(file);
    if (!view) return;
    if (name) {
      view.highlight({ name, t0_ns: t0, t1_ns: t1 });
      return;
    }
    // A plain range link shows the range as it is: an earlier search would draw it dimmed.
    view.zoomTo(t0, t1);
    view.clearSearch();
  }

  // The current view's own state (range, selection, search...) when the view offers one.
  viewState(): unknown {
    const v = this.current
      ? (this.views.get(this.current.key)?.view as unknown as { getViewState?: () => unknown })
      : undefined;
    return v?.getViewState?.();
  }

  async setViewState(file: OpenedFile | null, state: unknown): Promise<void> {
    const view = (await this.show(file)) as unknown as { setViewState?: (s: unknown) => void } | null;
    view?.setViewState?.(state);
  }

  async search(file: OpenedFile, name: string): Promise<void> {
    const view = await this.show(file);
    view?.highlight({ name });
  }
}
