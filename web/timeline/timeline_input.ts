// TimelineInput: the timeline canvas's pointer, wheel and keyboard input, carried out on the view
// through InputHost (gestures.ts decides what a wheel turn, a drag or a key means; this file applies
// it): wheel zoom / pan / scroll, drag to pan or (shift) select an area, click for details, hover
// tips, and the view's keys while its tab is on screen.
import type { TimelineSelection } from './selection';
import { instantUnder, sliceAt } from './hit_test';
import { HoverTip, instantTipText, sliceTipText } from './hover_tip';
import { markAt, type InstantHit } from './instants';
import { kGutter, kRulerH, tOf, type Frame } from './render';
import type { LaneBox } from './layout';
import type { TrackRows } from './track_rows';
import type { WindowCache } from './window_cache';
import { Drag, keyAction, wheelAction, type KeyAction } from './gestures';
import type { Range } from './time_range';

// What the input needs of the view (TimelineView builds it over its own private parts).
export interface InputHost {
  readonly root: HTMLElement;
  readonly stage: HTMLElement;
  readonly canvas: HTMLCanvasElement;
  readonly sel: TimelineSelection;
  readonly rows: TrackRows;
  readonly cache: WindowCache;
  size(): { width: number; height: number };
  frame(): Frame; // only called with a layout
  range(): Range;
  // A drag's pan: the range as the drag computed it (its rows scroll follows, which repaints).
  dragTo(r: Range): void;
  zoomAround(factor: number, x: number | null): void;
  pan(fraction: number): void;
  fitAll(): void;
  invalidate(): void;
  acceptsKeys(): boolean; // loaded and not destroyed
}

export class TimelineInput {
  private readonly tip = new HoverTip();
  private mouse: { x: number; y: number } | null = null;
  private drag: Drag | null = null;
  private readonly onKey = (e: KeyboardEvent) => this.key(e);

  constructor(private readonly host: InputHost) {
    const c = host.canvas;
    c.addEventListener('wheel', (e) => this.wheel(e), { passive: false });
    c.addEventListener('pointerdown', (e) => this.pointerDown(e));
    c.addEventListener('pointermove', (e) => this.pointerMove(e));
    c.addEventListener('pointerup', (e) => this.pointerUp(e));
    c.addEventListener('pointerleave', () => {
      this.mouse = null;
      this.tip.hide();
    });
    window.addEventListener('keydown', this.onKey);
  }

  get tipElement(): HTMLElement {
    return this.tip.el;
  }

  detach(): void {
    window.removeEventListener('keydown', this.onKey);
  }

  // After a frame: the view moved (keys, links, search, new data) under a still pointer, so the
  // tip follows.
  followPointer(): void {
    if (this.mouse && !this.drag) this.hover(this.mouse);
  }

  private itemAt(x: number, y: number): { lane: LaneBox; i: number } | null {
    return this.host.rows.layout ? sliceAt(this.host.frame(), x, y) : null;
  }

  private instantHit(x: number, y: number): InstantHit | null {
    return this.host.rows.layout ? instantUnder(this.host.frame(), x, y) : null;
  }

  private local(e: MouseEvent): { x: number; y: number } {
    const r = this.host.canvas.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  }

  private wheel(e: WheelEvent): void {
    e.preventDefault();
    const p = this.local(e);
    const { width, height } = this.host.size();
    const a = wheelAction(e, p.x, width, height);
    if (a.kind === 'scroll') this.host.rows.scrollBy(a.dy);
    else if (a.kind === 'pan') this.host.pan(a.fraction);
    else this.host.zoomAround(a.factor, p.x);
  }

  private pointerDown(e: PointerEvent): void {
    if (e.button !== 0) return;
    const { stage, canvas, rows, sel } = this.host;
    stage.focus({ preventScroll: true });
    const p = this.local(e);
    const mark = markAt(this.host.frame(), p.x, p.y);
    if (mark && p.y >= kRulerH) {
      void sel.selectInstant(mark.instantId);
      return;
    } // on a group header
    if (p.y >= kRulerH && rows.toggleHeaderAt(p.y - kRulerH + rows.scrollY)) return;
    if (p.x < kGutter) return;
    canvas.setPointerCapture(e.pointerId);
    const r = this.host.range();
    this.drag = new Drag(p.x, p.y, r.t0, r.t1, rows.scrollY, e.shiftKey ? 'area' : 'pan');
    canvas.style.cursor = e.shiftKey ? 'crosshair' : 'grabbing';
  }

  private pointerMove(e: PointerEvent): void {
    const p = this.local(e);
    this.mouse = p;
    const d = this.drag;
    if (!d) {
      this.hover(p);
      return;
    }
    if (!d.to(p)) return;
    this.tip.hide();
    const rows = this.host.rows;
    if (d.mode === 'pan') {
      const to = d.pannedTo(p, this.host.size().width);
      this.host.dragTo({ t0: to.t0, t1: to.t1 });
      rows.scrollY = d.scrollY;
      rows.scrollBy(to.dy);
    } else {
      const f = this.host.frame();
      const ta = tOf(f, Math.max(kGutter, Math.min(d.x, p.x))),
        tb = tOf(f, Math.max(kGutter, Math.max(d.x, p.x)));
      const ya = Math.min(d.y, p.y) - kRulerH + rows.scrollY,
        yb = Math.max(d.y, p.y) - kRulerH + rows.scrollY;
      this.host.sel.area = { t0: ta, t1: tb, y0: ya, y1: yb, lanes: [] };
      this.host.invalidate();
    }
  }

  private pointerUp(e: PointerEvent): void {
    const d = this.drag;
    this.drag = null;
    this.host.canvas.style.cursor = '';
    if (!d) return;
    const { sel, rows, cache } = this.host;
    const p = this.local(e);
    if (!d.moved) {
      const inst = this.instantHit(p.x, p.y);
      if (inst) {
        void sel.selectInstant(inst.instantId);
        return;
      }
      const hit = this.itemAt(p.x, p.y);
      if (hit) void sel.select(cache.data!.sliceId[hit.i], false);
      else sel.clear();
      return;
    }
    if (d.mode === 'area' && sel.area && rows.layout) {
      const a = sel.area;
      a.lanes = rows.layout
        .lanesIn(a.y0, a.y1)
        .filter((l) => l.kind === 'slices')
        .map((l) => l.id);
      void sel.aggregate();
    }
  }

  private hover(p: { x: number; y: number }): void {
    const { width, height } = this.host.size();
    const names = this.host.cache.names;
    // The pointer may be outside a canvas that shrank under it (no pointerleave until it moves).
    const inside = p.x >= 0 && p.x < width && p.y >= 0 && p.y < height;
    const inst = inside ? this.instantHit(p.x, p.y) : null;
    const hit = inst || !inside ? null : this.itemAt(p.x, p.y);
    if (inst) this.tip.show(instantTipText(names, inst), p, width, height);
    else if (hit) this.tip.show(sliceTipText(names, this.host.cache.data!, hit.i), p, width, height);
    else this.tip.hide();
  }

  private key(e: KeyboardEvent): void {
    if (!this.host.acceptsKeys()) return;
    const root = this.host.root;
    if (!root.isConnected || root.offsetParent === null) return; // hidden tab
    const action = keyAction(e);
    if (!action) return;
    const x = this.mouse ? this.mouse.x : null;
    const h = this.host;
    const run: Record<KeyAction, () => void> = {
      zoomIn: () => h.zoomAround(0.8, x),
      zoomOut: () => h.zoomAround(1.25, x),
      panLeft: () => h.pan(-0.15),
      panRight: () => h.pan(0.15),
      fit: () => h.fitAll(),
      zoomToSelection: () => h.sel.zoomTo(),
      clear: () => h.sel.clear(),
    };
    run[action]();
    e.preventDefault();
  }
}
