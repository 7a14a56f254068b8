// Draws a flame graph layout on a 2D canvas: only the rows and frames on screen; a frame narrower
// than a pixel is never drawn alone (those inside one pixel column make one grey sliver, found by a
// binary search past that column; slivers side by side are one rect), labels only where they fit. Names go to fillText only.
import { nameColor } from '../timeline/colors';
import { firstEndingAfter, type FlameLayout } from './layout';
import type { CallTree } from './call_tree';

export const kRowH = 18;
const kMinPx = 1; // frames narrower than this are coalesced per pixel column
const kLabelPx = 24; // frames narrower than this get no label
const kFont = '11px system-ui, sans-serif';
const kSliver = 'rgba(140,140,140,0.6)';
const kDimmed = 'rgba(170,170,170,0.35)';

export interface FlameFrame {
  tree: CallTree;
  layout: FlameLayout;
  v0: number; // visible unit range [v0, v1) of the focused frame's width
  v1: number;
  scrollY: number; // px scrolled away from the first row (downwards; upwards when flipped)
  width: number; // css px
  height: number;
  flip: boolean; // rows grow upwards from the bottom (a sandwich's callers)
  match: Uint8Array | null; // by name: search matches (others are dimmed); null: no search
  selected: number; // node outlined, or -1
  fg: string;
}

export interface DrawStats {
  drawn: number; // frames filled
  coalesced: number; // pixel columns of slivers standing for sub-pixel frames (filled as runs)
  labels: number;
}

export function rowTop(f: FlameFrame, r: number): number {
  return f.flip ? f.height - (r + 1) * kRowH + f.scrollY : r * kRowH - f.scrollY;
}

export function rowAt(f: FlameFrame, y: number): number {
  return Math.floor(f.flip ? (f.height - y + f.scrollY) / kRowH : (y + f.scrollY) / kRowH);
}

export function unitAt(f: FlameFrame, x: number): number {
  return f.v0 + (x / f.width) * (f.v1 - f.v0);
}

export function pxOf(f: FlameFrame, ux: number): number {
  return ((ux - f.v0) / (f.v1 - f.v0)) * f.width;
}

let charPx = 0; // average glyph width of kFont, measured once

function label(ctx: CanvasRenderingContext2D, text: string, x: number, y: number, w: number): boolean {
  if (!charPx) charPx = (ctx.measureText('abcdefghijklmnopqrstuvwxyz_::ABCDEFGHIJ').width / 40) * 1.1;
  const room = Math.floor((w - 6) / charPx);
  if (room < 3) return false;
  ctx.fillText(text.length <= room ? text : `${text.slice(0, room - 1)}…`, x + 3, y + kRowH / 2 + 0.5);
  return true;
}

export function drawFlame(ctx: CanvasRenderingContext2D, f: FlameFrame): DrawStats {
  const { tree, layout: l } = f;
  const stats: DrawStats = { drawn: 0, coalesced: 0, labels: 0 };
  ctx.clearRect(0, 0, f.width, f.height);
  ctx.font = kFont;
  ctx.textBaseline = 'middle';
  const scale = f.width / (f.v1 - f.v0);
  const texts: Array<[string, number, number, number]> = [];
  let outline: [number, number, number] | null = null;
  let fill = '';
  const setFill = (c: string) => {
    if (c !== fill) ctx.fillStyle = fill = c; // parsing a colour string costs more than comparing it
  };
  for (let r = 0; r < l.rows; r++) {
    const y = rowTop(f, r);
    if (y + kRowH <= 0 || y >= f.height) continue;
    const end = l.rowStart[r + 1];
    ctx.globalAlpha = r < l.focusRow ? 0.55 : 1;
    // Slivers of adjacent pixel columns are filled as one run [runFrom, runTo).
    let runFrom = 0,
      runTo = -1;
    const flush = () => {
      if (runTo <= runFrom) return;
      setFill(kSliver);
      ctx.fillRect(runFrom, y, runTo - runFrom, kRowH - 1);
      stats.coalesced += runTo - runFrom;
      runTo = -1;
    };
    for (let i = firstEndingAfter(l, r, f.v0); i < end && l.x[i] < f.v1;) {
      const x0 = (l.x[i] - f.v0) * scale;
      const w = l.w[i] * scale;
      if (w < kMinPx) {
        // Every frame ending inside this pixel column becomes (part of) one sliver.
        const col = Math.floor(x0);
        if (col >= runTo) {
          if (col > runTo) flush();
          if (runTo < 0) runFrom = col;
          runTo = col + 1;
        }
        const next = firstEndingAfter(l, r, f.v0 + (col + 1) / scale);
        i = Math.max(i + 1, next);
        continue;
      }
      flush();
      const node = l.node[i];
      const name = tree.names[tree.name[node]];
      const hit = !f.match || f.match[tree.name[node]] === 1;
      const left = Math.max(x0, -1);
      const right = Math.min(x0 + w, f.width + 1);
      setFill(hit ? nameColor(name) : kDimmed);
      ctx.fillRect(left, y, Math.max(1, right - left - (w > 3 ? 1 : 0)), kRowH - 1);
      stats.drawn++;
      if (node === f.selected) outline = [left, y, right - left];
      if (right - left >= kLabelPx) texts.push([name, left, y, right - left]);
      i++;
    }
    flush();
  }
  ctx.globalAlpha = 1;
  ctx.fillStyle = '#111';
  for (const [name, x, y, w] of texts) if (label(ctx, name, x, y, w)) stats.labels++;
  if (outline) {
    ctx.strokeStyle = f.fg;
    ctx.lineWidth = 2;
    ctx.strokeRect(outline[0] + 1, outline[1] + 1, Math.max(1, outline[2] - 3), kRowH - 3);
  }
  return stats;
}
