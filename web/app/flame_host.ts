// Hosts the flame graph of the opened files (web/flame): one FlameView per file with a trace behind
// it, made when first shown, asking that file's worker for call trees. A time range from the
// timeline (an area's "Flame graph of the selection") is shown by the file's view; a frame's "Show in
// timeline" goes back to the page (onShowInTimeline).
//
// API for the page (web/app/main.ts):
//   setFiles(files)                 the opened files changed
//   show(file, range?)              shows `file`'s flame graph; range: a timeline range, null = whole
//                                   trace, absent = what that view showed (the whole trace at first)
import { FlameView, type FlameRange } from '../flame/flame_view';
import { installFlameHook } from '../flame/flame_hook';
import { absoluteNs } from '../timeline/time_format';
import { h } from './dom';
import type { OpenedFile } from './files';

export class FlameHost {
  private readonly views = new Map<number, { view: FlameView; el: HTMLElement; loaded: boolean }>();
  private readonly none = h(
    'p',
    { class: 'tl-none muted', 'data-testid': 'flame-none' },
    'No flame graph: what is open is a saved summary, not a trace. Open the trace file itself to see its call tree.'
  );
  private files: OpenedFile[] = [];

  constructor(
    private readonly root: HTMLElement,
    private readonly onShowInTimeline: (file: OpenedFile, name: string, lane: number) => void
  ) {
    this.none.hidden = true;
    root.append(this.none);
  }

  setFiles(files: OpenedFile[]): void {
    this.files = files.filter((f) => f.status === 'ready' && f.load);
    for (const [key, v] of this.views)
      if (!this.files.some((f) => f.key === key)) {
        v.view.destroy();
        v.el.remove();
        this.views.delete(key);
      }
  }

  async show(file: OpenedFile | null, range?: FlameRange | null): Promise<void> {
    const f = file && this.files.includes(file) ? file : null;
    this.none.hidden = f !== null;
    for (const [key, v] of this.views) v.el.hidden = key !== f?.key;
    if (!f) return;
    let v = this.views.get(f.key);
    if (!v) {
      const el = h('div', { class: 'flame-view', 'data-file': f.name });
      this.root.append(el);
      const load = f.load!;
      const view = new FlameView(el, {
        // The core takes absolute trace ns (doubles: epoch ns are held to ~256 ns).
        callTree: (r, bottomUp) =>
          load.callTree(r ? absolute(r.originNs, r.fromNs) : -1, r ? absolute(r.originNs, r.toNs) : -1, bottomUp),
        showInTimeline: (name, lane) => this.onShowInTimeline(f, name, lane),
      });
      this.views.set(f.key, (v = { view, el, loaded: false }));
    }
    installFlameHook(v.view); // the hook follows the view on screen
    if (range !== undefined || !v.loaded) {
      v.loaded = true;
      await v.view.show(range ?? null);
    }
  }
}

function absolute(originNs: string, relNs: number): number {
  const ns = Number(absoluteNs(originNs, relNs));
  if (!Number.isFinite(ns) || ns < 0) throw new Error(`No absolute time for ${relNs} ns after ${originNs}.`);
  return ns;
}
