// The timeline's hover tip: one line naming the slice or instant under the pointer, placed beside
// the pointer inside the stage. The view finds what is under the pointer; this file words it and
// places the box. Trace text goes into textContent only.
import { h } from './element';
import type { InstantHit } from './instants';
import { formatDuration } from './time_format';
import type { WindowData } from './window_cache';

export function instantTipText(names: Map<number, string>, inst: InstantHit): string {
  return `${names.get(inst.name) ?? ''} — instant at ${formatDuration(inst.t)}${inst.count > 1 ? ` (${inst.count} instants here)` : ''}`;
}

// Item `i` of the window data (a slice, or several merged into one pixel column).
export function sliceTipText(names: Map<number, string>, d: WindowData, i: number): string {
  const n = d.count[i];
  return `${names.get(d.name[i]) ?? ''} — ${formatDuration(d.dur[i])}${n > 1 ? ` (${n} slices merged)` : ''}`;
}

export class HoverTip {
  readonly el = h('div', { class: 'twtl-tip' });
  private text = '';
  private size = { w: 0, h: 0 };
  private at: { p: { x: number; y: number }; width: number; height: number } | null = null;

  constructor() {
    this.el.hidden = true;
    // The tip's size is learned once the browser has laid it out (a ResizeObserver runs after
    // layout), never by reading offsetWidth right after a new text: that forced a layout of the
    // page in each frame of a zoom whose tip text changed.
    // Until then the tip is placed with the size of its previous text.
    if (typeof ResizeObserver !== 'undefined') {
      new ResizeObserver((entries) => {
        const box = entries[entries.length - 1]?.borderBoxSize?.[0];
        if (!box || this.el.hidden) return;
        this.size = { w: box.inlineSize, h: box.blockSize };
        this.place();
      }).observe(this.el);
    }
  }

  hide(): void {
    this.el.hidden = true;
  }

  // Shows `text` next to the pointer `p` (stage px) on a stage of `width` × `height` px.
  show(text: string, p: { x: number; y: number }, width: number, height: number): void {
    if (text !== this.text || this.el.hidden) {
      this.el.textContent = text;
      this.el.hidden = false;
      this.text = text;
    }
    this.at = { p, width, height };
    this.place();
  }

  // Right of and below the pointer, flipped to the other side where the stage (which ends above the
  // details panel) would clip it.
  private place(): void {
    if (!this.at) return;
    const { p, width, height } = this.at;
    const { w, h: ht } = this.size;
    const left = p.x + 12 + w <= width ? p.x + 12 : p.x - 12 - w;
    const top = p.y + 14 + ht <= height ? p.y + 14 : p.y - 8 - ht;
    this.el.style.left = `${Math.max(0, left)}px`;
    this.el.style.top = `${Math.max(0, top)}px`;
  }
}
