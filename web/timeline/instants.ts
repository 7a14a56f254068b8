// Instant events on the canvas, and finding the one under the pointer. Thread instants are small
// triangles at the top of their lane; process-scope instants are thin lines over their process's
// lanes with a triangle on its header; global ones are lines over the whole view with a triangle
// under the ruler. The core sends at most one per pixel column (the count says how many it stands
// for), so drawing is linear in the pixels, not in the trace.
import { kHeaderH, type LaneBox } from './layout';
import { kGutter, kRulerH, yOf, type Frame } from './render';
import { kGlobalMark } from './window_cache';

export const kInstantColor = '#e65100';
const kHalf = 4; // half width of a marker triangle, px
const kHitPx = 5; // how far from a marker a click still selects it

function triangle(ctx: CanvasRenderingContext2D, x: number, y: number): void {
  ctx.moveTo(x - kHalf, y);
  ctx.lineTo(x + kHalf, y);
  ctx.lineTo(x, y + 2 * kHalf);
  ctx.closePath();
}

const xAt = (f: Frame, t: number) => kGutter + ((t - f.t0) / (f.t1 - f.t0)) * (f.width - kGutter);

// Thread instants of lane slot k (the cache's lane index).
export function drawInstants(ctx: CanvasRenderingContext2D, f: Frame, lane: LaneBox, k: number): number {
  const d = f.data!;
  const a = d.instantOffset?.[k] ?? 0,
    b = d.instantOffset?.[k + 1] ?? 0;
  if (b <= a) return 0;
  const y = yOf(f, lane.y) + 1;
  if (y + 2 * kHalf < kRulerH || y > f.height) return 0;
  let n = 0;
  ctx.beginPath();
  for (let i = a; i < b; i++) {
    const x = xAt(f, d.instantTs[i]);
    if (x < kGutter - kHalf || x > f.width + kHalf) continue;
    triangle(ctx, x, y);
    n++;
  }
  ctx.fillStyle = kInstantColor;
  ctx.fill();
  ctx.strokeStyle = 'rgba(0,0,0,0.55)';
  ctx.lineWidth = 1;
  ctx.stroke();
  return n;
}

// Vertical extent (screen y) of a mark: its group's header and lanes, or the whole view.
function markSpan(f: Frame, group: number): { y0: number; y1: number; head: number } | null {
  if (group === kGlobalMark) return { y0: kRulerH, y1: f.height, head: kRulerH - 2 * kHalf - 1 };
  const g = f.layout.groupBox(group);
  if (!g) return null;
  const y0 = yOf(f, g.y);
  return { y0, y1: y0 + g.h, head: y0 + (kHeaderH - 2 * kHalf) / 2 };
}

// Process and global instants: lines, then their head triangles (drawn after the gutter so the
// global ones sit on the ruler).
export function drawMarks(ctx: CanvasRenderingContext2D, f: Frame): number {
  const d = f.data;
  if (!d || !d.markTs?.length) return 0;
  let n = 0;
  ctx.save();
  ctx.beginPath();
  ctx.rect(kGutter, 0, f.width - kGutter, f.height);
  ctx.clip();
  ctx.strokeStyle = 'rgba(230,81,0,0.75)';
  ctx.lineWidth = 1;
  ctx.beginPath();
  const heads: Array<[number, number]> = [];
  for (let i = 0; i < d.markTs.length; i++) {
    const x = Math.round(xAt(f, d.markTs[i])) + 0.5;
    if (x < kGutter || x > f.width) continue;
    const s = markSpan(f, d.markGroup[i]);
    if (!s || s.y1 < kRulerH || s.y0 > f.height) continue;
    ctx.moveTo(x, Math.max(kRulerH, s.y0));
    ctx.lineTo(x, Math.min(f.height, s.y1));
    if (s.head >= (d.markGroup[i] === kGlobalMark ? 0 : kRulerH)) heads.push([x, s.head]);
    n++;
  }
  ctx.stroke();
  ctx.beginPath();
  for (const [x, y] of heads) triangle(ctx, x, y);
  ctx.fillStyle = kInstantColor;
  ctx.fill();
  ctx.restore();
  return n;
}

export interface InstantHit {
  instantId: number;
  name: number;
  count: number;
  t: number;
}

// The thread instant whose marker is under (x, y) in the top row of `lane` (slot k), if any.
export function instantAt(f: Frame, lane: LaneBox, k: number, x: number, y: number): InstantHit | null {
  const d = f.data;
  if (!d || !d.instantOffset) return null;
  const top = yOf(f, lane.y);
  if (y < top || y > top + 2 * kHalf + 4) return null;
  let best: InstantHit | null = null,
    bestDx = kHitPx + 1;
  for (let i = d.instantOffset[k]; i < d.instantOffset[k + 1]; i++) {
    const dx = Math.abs(xAt(f, d.instantTs[i]) - x);
    if (dx < bestDx) {
      bestDx = dx;
      best = { instantId: d.instantId[i], name: d.instantName[i], count: d.instantCount[i], t: d.instantTs[i] };
    }
  }
  return best;
}

// The process / global instant whose head triangle is at (x, y): on a group header or the ruler.
export function markAt(f: Frame, x: number, y: number): InstantHit | null {
  const d = f.data;
  if (!d || !d.markTs || x < kGutter) return null;
  let best: InstantHit | null = null,
    bestDx = kHitPx + 1;
  for (let i = 0; i < d.markTs.length; i++) {
    const s = markSpan(f, d.markGroup[i]);
    if (!s || y < s.head - 2 || y > s.head + 2 * kHalf + 3) continue;
    const dx = Math.abs(xAt(f, d.markTs[i]) - x);
    if (dx < bestDx) {
      bestDx = dx;
      best = { instantId: d.markId[i], name: d.markName[i], count: d.markCount[i], t: d.markTs[i] };
    }
  }
  return best;
}

// Client-space centre of the first drawn marker whose name contains `text` (test hook).
export function locateInstant(
  f: Frame,
  names: Map<number, string>,
  rect: DOMRect,
  text: string
): { x: number; y: number; instantId: number } | null {
  const d = f.data;
  if (!d || !d.instantOffset) return null;
  const inView = (x: number, y: number) => x >= kGutter && x <= f.width && y >= 0 && y <= f.height;
  for (const lane of f.layout.lanesIn(f.scrollY, f.scrollY + f.height - kRulerH)) {
    const k = d.laneIndex.get(lane.id);
    if (k === undefined || lane.kind !== 'slices') continue;
    for (let i = d.instantOffset[k]; i < d.instantOffset[k + 1]; i++) {
      if (!(names.get(d.instantName[i]) ?? '').includes(text)) continue;
      const x = xAt(f, d.instantTs[i]),
        y = yOf(f, lane.y) + 1 + kHalf;
      if (inView(x, y) && y >= kRulerH) return { x: rect.left + x, y: rect.top + y, instantId: d.instantId[i] };
    }
  }
  for (let i = 0; i < d.markTs.length; i++) {
    if (!(names.get(d.markName[i]) ?? '').includes(text)) continue;
    const s = markSpan(f, d.markGroup[i]);
    const x = xAt(f, d.markTs[i]);
    if (s && inView(x, s.head + kHalf))
      return { x: rect.left + x, y: rect.top + s.head + kHalf, instantId: d.markId[i] };
  }
  return null;
}
