// TimelineView: the canvas timeline of one opened trace.
//
// API (used by the page shell, web/app):
//   const view = new TimelineView(container: HTMLElement, client: TimelineClient)
//       the trace's worker answers the client's requests (web/worker/timeline_handlers.ts).
//       The view fills `container` (give it a size; position: relative or absolute).
//   await view.load()            fetches the track list, fits the whole trace, first paint.
//   view.zoomTo(t0_ns, t1_ns)    zooms to an ABSOLUTE time range in trace nanoseconds, as written in the
//                                summary JSON (bigint or decimal string keep full precision; number ok).
//   view.highlight({ name?, regex?, t0_ns?, t1_ns? })  searches `name` (substring, or regex when
//                                regex=true), highlights the matches and selects the first match at or
//                                after t0_ns (absolute, when given, else the first match of the trace).
//   view.highlightOnLane(name, lane)  the slices named `name` highlighted, the first on `lane` selected.
//   view.setAreaAction(label, run)  a button beside a dragged area's aggregate: run(t0, t1, originNs)
//                                (relative ns, and the origin as a decimal string).
//   view.clearSearch()           empties the search box and drops the highlight (a jump to a range).
//   view.fitAll(); view.destroy(); view.getViewState() / view.setViewState(state)  (for share links)
// Instants: triangles on their thread's lane; process / global ones are lines with a triangle on the
// group header / under the ruler; clicking a triangle shows the instant in the details panel.
// Controls (timeline_input.ts): wheel or pinch = zoom, shift+wheel / wheel over the names = scroll, horizontal wheel = pan,
// drag = pan, shift+drag = select an area (aggregate table), W/S = zoom, A/D = pan, F = fit all (and top),
// Z = zoom to the area or the selected slice, Esc = clear, click = details, click a group = collapse
// (a trace of many processes opens with its groups collapsed: group_collapse.ts).
// Test hook: window.__tracewise.timeline = { ready, idle(), visibleRange(), locate(text), ... } (hook()).
//
// Times inside the view are float64 ns relative to the trace origin (originNs from the worker).
import { TimelineSelection } from './selection';
import { h } from './element';
import { drawFrame, kGutter, kRulerH, tOf, type Frame, type FrameStats } from './render';
import { TimelineSearch } from './search_bar';
import { exactNameQuery, firstMatchOnLane } from './lane_match';
import { SearchSteps } from './search_steps';
import { injectStyle } from './style';
import { hookedView, installTimelineHook } from './test_hook';
import { TrackRows } from './track_rows';
import { WindowCache } from './window_cache';
import { TimelineInput } from './timeline_input';
import { resizeCanvas } from './canvas_size';
import { clampRange, fitRange, paddedRange, relativeNs, zoomedRange, type Range, type TimeLike } from './time_range';
import type { TimelineClient } from '../worker/protocol';

export type { TimeLike };

// What a client may also do (the aligned view of a job, ./aligned/aligned_client.ts): show the lane of a
// slice it does not show; true when its track list changed.
export interface LaneShower {
  showLaneOf(sliceId: number): Promise<boolean>;
}

export interface ViewState {
  t0: number;
  t1: number;
  t0_ns?: string;
  t1_ns?: string;
  search?: string;
  regex?: boolean;
  colorBy?: 'class' | 'name';
  collapsed?: number[]; // groups collapsed (a trace that opens with all groups open)
  expanded?: number[]; // groups open (a trace of many groups, which opens with all collapsed)
  selected?: number;
}

export class TimelineView {
  private readonly root = h('div', { class: 'twtl-root' });
  private readonly stage = h('div', { class: 'twtl-stage', tabindex: '0', 'data-testid': 'timeline-stage' });
  private readonly canvas = h('canvas', {
    'data-testid': 'timeline-canvas',
    role: 'img',
    'aria-label': 'Timeline of the trace: drag to pan, wheel to zoom, click a slice for details',
  });
  private readonly colorSelect = h('select', { 'aria-label': 'Colour slices by' });
  private readonly sel: TimelineSelection;
  private readonly search: TimelineSearch;
  private readonly steps: SearchSteps;
  private readonly cache: WindowCache;
  private readonly rows: TrackRows;
  private readonly ctx: CanvasRenderingContext2D;
  private readonly input: TimelineInput;

  private t0 = 0;
  private t1 = 1;
  private width = 0;
  private height = 0;
  private dpr = 1;
  private colorBy: 'class' | 'name' = 'class';
  // Until the user picks a colouring (or a link gives one), a trace whose slices have no class (a
  // Chrome or other non-Kineto trace: every slice 'other') is coloured by name, not all grey.
  private colorChosen = false;
  private dirty = true;
  private raf = 0;
  private frames = 0;
  private readonly drawMs: number[] = []; // the last frames' draw times, for benchmarks
  private drawn: FrameStats = { items: 0, instants: 0, headers: 0, laneNames: 0 };
  private ready = false;
  private destroyed = false;
  private loading: Promise<void> | null = null;
  private readonly resize: ResizeObserver;
  private colors = { fg: '#222', muted: '#666', line: '#999', bg: '#fff' };

  constructor(
    private readonly container: HTMLElement,
    private readonly client: TimelineClient
  ) {
    injectStyle();
    this.ctx = this.canvas.getContext('2d')!;
    this.sel = new TimelineSelection({
      client,
      destroyed: () => this.destroyed,
      originNs: () => this.rows.tracks?.originNs ?? '0',
      laneName: (lane) => this.rows.names.track(lane) ?? '',
      loadLaneNames: (lanes) => this.rows.names.load(false, lanes),
      range: () => this.range,
      goTo: (r) => this.goTo(r),
      measure: () => this.measure(),
      invalidate: () => this.invalidate(),
      revealLane: (lane, depth) => this.rows.reveal(lane, depth),
      keepRowShown: (lane, depth) => this.rows.keepShown(lane, depth),
      showLaneOf: async (id) => {
        const c = this.client as TimelineClient & Partial<LaneShower>;
        if (!c.showLaneOf || !(await c.showLaneOf(id))) return false;
        await this.reloadTracks(false);
        return true;
      },
    });
    this.sel.panel.root.setAttribute('data-testid', 'timeline-details');
    this.cache = new WindowCache(
      (req) => this.client.request('window', req),
      () => this.invalidate(),
      (e) => this.sel.panel.error(`The timeline could not be fetched: ${String((e as Error)?.message ?? e)}`)
    );
    this.rows = new TrackRows(
      (groups, first, count) => this.client.request('trackNames', { groups, first, count }).then((r) => r.names),
      () => this.invalidate(),
      (e) => this.sel.panel.error(`Track names could not be fetched: ${String((e as Error)?.message ?? e)}`)
    );
    for (const [v, t] of [
      ['class', 'Colour: class'],
      ['name', 'Colour: name'],
    ])
      this.colorSelect.append(h('option', { value: v }, t));
    this.search = new TimelineSearch(
      client,
      () => {
        this.cache.invalidate();
        this.invalidate();
      },
      (dir) => void this.steps.step(dir)
    );
    this.steps = new SearchSteps(this.search, {
      selected: () => this.sel.selected,
      visibleStart: () => this.t0,
      reveal: (id) => this.sel.select(id, true),
    });
    const fit = h('button', { title: 'Fit all (F)' }, 'Fit');
    const zoomSel = h('button', { title: 'Zoom to the selection (Z)' }, 'Zoom to selection');
    const bar = h('div', { class: 'twtl-bar' });
    bar.append(
      ...this.search.controls(),
      this.colorSelect,
      fit,
      zoomSel,
      h('span', { class: 'twtl-hint' }, 'wheel/W/S zoom · drag/A/D pan · shift+drag aggregate · F fit · click details')
    );
    this.input = new TimelineInput({
      root: this.root,
      stage: this.stage,
      canvas: this.canvas,
      sel: this.sel,
      rows: this.rows,
      cache: this.cache,
      size: () => ({ width: this.width, height: this.height }),
      frame: () => this.frame(),
      range: () => this.range,
      dragTo: (r) => {
        this.t0 = r.t0;
        this.t1 = r.t1;
      },
      zoomAround: (factor, x) => this.zoomAround(factor, x),
      pan: (fraction) => this.pan(fraction),
      fitAll: () => this.fitAll(),
      invalidate: () => this.invalidate(),
      acceptsKeys: () => this.ready && !this.destroyed,
    });
    this.stage.append(this.canvas, this.input.tipElement);
    this.root.append(bar, this.stage, this.sel.panel.root);
    container.append(this.root);

    fit.addEventListener('click', () => this.fitAll());
    zoomSel.addEventListener('click', () => this.sel.zoomTo());
    this.colorSelect.addEventListener('change', () => {
      this.colorChosen = true;
      this.colorBy = this.colorSelect.value === 'name' ? 'name' : 'class';
      this.invalidate();
    });

    this.resize = new ResizeObserver(() => this.measure());
    this.resize.observe(this.stage);
    this.installHook();
  }

  // --- public API --------------------------------------------------------------------------------

  load(): Promise<void> {
    this.loading ??= this.doLoad();
    return this.loading;
  }

  // Calls made before load() finished wait for the track list (times need its origin), and run as
  // soon as it is here, before the first frame settles: a view shown at a link's range or at another
  // view's window is never idle at the whole trace in between.
  private afterLoad(f: () => void): boolean {
    if (this.rows.tracks) return false;
    this.queued.push(f);
    void this.load().catch(() => {});
    return true;
  }
  private readonly queued: Array<() => void> = [];

  private async doLoad(): Promise<void> {
    const t = await this.client.request('tracks', {});
    if (this.destroyed) return;
    this.measure();
    await this.rows.open(t);
    if (this.destroyed) return;
    this.fitAll();
    for (const f of this.queued.splice(0)) f();
    await this.whenIdle(20000);
  }

  zoomTo(t0_ns: TimeLike, t1_ns: TimeLike): void {
    if (this.afterLoad(() => this.zoomTo(t0_ns, t1_ns))) return;
    const a = this.rel(t0_ns);
    const b = this.rel(t1_ns);
    if (Number.isFinite(a) && Number.isFinite(b)) this.goTo(paddedRange(a, b));
  }

  highlight(opts: { name?: string; regex?: boolean; t0_ns?: TimeLike; t1_ns?: TimeLike }): void {
    if (this.afterLoad(() => this.highlight(opts))) return;
    if (opts.t0_ns !== undefined && opts.t1_ns !== undefined) this.zoomTo(opts.t0_ns, opts.t1_ns);
    if (opts.name === undefined) return;
    this.steps.find(opts.name, Boolean(opts.regex), opts.t0_ns !== undefined ? this.rel(opts.t0_ns) : undefined);
  }

  // Highlights the slices named exactly `name` and selects the first of them on lane `lane` (a flame
  // graph frame's thread), revealing it; the first match anywhere when that lane has none.
  highlightOnLane(name: string, lane: number): void {
    if (this.afterLoad(() => this.highlightOnLane(name, lane))) return;
    const q = exactNameQuery(name);
    this.search.set(q.query, q.regex);
    void this.search.run().then(async () => {
      const id = this.search.active ? await firstMatchOnLane(this.client, lane, this.search.count) : -1;
      if (this.destroyed) return;
      if (id >= 0) await this.sel.select(id, true);
      else await this.steps.step(1);
    });
  }

  // A button beside an area's aggregate (e.g. the flame graph of the area's time range).
  setAreaAction(label: string, run: (t0: number, t1: number, originNs: string) => void): void {
    this.sel.panel.areaAction = { label, run: (t0, t1) => run(t0, t1, this.rows.tracks?.originNs ?? '0') };
  }

  clearSearch(): void {
    if (this.afterLoad(() => this.clearSearch())) return;
    this.steps.clear();
  }

  // Shows the range `at` gives for this view's origin (a window converted from another view's clock:
  // the origin is known once the track list is here).
  showRange(at: (originNs: string) => Range): void {
    if (this.afterLoad(() => this.showRange(at))) return;
    this.goTo(at(this.rows.tracks!.originNs));
  }

  // The visible range (relative ns) and the origin it is relative to; null before load() finished.
  visibleWindow(): { t0: number; t1: number; originNs: string } | null {
    const o = this.rows.tracks?.originNs;
    return o === undefined ? null : { t0: this.t0, t1: this.t1, originNs: o };
  }

  // Asks the client for the track list again and shows it, keeping the range, the scroll, the
  // groups' state and the selected slice: the client's lanes changed (the aligned view of a job
  // showing or hiding a rank's CPU threads; its groups stay the same).
  // `reselect`: select the selected slice again (its lane may have moved); false when the caller
  // selects another.
  async reloadTracks(reselect = true): Promise<void> {
    await this.load();
    const t = await this.client.request('tracks', {});
    if (this.destroyed) return;
    await this.rows.open(t, true);
    if (this.destroyed) return;
    this.cache.reset(); // with the new layout, in the same task: no frame mixes the two
    const sel = this.sel.selected;
    if (!reselect) return this.goTo(this.range);
    if (sel && !sel.instant) void this.sel.select(sel.id, false, false);
    else this.sel.clear();
    this.goTo(this.range);
  }

  // Runs the search box's query again: the worker's one search may have been replaced by another
  // view's of the same worker (a job's aligned view and its ranks' own views).
  refreshSearch(): void {
    if (this.afterLoad(() => this.refreshSearch())) return;
    this.search.rerun();
  }

  fitAll(): void {
    this.rows.scrollY = 0;
    this.goTo(fitRange(this.rows.tracks?.endNs ?? 1));
  }

  destroy(): void {
    this.destroyed = true;
    cancelAnimationFrame(this.raf);
    this.resize.disconnect();
    this.input.detach();
    this.root.remove();
    if (hookedView() === this) delete window.__tracewise?.timeline;
  }

  getViewState(): ViewState {
    return {
      t0: this.t0,
      t1: this.t1,
      search: this.search.query || undefined,
      regex: this.search.regex || undefined,
      colorBy: this.colorBy,
      ...this.rows.state(),
      selected: this.sel.selected?.instant ? undefined : this.sel.selected?.id,
    };
  }

  setViewState(s: ViewState): void {
    if (!s || typeof s !== 'object') return;
    if (this.afterLoad(() => this.setViewState(s))) return;
    if (s.colorBy === 'name' || s.colorBy === 'class') {
      this.colorBy = s.colorBy;
      this.colorSelect.value = s.colorBy;
      this.colorChosen = true;
    }
    if (Array.isArray(s.collapsed) || Array.isArray(s.expanded)) this.rows.restore(s);
    if (Number.isFinite(s.t0) && Number.isFinite(s.t1) && s.t1 > s.t0) {
      this.goTo(s);
    } else if (
      typeof s.t0_ns === 'string' &&
      typeof s.t1_ns === 'string' &&
      /^\d{1,20}$/.test(s.t0_ns) &&
      /^\d{1,20}$/.test(s.t1_ns)
    ) {
      // Hand-written links and embed `range=` give absolute trace ns as decimal strings (beyond 2^53).
      const t0 = this.rel(s.t0_ns),
        t1 = this.rel(s.t1_ns);
      if (t1 > t0) this.goTo({ t0, t1 });
    }
    if (typeof s.search === 'string' && s.search) {
      this.search.set(s.search, Boolean(s.regex));
      void this.search.run();
    }
    if (Number.isInteger(s.selected)) void this.sel.select(s.selected!, false);
  }

  // --- state changes ----------------------------------------------------------------------------

  private rel(t: TimeLike): number {
    return relativeNs(t, this.rows.tracks?.originNs ?? '0');
  }

  private get range(): Range {
    return { t0: this.t0, t1: this.t1 };
  }

  private goTo(r: Range | null): void {
    if (!r) return;
    ({ t0: this.t0, t1: this.t1 } = clampRange(r.t0, r.t1, this.rows.tracks?.endNs ?? 1));
    this.invalidate();
  }

  private zoomAround(factor: number, x: number | null): void {
    const at = x === null ? (this.t0 + this.t1) / 2 : tOf(this.frame(), Math.max(kGutter, x));
    this.goTo(zoomedRange(this.range, at, factor));
  }

  private pan(fraction: number): void {
    const d = (this.t1 - this.t0) * fraction;
    this.goTo({ t0: this.t0 + d, t1: this.t1 + d });
  }

  private invalidate(): void {
    this.dirty = true;
    if (!this.raf && !this.destroyed) this.raf = requestAnimationFrame(() => this.paint());
  }

  private measure(): void {
    const r = this.stage.getBoundingClientRect();
    const dpr = window.devicePixelRatio || 1;
    const w = Math.max(kGutter + 50, Math.floor(r.width)),
      hgt = Math.max(60, Math.floor(r.height));
    if (w === this.width && hgt === this.height && dpr === this.dpr) return;
    // A selected row on screen stays there when the stage shrinks (the details panel opening, a resize).
    const sel = this.sel.selected;
    const keep = sel && this.rows.shown(sel.lane, sel.depth) ? sel : null;
    this.width = w;
    this.height = hgt;
    this.rows.viewH = hgt - kRulerH;
    this.dpr = dpr;
    resizeCanvas(this.canvas, this.ctx, w, hgt, dpr);
    const cs = getComputedStyle(this.container);
    this.colors = {
      fg: cs.color || '#222',
      muted: cs.color || '#666',
      line: 'rgba(128,128,128,0.6)',
      bg: 'rgba(0,0,0,0)',
    };
    if (keep) this.rows.keepShown(keep.lane, keep.depth);
    this.invalidate();
  }

  // Decided once, on the first window with slices (see colorChosen).
  private pickColoring(): void {
    const d = this.cache.data;
    if (this.colorChosen || !d || d.cls.length === 0) return;
    this.colorChosen = true;
    if (d.cls.every((c) => c === 0)) {
      this.colorBy = 'name';
      this.colorSelect.value = 'name';
    }
  }

  private frame(): Frame {
    return {
      width: this.width,
      height: this.height,
      t0: this.t0,
      t1: this.t1,
      scrollY: this.rows.scrollY,
      layout: this.rows.layout!,
      data: this.cache.data,
      names: this.cache.names,
      trackNames: this.rows.names,
      colorBy: this.colorBy,
      searchActive: this.search.active,
      selected: this.sel.selected,
      links: this.sel.links,
      peers: this.sel.peers,
      area: this.sel.area,
      fg: this.colors.fg,
      muted: this.colors.muted,
      line: this.colors.line,
      bg: this.colors.bg,
    };
  }

  // The one rAF callback: draw what is cached, and ask for what is missing.
  private paint(): void {
    this.raf = 0;
    if (this.destroyed || !this.rows.layout || !this.dirty) return;
    this.dirty = false;
    // With several files the test hook follows the view on screen.
    // (offsetParent last: it may lay the page out, and is rarely needed)
    if (hookedView() !== this && this.root.offsetParent !== null) this.installHook();
    const lanes = this.rows.lanesAround(1);
    void this.rows.loadShown();
    this.cache.ensure({ t0: this.t0, t1: this.t1, widthPx: this.width - kGutter, lanes, search: this.search.active });
    this.pickColoring();
    this.ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    const t = performance.now();
    this.drawn = drawFrame(this.ctx, this.frame());
    this.drawMs.push(performance.now() - t);
    if (this.drawMs.length > 240) this.drawMs.shift();
    this.frames++;
    if (this.cache.data && !this.cache.inFlight) this.ready = true;
    this.input.followPointer();
  }

  private whenIdle(timeoutMs: number): Promise<void> {
    const start = performance.now();
    return new Promise((ok) => {
      const check = () =>
        this.isIdle() || performance.now() - start > timeoutMs || this.destroyed ? ok() : setTimeout(check, 16);
      check();
    });
  }

  private isIdle(): boolean {
    return (
      this.ready &&
      !this.dirty &&
      !this.cache.inFlight &&
      this.rows.names.pending === 0 &&
      this.sel.pending === 0 &&
      this.search.pending === 0
    );
  }

  // --- test hook -----------------------------------------------------------------------------------

  private installHook(): void {
    installTimelineHook(
      this,
      () => ({
        ready: this.ready,
        idle: this.isIdle(),
        t0: this.t0,
        t1: this.t1,
        originNs: this.rows.tracks?.originNs ?? null,
        frames: this.frames,
        drawnItems: this.drawn.items,
        drawnInstants: this.drawn.instants,
        drawnHeaders: this.drawn.headers,
        drawnLaneNames: this.drawn.laneNames,
        drawMs: this.drawMs,
        selectedId: this.sel.selected?.id ?? null,
        details: this.sel.lastDetails,
        aggregate: this.sel.lastAggregate,
        searchCount: this.search.count,
        tracks: this.rows.tracks,
        trackNames: this.rows.names,
        colorBy: this.colorBy,
        layout: this.rows.layout,
        cache: this.cache,
        frame: this.rows.layout ? this.frame() : null,
        canvasRect: this.canvas.getBoundingClientRect(),
      }),
      { scrollTo: (y) => this.rows.scrollBy(y - this.rows.scrollY) }
    );
  }
}
