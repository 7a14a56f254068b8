// One flame graph canvas: a layout drawn in one requestAnimationFrame at a time, horizontal zoom
// (wheel) and pan (drag, horizontal wheel) of the visible range without laying out again, vertical
// scroll (shift+wheel, drag), the hover tip, and clicks handed to the owner. The layout is made
// again only when the tree, measure, order or focus change (set()).
import { h } from '../timeline/element';
import { HoverTip } from '../timeline/hover_tip';
import { resizeCanvas } from '../timeline/canvas_size';
import type { CallTree } from './call_tree';
import { itemAt, itemOf, layoutFlame, sortedChildren, type FlameLayout, type Order } from './layout';
import { drawFlame, kRowH, pxOf, rowAt, rowTop, unitAt, type DrawStats, type FlameFrame } from './render';
import { frameTip } from './tip';
import { childrenOf, totalOf, type Children, type Measure } from './tree_shape';

export interface PaneInput {
  tree: CallTree;
  measure: Measure;
  order: Order;
  focus: number;
}

const kMinSpan = 1e-9; // the narrowest visible range, as a share of the focused frame

export class FlamePane {
  readonly el = h('div', { class: 'flame-stage' });
  private readonly canvas = h('canvas', { role: 'img' });
  private readonly ctx: CanvasRenderingContext2D;
  private readonly tip = new HoverTip();
  private input: PaneInput | null = null;
  private children: Children | null = null;
  private childrenOf: CallTree | null = null;
  private readonly sorted = new Map<Measure, Children>(); // left-heavy children of that tree, by measure
  layout: FlameLayout | null = null;
  private v0 = 0;
  private v1 = 1;
  private scrollY = 0;
  private width = 0;
  private height = 0;
  private dpr = 1;
  private fg = '#222'; // the outline's colour: the page's text colour, read on resize
  private raf = 0;
  private drag: { x: number; y: number; v0: number; v1: number; scrollY: number; moved: boolean } | null = null;
  match: Uint8Array | null = null;
  selected = -1;
  stats: DrawStats = { drawn: 0, coalesced: 0, labels: 0 };
  frames = 0;
  readonly drawMs: number[] = [];
  readonly layoutMs: number[] = [];
  onPick: (node: number) => void = () => {};

  constructor(
    label: string,
    private readonly flip = false
  ) {
    this.canvas.setAttribute('aria-label', label);
    this.ctx = this.canvas.getContext('2d')!;
    this.tip.el.className = 'flame-tip'; // styled by flame.css, not the timeline's tip
    this.el.append(this.canvas, this.tip.el);
    this.canvas.addEventListener('wheel', (e) => this.wheel(e), { passive: false });
    this.canvas.addEventListener('pointerdown', (e) => this.down(e));
    this.canvas.addEventListener('pointermove', (e) => this.move(e));
    this.canvas.addEventListener('pointerup', (e) => this.up(e));
    this.canvas.addEventListener('pointerleave', () => this.tip.hide());
    new ResizeObserver(() => this.measure()).observe(this.el);
  }

  get tree(): CallTree | null {
    return this.input?.tree ?? null;
  }
  get kids(): Children | null {
    return this.children;
  }

  // A new tree, measure, order or focus: laid out again, the whole focused frame in view.
  set(input: PaneInput): void {
    const t = performance.now();
    if (this.childrenOf !== input.tree) {
      this.children = childrenOf(input.tree);
      this.childrenOf = input.tree;
      this.sorted.clear();
    }
    this.input = input;
    const value = totalOf(input.tree, input.measure);
    let order = this.children!;
    if (input.order === 'left-heavy') {
      const known = this.sorted.get(input.measure);
      if (known) order = known;
      else this.sorted.set(input.measure, (order = sortedChildren(this.children!, value)));
    }
    this.layout = layoutFlame(input.tree, order, value, input.focus);
    this.layoutMs.push(performance.now() - t);
    this.v0 = 0;
    this.v1 = 1;
    this.scrollY = 0;
    this.tip.hide();
    this.invalidate();
  }

  clear(): void {
    this.input = null;
    this.layout = null;
    this.invalidate();
  }

  // The visible range, as shares of the focused frame (the benchmark and tests zoom through it).
  view(): { v0: number; v1: number } {
    return { v0: this.v0, v1: this.v1 };
  }
  setView(v0: number, v1: number): void {
    const span = Math.min(1, Math.max(kMinSpan, v1 - v0));
    const a = Math.min(Math.max(0, v0), 1 - span);
    this.v0 = a;
    this.v1 = a + span;
    this.invalidate();
  }

  invalidate(): void {
    if (!this.raf) this.raf = requestAnimationFrame(() => this.paint());
  }

  get pending(): boolean {
    return this.raf !== 0;
  }

  // The centre of `node`'s frame in client coordinates, when it is drawn at least `minPx` wide.
  locate(node: number, minPx = 4): { x: number; y: number } | null {
    const l = this.layout;
    if (!l) return null;
    const i = itemOf(l, node);
    if (i < 0) return null;
    const f = this.frame();
    const a = Math.max(0, pxOf(f, l.x[i])),
      b = Math.min(this.width, pxOf(f, l.x[i] + l.w[i]));
    const r = this.rowOfItem(i);
    const y = rowTop(f, r);
    if (b - a < minPx || y < 0 || y + kRowH > this.height) return null;
    const rect = this.canvas.getBoundingClientRect();
    return { x: rect.left + (a + b) / 2, y: rect.top + y + kRowH / 2 };
  }

  private rowOfItem(i: number): number {
    const l = this.layout!;
    let r = 0;
    while (l.rowStart[r + 1] <= i) r++;
    return r;
  }

  private frame(): FlameFrame {
    return {
      tree: this.input!.tree,
      layout: this.layout!,
      v0: this.v0,
      v1: this.v1,
      scrollY: this.scrollY,
      width: this.width,
      height: this.height,
      flip: this.flip,
      match: this.match,
      selected: this.selected,
      fg: this.fg,
    };
  }

  private measure(): void {
    const r = this.el.getBoundingClientRect();
    const dpr = window.devicePixelRatio || 1;
    const w = Math.max(50, Math.floor(r.width)),
      ht = Math.max(40, Math.floor(r.height));
    if (w === this.width && ht === this.height && dpr === this.dpr) return;
    this.width = w;
    this.height = ht;
    this.dpr = dpr;
    this.fg = getComputedStyle(this.el).color || '#222';
    resizeCanvas(this.canvas, this.ctx, w, ht, dpr);
    this.invalidate();
  }

  private paint(): void {
    this.raf = 0;
    this.ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    if (!this.layout || !this.input || !this.width) {
      this.ctx.clearRect(0, 0, this.width, this.height);
      return;
    }
    const t = performance.now();
    this.stats = drawFlame(this.ctx, this.frame());
    this.drawMs.push(performance.now() - t);
    if (this.drawMs.length > 240) this.drawMs.shift();
    this.frames++;
  }

  // --- input -------------------------------------------------------------------------------------

  private local(e: MouseEvent): { x: number; y: number } {
    const r = this.canvas.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  }

  private nodeAt(p: { x: number; y: number }): number {
    if (!this.layout || !this.input) return -1;
    const f = this.frame();
    const i = itemAt(this.layout, rowAt(f, p.y), unitAt(f, p.x));
    return i < 0 ? -1 : this.layout.node[i];
  }

  private maxScroll(): number {
    return Math.max(0, (this.layout?.rows ?? 0) * kRowH - this.height + kRowH);
  }

  private scrollTo(y: number): void {
    this.scrollY = Math.min(this.maxScroll(), Math.max(0, y));
    this.invalidate();
  }

  private wheel(e: WheelEvent): void {
    e.preventDefault();
    const p = this.local(e);
    const span = this.v1 - this.v0;
    if (e.shiftKey) this.scrollTo(this.scrollY + (this.flip ? -1 : 1) * (e.deltaY || e.deltaX));
    else if (Math.abs(e.deltaX) > Math.abs(e.deltaY)) this.setView(this.v0 + (e.deltaX / this.width) * span, this.v1);
    else {
      const at = this.v0 + (p.x / this.width) * span;
      const factor = Math.exp(Math.max(-1, Math.min(1, e.deltaY * (e.deltaMode ? 0.05 : 0.002))));
      const s = Math.min(1, Math.max(kMinSpan, span * factor));
      this.setView(at - (p.x / this.width) * s, at - (p.x / this.width) * s + s);
    }
    this.hover(p);
  }

  private down(e: PointerEvent): void {
    if (e.button !== 0) return;
    const p = this.local(e);
    this.canvas.setPointerCapture(e.pointerId);
    this.drag = { ...p, v0: this.v0, v1: this.v1, scrollY: this.scrollY, moved: false };
  }

  private move(e: PointerEvent): void {
    const p = this.local(e);
    const d = this.drag;
    if (!d) return this.hover(p);
    if (!d.moved && Math.abs(p.x - d.x) + Math.abs(p.y - d.y) < 4) return;
    d.moved = true;
    this.tip.hide();
    const du = ((p.x - d.x) / this.width) * (d.v1 - d.v0);
    this.setView(d.v0 - du, d.v1 - du);
    this.scrollTo(d.scrollY + (this.flip ? 1 : -1) * (p.y - d.y));
  }

  private up(e: PointerEvent): void {
    const d = this.drag;
    this.drag = null;
    if (!d || d.moved) return;
    const node = this.nodeAt(this.local(e));
    if (node >= 0) this.onPick(node);
  }

  private hover(p: { x: number; y: number }): void {
    const node = this.nodeAt(p);
    if (node < 0 || !this.input || !this.layout) return this.tip.hide();
    const root = this.layout.node[0];
    this.tip.show(frameTip(this.input.tree, node, root, this.input.measure), p, this.width, this.height);
  }
}
