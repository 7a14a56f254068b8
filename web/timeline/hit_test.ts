// What is under the pointer on the timeline canvas: the slice item or the instant marker at a
// point (CSS px of the canvas), found in the frame being shown. Pure functions of the frame.
import { instantAt, markAt, type InstantHit } from './instants';
import type { LaneBox } from './layout';
import { kGutter, kRulerH, tOf, type Frame } from './render';

// The item (index into the window data) on the row under (x, y): the one the pointer is on, or the
// nearest within two pixels, since merged slices can be a single pixel wide.
export function sliceAt(f: Frame, x: number, y: number): { lane: LaneBox; i: number } | null {
  const d = f.data;
  if (!d || x < kGutter || y < kRulerH) return null;
  const cy = y - kRulerH + f.scrollY;
  const lane = f.layout.laneAt(cy);
  if (!lane || lane.kind !== 'slices') return null;
  const k = d.laneIndex.get(lane.id);
  if (k === undefined) return null;
  const depth = Math.floor((cy - lane.y) / lane.rowH);
  const t = tOf(f, x);
  const slop = ((f.t1 - f.t0) / Math.max(1, f.width - kGutter)) * 2;
  let best = -1,
    bestDist = Infinity;
  for (let i = d.itemOffset[k]; i < d.itemOffset[k + 1]; i++) {
    if (d.depth[i] !== depth) continue;
    const a = d.start[i],
      b = a + d.dur[i];
    const dist = t < a ? a - t : t > b ? t - b : 0;
    if (dist <= slop && dist < bestDist) {
      best = i;
      bestDist = dist;
    }
  }
  return best < 0 ? null : { lane, i: best };
}

// The instant marker at (x, y): a process / global head triangle, or a thread instant on the
// top row of the lane under the pointer.
export function instantUnder(f: Frame, x: number, y: number): InstantHit | null {
  const d = f.data;
  if (!d) return null;
  const mark = markAt(f, x, y);
  if (mark || x < kGutter || y < kRulerH) return mark;
  const lane = f.layout.laneAt(y - kRulerH + f.scrollY);
  const k = lane && lane.kind === 'slices' ? d.laneIndex.get(lane.id) : undefined;
  return lane && k !== undefined ? instantAt(f, lane, k, x, y) : null;
}
