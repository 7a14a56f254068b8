// window.__tracewise.timeline: the test and benchmark hook of the TimelineView on screen. Reads a
// live snapshot of the view (`probe()`), and turns times, names and groups into client
// coordinates so tests can click what they mean.
import { locateInstant } from './instants';
import { kGutter, kRulerH, xOf, yOf, type Frame } from './render';
import type { Layout } from './layout';
import type { WindowCache } from './window_cache';
import { tracewiseHook } from '../hook';

export interface Probe {
  ready: boolean;
  idle: boolean;
  t0: number;
  t1: number;
  originNs: string | null;
  frames: number;
  drawnItems: number;
  drawnInstants: number;
  drawMs: number[];
  selectedId: number | null;
  details: unknown;
  aggregate: unknown;
  searchCount: number;
  lanes: unknown[];
  colorBy: string;
  layout: Layout | null;
  cache: WindowCache;
  frame: Frame | null;
  canvasRect: DOMRect;
}

export function installTimelineHook(view: object, probe: () => Probe): void {
  tracewiseHook().timeline = {
    view,
    get ready() {
      return probe().ready;
    },
    idle: () => probe().idle,
    visibleRange: () => {
      const p = probe();
      return { t0: p.t0, t1: p.t1 };
    },
    get scrollY() {
      return probe().frame?.scrollY ?? 0;
    },
    get originNs() {
      return probe().originNs;
    },
    get frames() {
      return probe().frames;
    },
    get drawnItems() {
      return probe().drawnItems;
    },
    get drawnInstants() {
      return probe().drawnInstants;
    },
    drawTimes: () => probe().drawMs.slice(),
    get requests() {
      return probe().cache.requests;
    },
    get selectedId() {
      return probe().selectedId;
    },
    get details() {
      return probe().details;
    },
    get aggregate() {
      return probe().aggregate;
    },
    get searchCount() {
      return probe().searchCount;
    },
    get lanes() {
      return probe().lanes;
    },
    get lanesShown() {
      return probe().layout?.lanes.length ?? 0;
    },
    get colorBy() {
      return probe().colorBy;
    },
    // Client coordinates of the centre of the widest drawn item whose name contains `text`.
    locate: (text: string) => locate(probe(), text),
    // Client coordinates of a drawn instant marker (thread triangle, or a process / global head).
    locateInstant: (text: string) => {
      const p = probe();
      return p.frame ? locateInstant(p.frame, p.cache.names, p.canvasRect, text) : null;
    },
    // Client coordinates of the header of the first group whose name starts with `prefix`.
    groupPoint: (prefix: string) => {
      const p = probe();
      const g = p.layout?.groups.find((x) => x.info.name.startsWith(prefix));
      if (!g || !p.frame) return null;
      return { x: p.canvasRect.left + 40, y: p.canvasRect.top + yOf(p.frame, g.y + 10) };
    },
    // Client coordinates of a time (relative ns) on a lane's row.
    pointAt: (t: number, lane: number, depth = 0) => {
      const p = probe();
      const box = p.layout?.byLane.get(lane);
      if (!box || !p.frame) return null;
      return {
        x: p.canvasRect.left + xOf(p.frame, t),
        y: p.canvasRect.top + yOf(p.frame, box.y + depth * box.rowH + box.rowH / 2),
      };
    },
  };
}

export function hookedView(): unknown {
  return window.__tracewise?.timeline?.view;
}

function locate(p: Probe, text: string): { x: number; y: number; id: number } | null {
  const d = p.cache.data,
    f = p.frame;
  if (!d || !p.layout || !f) return null;
  const r = p.canvasRect;
  let best: { x: number; y: number; id: number; w: number } | null = null;
  for (const lane of p.layout.lanesIn(f.scrollY, f.scrollY + f.height - kRulerH)) {
    const k = d.laneIndex.get(lane.info.id);
    if (k === undefined || lane.info.kind !== 'slices') continue;
    for (let i = d.itemOffset[k]; i < d.itemOffset[k + 1]; i++) {
      if (!(p.cache.names.get(d.name[i]) ?? '').includes(text)) continue;
      const x0 = Math.max(kGutter, xOf(f, d.start[i])),
        x1 = Math.min(f.width, xOf(f, d.start[i] + d.dur[i]));
      const y = yOf(f, lane.y + d.depth[i] * lane.rowH + lane.rowH / 2);
      if (x1 - x0 < 1 || y < kRulerH || y > f.height) continue;
      if (!best || x1 - x0 > best.w) best = { x: r.left + (x0 + x1) / 2, y: r.top + y, id: d.sliceId[i], w: x1 - x0 };
    }
  }
  return best && { x: best.x, y: best.y, id: best.id };
}
