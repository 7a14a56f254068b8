// window.__tracewise.timeline: the test and benchmark hook of the TimelineView on screen. Reads a
// live snapshot of the view (`probe()`), and turns times, names and groups into client
// coordinates so tests can click what they mean.
import { locateInstant } from './instants';
import { kGutter, kRulerH, xOf, yOf, type Frame } from './render';
import type { Layout } from './layout';
import { laneKind, type TracksReply } from './track_columns';
import type { TrackNames } from './track_names';
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
  drawnHeaders: number;
  drawnLaneNames: number;
  drawMs: number[];
  selectedId: number | null;
  details: unknown;
  aggregate: unknown;
  searchCount: number;
  tracks: TracksReply | null;
  trackNames: TrackNames;
  colorBy: string;
  layout: Layout | null;
  cache: WindowCache;
  frame: Frame | null;
  canvasRect: DOMRect;
}

// Lists of groups and lanes made for a test: every one up to this many, else those on screen.
const kListAll = 10000;

// What the hook may do to the view besides reading it.
export interface HookActions {
  scrollTo(contentY: number): void; // a far scroll in one step (a wheel turn moves a few rows)
}

export function installTimelineHook(view: object, probe: () => Probe, actions: HookActions): void {
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
    get drawnHeaders() {
      return probe().drawnHeaders;
    },
    get drawnLaneNames() {
      return probe().drawnLaneNames;
    },
    get groupCount() {
      return probe().tracks?.groups ?? 0;
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
    // The dragged area {t0, t1, y0, y1, lanes} (relative ns), or null.
    get area() {
      return probe().frame?.area ?? null;
    },
    get aggregate() {
      return probe().aggregate;
    },
    get searchCount() {
      return probe().searchCount;
    },
    // {id, group, kind, name, rows} of every lane (a big trace: those on screen); name undefined
    // until fetched.
    get lanes() {
      const p = probe();
      const t = p.tracks;
      if (!t) return [];
      const ids = t.tracks <= kListAll ? [...Array(t.tracks).keys()] : shownLanes(p);
      return ids.map((id) => ({
        id,
        group: t.trackGroup[id],
        kind: laneKind(t, id),
        name: p.trackNames.track(id),
        rows: t.trackRows[id],
      }));
    },
    get lanesShown() {
      return probe().layout?.shownLanes ?? 0;
    },
    get colorBy() {
      return probe().colorBy;
    },
    // Client coordinates of the centre of the widest drawn item whose name contains `text`.
    locate: (text: string) => locate(probe(), text),
    // The cached window's items whose name contains `text` (every cached lane, on screen or not):
    // {lane, group, name, id, depth, start, dur, merged}, times relative ns.
    items: (text: string) => cachedItems(probe(), text),
    // The peers outlined with the selection (a collective's kernels on the other ranks).
    get peers() {
      return probe().frame?.peers.length ?? 0;
    },
    // Client coordinates of a drawn instant marker (thread triangle, or a process / global head).
    locateInstant: (text: string) => {
      const p = probe();
      return p.frame ? locateInstant(p.frame, p.cache.names, p.canvasRect, text) : null;
    },
    // Client coordinates of the header of the first group whose name starts with `prefix` (a big
    // trace: among those on screen).
    groupPoint: (prefix: string) => {
      const p = probe();
      if (!p.tracks) return null;
      const all = p.tracks.groups <= kListAll;
      const ids = all ? [...Array(p.tracks.groups).keys()] : shownGroups(p);
      const g = ids.find((i) => p.trackNames.group(i)?.startsWith(prefix));
      return g === undefined ? null : groupHeaderPoint(p, g);
    },
    // Client coordinates of group g's header, wherever it is; groupsShown: the groups on screen.
    groupHeaderPoint: (g: number) => groupHeaderPoint(probe(), g),
    groupsShown: () => shownGroups(probe()),
    groupName: (g: number) => probe().trackNames.group(g),
    // Content y of group g's header (scrollTo it to bring it to the top).
    groupY: (g: number) => probe().layout?.groupBox(g)?.y ?? null,
    scrollTo: (y: number) => actions.scrollTo(y),
    // Client coordinates of a time (relative ns) on a lane's row.
    pointAt: (t: number, lane: number, depth = 0) => {
      const p = probe();
      const box = p.layout?.laneBox(lane);
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
    const k = d.laneIndex.get(lane.id);
    if (k === undefined || lane.kind !== 'slices') continue;
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

function cachedItems(p: Probe, text: string) {
  const d = p.cache.data,
    t = p.tracks;
  if (!d || !t) return [];
  const out = [];
  for (const [lane, k] of d.laneIndex) {
    for (let i = d.itemOffset[k]; i < d.itemOffset[k + 1]; i++) {
      const name = p.cache.names.get(d.name[i]) ?? '';
      if (!name.includes(text)) continue;
      const group = t.trackGroup[lane];
      const [start, dur, merged] = [d.start[i], d.dur[i], (d.flags[i] & 1) !== 0];
      out.push({ lane, group, name, id: d.sliceId[i], depth: d.depth[i], start, dur, merged });
    }
  }
  return out;
}

function shownLanes(p: Probe): number[] {
  const f = p.frame;
  return f ? f.layout.lanesIn(f.scrollY, f.scrollY + f.height - kRulerH).map((l) => l.id) : [];
}

function shownGroups(p: Probe): number[] {
  const f = p.frame;
  return f ? f.layout.groupsIn(f.scrollY, f.scrollY + f.height - kRulerH).map((g) => g.index) : [];
}

function groupHeaderPoint(p: Probe, g: number): { x: number; y: number } | null {
  const box = p.layout?.groupBox(g);
  if (!box || !p.frame) return null;
  return { x: p.canvasRect.left + 40, y: p.canvasRect.top + yOf(p.frame, box.y + 10) };
}
