// FlameView: the flame graph of one opened trace (issue #41): the core's call tree (per thread,
// merged by name path; CPU time and the GPU time its launches caused) for the whole trace or a time
// range, drawn as an icicle (roots on top) or left-heavy; click a frame to zoom into it (the path
// above it is the way back, so are the crumbs and Reset), search dims what does not match, the tip
// tells a frame's numbers, a function's sandwich shows its callers and callees.
//
// API (web/app/flame_host.ts):
//   const view = new FlameView(container, source)   source asks the trace worker for call trees
//   await view.show(range | null)                   range: a timeline range (relative ns and the origin)
// Test hook: window.__tracewise.flame (flame_hook.ts).
import './flame.css';
import { h } from '../timeline/element';
import { formatDuration } from '../timeline/time_format';
import type { CallTree } from './call_tree';
import { FlameControls } from './flame_controls';
import { FlameDetails } from './flame_details';
import { installFlameHook } from './flame_hook';
import { FlamePane } from './flame_pane';
import { FlameSandwich } from './flame_sandwich';
import { mergeRoots, withRoot } from './merge';
import { matchedValue, matchNames } from './search';
import { share } from './tip';
import { TreeCache } from './tree_cache';
import { pathTo, totalOf } from './tree_shape';

// A time range of the timeline: [fromNs, toNs) relative to the trace origin (a decimal string of
// absolute ns, as the timeline has it).
export interface FlameRange {
  fromNs: number;
  toNs: number;
  originNs: string;
}

export interface FlameSource {
  callTree(range: FlameRange | null, bottomUp: boolean): Promise<CallTree>;
  // Highlights the slices named `name` on timeline track `track` (absent: no timeline to show them in).
  showInTimeline?(name: string, track: number): void;
}

interface Shown {
  raw: CallTree; // as the core sent it
  side: CallTree; // under one synthetic root: threads (or bottom-up functions) side by side
  merged: CallTree | null; // threads merged by name path, made when first asked for
}

export class FlameView {
  private readonly root = h('div', { class: 'flame-root' });
  private readonly note = h('div', { class: 'flame-note', 'data-testid': 'flame-range' });
  private readonly whole = h('button', { 'data-testid': 'flame-whole' }, 'Whole trace');
  private readonly crumbs = h('nav', {
    class: 'flame-crumbs',
    'aria-label': 'Zoom path',
    'data-testid': 'flame-crumbs',
  });
  private readonly message = h('p', { class: 'flame-message', 'data-testid': 'flame-message' });
  readonly controls: FlameControls;
  readonly pane = new FlamePane('Flame graph: click a frame to zoom into it, drag to pan, wheel to zoom');
  readonly sandwich: FlameSandwich;
  private readonly details = new FlameDetails();
  private readonly cache: TreeCache<FlameRange>;
  range: FlameRange | null = null;
  shown: Shown | null = null;
  focus = 0;
  selected = -1;
  loading = 0;
  matched = { value: 0, nodes: 0 };
  private shownRoots = '';

  constructor(
    container: HTMLElement,
    private readonly source: FlameSource
  ) {
    this.cache = new TreeCache((r, bottomUp) => this.source.callTree(r, bottomUp));
    this.controls = new FlameControls(
      () => void this.refresh(),
      () => this.searchChanged(),
      () => this.zoom(this.baseFocus())
    );
    this.sandwich = new FlameSandwich(
      () => this.closeSandwich(),
      (t, n) => this.openSandwich(t.names[t.name[n]])
    );
    this.pane.onPick = (n) => this.pick(n);
    this.whole.addEventListener('click', () => void this.show(null));
    this.details.sandwich.addEventListener('click', () => this.openSandwich(this.selectedName()));
    this.details.timeline.addEventListener('click', () => this.showInTimeline());
    this.root.append(
      this.controls.el,
      h('div', { class: 'flame-line' }),
      this.pane.el,
      this.sandwich.el,
      this.details.el,
      this.message
    );
    this.root.children[1].append(this.note, this.whole, this.crumbs);
    this.message.hidden = true;
    container.append(this.root);
    installFlameHook(this);
  }

  // The call tree of `range` (null: the whole trace), asked of the worker once per range and direction.
  async show(range: FlameRange | null): Promise<void> {
    this.range = range;
    this.sandwich.hide();
    await this.refresh(true);
  }

  get requestMs(): number {
    return this.cache.lastMs;
  }

  get tree(): CallTree | null {
    if (!this.shown) return null;
    return this.controls.rootsChoice === 'merged' ? this.mergedTree() : this.shown.side;
  }

  private request(bottomUp: boolean): Promise<CallTree> {
    return this.cache.get(this.range, bottomUp);
  }

  // Fetches the tree the controls ask for (when another), then lays it out again.
  private async refresh(fresh = false): Promise<void> {
    const bottomUp = this.controls.bottomUp;
    const range = this.range;
    this.loading++;
    try {
      const raw = await this.request(bottomUp);
      if (range !== this.range || bottomUp !== this.controls.bottomUp) return; // a later call wins
      if (fresh || this.shown?.raw !== raw) {
        this.shown = { raw, side: withRoot(raw, bottomUp ? 'All functions' : 'All threads'), merged: null };
        this.selected = -1;
        this.details.hide();
        this.controls.setThreads(this.threads(), bottomUp);
      }
      // Nothing to draw is said in words, not left as an empty canvas.
      const v = totalOf(this.shown.side, this.controls.measureChoice)[0];
      this.message.textContent = !raw.size
        ? 'This trace (or range) has no CPU slices to make a call tree of.'
        : v > 0
          ? ''
          : 'No GPU time is attributed here: no GPU op was launched from these threads (or none is linked to its launch).';
      this.message.hidden = v > 0;
      this.message.classList.add('info');
      this.describe();
      // A new tree or other roots start at the top; another measure or order keeps the zoom when the
      // focused frame still has a value in it.
      const roots = String(this.controls.rootsChoice);
      const keep =
        !fresh && roots === this.shownRoots && totalOf(this.tree!, this.controls.measureChoice)[this.focus] > 0;
      this.shownRoots = roots;
      this.zoom(keep ? this.focus : this.baseFocus());
      if (this.sandwich.name >= 0) this.openSandwich(this.sandwich.trees!.callees.names[this.sandwich.name]);
    } catch (e) {
      this.message.textContent = `The call tree could not be computed: ${String((e as Error)?.message ?? e)}`;
      this.message.classList.remove('info');
      this.message.hidden = false;
    } finally {
      this.loading--;
    }
  }

  private mergedTree(): CallTree {
    const s = this.shown!;
    return (s.merged ??= mergeRoots(s.raw, 'All threads merged'));
  }

  // The roots of the side-by-side tree (threads, or functions bottom-up), largest first.
  private threads(): Array<{ node: number; label: string; value: number }> {
    const t = this.shown!.side;
    const out: Array<{ node: number; label: string; value: number }> = [];
    for (let i = 1; i < t.size && out.length < 2000; i++)
      if (t.parent[i] === 0) out.push({ node: i, label: t.names[t.name[i]], value: t.totalNs[i] });
    return out.sort((a, b) => b.value - a.value);
  }

  private baseFocus(): number {
    const c = this.controls.rootsChoice;
    return typeof c === 'number' && this.shown && c < this.shown.side.size ? c : 0;
  }

  private describe(): void {
    const t = this.shown!.raw;
    const r = this.range ? { beginNs: this.range.fromNs, endNs: this.range.toNs } : null;
    const gpu = totalOf(this.shown!.side, 'gpu')[0];
    const unlinked = t.gpuUnlinkedOps
      ? ` · ${formatDuration(t.gpuUnlinkedNs)} of GPU time in ${t.gpuUnlinkedOps} ops has no launch to attribute it to`
      : '';
    this.note.textContent =
      (r ? `Time range ${formatDuration(r.endNs - r.beginNs)} (from ${formatDuration(r.beginNs)})` : 'Whole trace') +
      ` · ${t.size} frames · CPU ${formatDuration(this.shown!.side.totalNs[0])} · GPU ${formatDuration(gpu)}${unlinked}`;
    this.whole.hidden = !this.range;
  }

  // Lays the graph out around `focus` (the measure and order from the controls).
  zoom(focus: number): void {
    const t = this.tree;
    if (!t) return;
    this.focus = Math.max(0, Math.min(focus, t.size - 1));
    this.pane.set({
      tree: t,
      measure: this.controls.measureChoice,
      order: this.controls.orderChoice,
      focus: this.focus,
    });
    this.pane.selected = this.selected;
    this.renderCrumbs();
    this.searchChanged();
  }

  private pick(node: number): void {
    this.selected = node;
    const t = this.tree!;
    this.details.show(t, node, this.pane.layout!.node[0], this.controls.measureChoice, !!this.source.showInTimeline);
    this.zoom(node === this.focus ? (t.parent[node] >= 0 ? t.parent[node] : node) : node);
  }

  private renderCrumbs(): void {
    const t = this.tree!;
    const path = pathTo(t, this.focus);
    this.crumbs.replaceChildren(
      ...path.map((n, i) => {
        const b = h('button', { class: 'flame-crumb', title: t.names[t.name[n]] }, t.names[t.name[n]]);
        if (i === path.length - 1) b.setAttribute('aria-current', 'true');
        b.addEventListener('click', () => this.zoom(n));
        return b;
      })
    );
  }

  private searchChanged(): void {
    const t = this.tree;
    const q = this.controls.search.value;
    const match = t ? matchNames(t.names, q) : null;
    this.pane.match = match;
    this.pane.invalidate();
    if (this.sandwich.trees) this.sandwich.setMatch(match && matchNames(this.sandwich.trees.callees.names, q));
    if (!t || !match || !this.pane.kids) {
      this.matched = { value: 0, nodes: 0 };
      this.controls.count.textContent = '';
      return;
    }
    const v = totalOf(t, this.controls.measureChoice);
    this.matched = matchedValue(t, this.pane.kids, v, this.focus, match);
    this.controls.count.textContent = `${this.matched.nodes} frames · ${share(this.matched.value, v[this.focus])}`;
  }

  private selectedName(): string {
    const t = this.tree;
    return t && this.selected >= 0 ? t.names[t.name[this.selected]] : '';
  }

  // The sandwich of the function named `name`, from the top-down tree (asked for when bottom-up is shown).
  openSandwich(name: string): void {
    if (!name) return;
    void this.request(false).then((top) => {
      const i = top.names.indexOf(name);
      if (i < 0) return;
      this.pane.el.hidden = true;
      this.sandwich.show(top, i, this.controls.measureChoice, this.controls.orderChoice);
      this.searchChanged();
    });
  }

  closeSandwich(): void {
    this.sandwich.hide();
    this.pane.el.hidden = false;
    this.pane.invalidate();
  }

  private showInTimeline(): void {
    const t = this.tree;
    if (!t || this.selected < 0 || t.track[this.selected] < 0) return;
    this.source.showInTimeline?.(t.names[t.name[this.selected]], t.track[this.selected]);
  }

  get idle(): boolean {
    return this.loading === 0 && !this.pane.pending && !this.sandwich.callers.pending && !this.sandwich.callees.pending;
  }

  get visible(): boolean {
    return this.root.isConnected && this.root.offsetParent !== null;
  }

  destroy(): void {
    this.root.remove();
  }
}
