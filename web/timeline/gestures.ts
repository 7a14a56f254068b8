// The timeline's pointer and keyboard gestures as actions, apart from the view that carries them
// out: a wheel turn scrolls the rows (over the lane names, or with shift), pans (a horizontal
// swipe) or zooms around the pointer (pinch arrives as ctrl+wheel with small deltas: a bit faster
// for it); W/S/A/D/F/Z/Escape; a drag pans, or with shift selects an area, once it moved more than
// a few pixels (less is a click).
import { kGutter } from './render';

export type WheelAction =
  { kind: 'scroll'; dy: number } | { kind: 'pan'; fraction: number } | { kind: 'zoom'; factor: number };

// `x`: the pointer's x in the canvas; `width`, `height`: the canvas's size in CSS pixels.
export function wheelAction(e: WheelEvent, x: number, width: number, height: number): WheelAction {
  const unit = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? height : 1;
  const dx = e.deltaX * unit;
  const dy = e.deltaY * unit;
  if (x < kGutter || (e.shiftKey && !e.ctrlKey)) return { kind: 'scroll', dy: e.shiftKey && dx && !dy ? dx : dy };
  if (Math.abs(dx) > Math.abs(dy)) return { kind: 'pan', fraction: dx / Math.max(1, width - kGutter) };
  return { kind: 'zoom', factor: Math.exp(dy * (e.ctrlKey ? 0.01 : 0.0025)) };
}

export type KeyAction = 'zoomIn' | 'zoomOut' | 'panLeft' | 'panRight' | 'fit' | 'zoomToSelection' | 'clear';
const kKeys: Record<string, KeyAction> = {
  w: 'zoomIn',
  s: 'zoomOut',
  a: 'panLeft',
  d: 'panRight',
  f: 'fit',
  z: 'zoomToSelection',
  escape: 'clear',
};

// The key's action, or null: none, a modifier held, or typing in a form field.
export function keyAction(e: KeyboardEvent): KeyAction | null {
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  const t = e.target as HTMLElement | null;
  if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable)) {
    return null;
  }
  return kKeys[e.key.toLowerCase()] ?? null;
}

const kClickSlopPx = 3;

// A drag from where the pointer went down, with the view's range and scroll at that moment.
export class Drag {
  moved = false;

  constructor(
    readonly x: number,
    readonly y: number,
    readonly t0: number,
    readonly t1: number,
    readonly scrollY: number,
    readonly mode: 'pan' | 'area'
  ) {}

  // The pointer is at `p`: true once the drag has moved beyond a click.
  to(p: { x: number; y: number }): boolean {
    if (Math.abs(p.x - this.x) + Math.abs(p.y - this.y) > kClickSlopPx) this.moved = true;
    return this.moved;
  }

  // A pan to `p` over a plot `width` px wide (with the gutter): the new range, and rows to scroll by
  // from the scroll the drag began with.
  pannedTo(p: { x: number; y: number }, width: number): { t0: number; t1: number; dy: number } {
    const shift = (this.x - p.x) * ((this.t1 - this.t0) / Math.max(1, width - kGutter));
    return { t0: this.t0 + shift, t1: this.t1 + shift, dy: this.y - p.y };
  }
}
