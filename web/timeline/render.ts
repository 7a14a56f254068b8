// Drawing one frame of the timeline on a 2D canvas (CSS pixel coordinates; the caller sets the
// devicePixelRatio transform): ruler, group headers, lanes from the window cache, search matches,
// selection, area selection and the flow arrow; instants are drawn by instants.ts. Pure functions
// of the state they are given.
import { BoundedCache } from './bounded_cache';
import { classColor, kOverlapComputeColor, nameColor } from './colors';
import { drawInstants, drawMarks } from './instants';
import { kHeaderH, type Layout, type LaneBox } from './layout';
import { kWide, RectRun } from './rect_run';
import { sliceLabel } from './short_name';
import { formatTick, niceStep } from './time_format';
import type { TrackNames } from './track_names';
import type { WindowData } from './window_cache';

export const kGutter = 190;
export const kRulerH = 24;

export interface Frame {
  width: number;
  height: number; // CSS px of the canvas
  t0: number;
  t1: number; // visible range (relative ns)
  scrollY: number;
  layout: Layout;
  data: WindowData | null;
  names: Map<number, string>;
  trackNames: TrackNames;
  colorBy: 'class' | 'name';
  searchActive: boolean;
  selected: { lane: number; depth: number; startNs: number; durNs: number } | null;
  links: Array<{ lane: number; depth: number; startNs: number; durNs: number }>;
  peers: Array<{ lane: number; depth: number; startNs: number; durNs: number }>; // a collective's, on other ranks
  area: { t0: number; t1: number; y0: number; y1: number } | null;
  fg: string;
  muted: string;
  line: string;
  bg: string;
}

export interface FrameStats {
  items: number;
  instants: number;
  headers: number; // group headers drawn
  laneNames: number; // lane names drawn
}

export function xOf(f: Frame, t: number): number {
  return kGutter + ((t - f.t0) / (f.t1 - f.t0)) * (f.width - kGutter);
}

export function tOf(f: Frame, x: number): number {
  return f.t0 + ((x - kGutter) / Math.max(1, f.width - kGutter)) * (f.t1 - f.t0);
}

// Screen y of a content y.
export function yOf(f: Frame, y: number): number {
  return kRulerH + y - f.scrollY;
}

// Two ways to cut a label, on purpose. Slice labels (truncate) are up to thousands per frame and
// redrawn on every pan and zoom: they are cut by an average character width, with no measureText
// (a character more or less than the exact fit goes unnoticed inside a slice). Lane names (fitText)
// are a few per frame in a fixed gutter beside the row labels and must not be cut wrong: they are
// measured, and the cut is cached.

// `text` cut with an ellipsis to about `maxW` px at `charW` px per character; null when not even
// two characters fit.
function truncate(text: string, maxW: number, charW: number): string | null {
  if (maxW < charW * 2) return null;
  const n = Math.floor(maxW / charW);
  return text.length <= n ? text : text.slice(0, Math.max(1, n - 1)) + '…';
}

// `text`, cut with an ellipsis to fit `maxW` px in the current font. Lane names are drawn on every
// frame: the cut is remembered per font, width and text (measureText is not free at 60 Hz).
const fitted = new BoundedCache<string>(5000);
function fitText(ctx: CanvasRenderingContext2D, text: string, maxW: number): string {
  const key = `${ctx.font}|${maxW}|${text}`;
  return fitted.get(key) ?? fitted.set(key, cutToFit(ctx, text, maxW));
}

function cutToFit(ctx: CanvasRenderingContext2D, text: string, maxW: number): string {
  if (ctx.measureText(text).width <= maxW) return text;
  let lo = 0,
    hi = text.length;
  while (lo < hi) {
    // the longest prefix that fits with the ellipsis
    const mid = (lo + hi + 1) >> 1;
    if (ctx.measureText(text.slice(0, mid) + '…').width <= maxW) lo = mid;
    else hi = mid - 1;
  }
  return text.slice(0, lo) + '…';
}

function drawRuler(ctx: CanvasRenderingContext2D, f: Frame): void {
  const nsPerPx = (f.t1 - f.t0) / Math.max(1, f.width - kGutter);
  const step = niceStep(nsPerPx, 90);
  ctx.fillStyle = f.bg;
  ctx.fillRect(0, 0, f.width, kRulerH);
  ctx.strokeStyle = f.line;
  ctx.fillStyle = f.muted;
  ctx.font = '11px system-ui, sans-serif';
  ctx.textBaseline = 'middle';
  ctx.beginPath();
  for (let t = Math.ceil(f.t0 / step) * step; t <= f.t1; t += step) {
    const x = Math.round(xOf(f, t)) + 0.5;
    if (x < kGutter) continue;
    ctx.moveTo(x, kRulerH - 6);
    ctx.lineTo(x, f.height);
    ctx.fillText(formatTick(t, step, Math.max(Math.abs(f.t0), Math.abs(f.t1))), x + 3, kRulerH / 2 - 2);
  }
  ctx.globalAlpha = 0.35;
  ctx.stroke();
  ctx.globalAlpha = 1;
  ctx.beginPath();
  ctx.moveTo(0, kRulerH - 0.5);
  ctx.lineTo(f.width, kRulerH - 0.5);
  ctx.stroke();
}

function drawSlices(ctx: CanvasRenderingContext2D, f: Frame, lane: LaneBox, k: number, stats: FrameStats): void {
  const d = f.data!;
  const y0 = yOf(f, lane.y);
  const scale = (f.width - kGutter) / (f.t1 - f.t0);
  const overlap = lane.kind === 'overlap';
  const charW = 6.2;
  ctx.font = '11px system-ui, sans-serif';
  ctx.textBaseline = 'middle';
  const labels: Array<[string, number, number, number]> = [];
  const run = new RectRun(ctx, lane.rowH - 1, !overlap);
  for (let i = d.itemOffset[k]; i < d.itemOffset[k + 1]; i++) {
    let x0 = kGutter + (d.start[i] - f.t0) * scale;
    let x1 = x0 + d.dur[i] * scale;
    if (x1 < kGutter || x0 > f.width) continue;
    const y = y0 + d.depth[i] * lane.rowH;
    if (y + lane.rowH < kRulerH || y > f.height) continue;
    const wide = x1 - x0 >= kWide;
    x0 = Math.round(Math.max(x0, kGutter));
    x1 = Math.max(x0 + 1, Math.round(Math.min(x1, f.width)));
    const cls = d.cls[i];
    const color = overlap
      ? cls === 4
        ? kOverlapComputeColor
        : classColor(cls)
      : f.colorBy === 'name'
        ? nameColor(f.names.get(d.name[i]) ?? '')
        : classColor(cls);
    run.add(x0, x1, y, color, f.searchActive && !overlap && !(d.flags[i] & 2), wide);
    stats.items++;
    const w = x1 - x0;
    if (!overlap && w > 24) {
      const text = truncate(sliceLabel(f.names.get(d.name[i]) ?? ''), w - 6, charW);
      if (text) labels.push([text, x0 + 3, y + lane.rowH / 2, w - 4]);
    }
  }
  run.flush();
  if (labels.length) {
    ctx.fillStyle = '#111';
    for (const [text, x, y] of labels) ctx.fillText(text, x, y);
  }
  // Search matches: an outline per match (the core returns at most one per pixel column).
  if (f.searchActive) {
    ctx.strokeStyle = '#ffd400';
    ctx.lineWidth = 2;
    for (let i = d.matchOffset[k]; i < d.matchOffset[k + 1]; i++) {
      const x0 = Math.max(kGutter, kGutter + (d.matchStart[i] - f.t0) * scale);
      const x1 = Math.min(f.width, kGutter + (d.matchStart[i] + d.matchDur[i] - f.t0) * scale);
      if (x1 < kGutter || x0 > f.width) continue;
      const y = y0 + d.matchDepth[i] * lane.rowH;
      ctx.strokeRect(x0, y + 1, Math.max(2, x1 - x0), lane.rowH - 3);
    }
    ctx.lineWidth = 1;
  }
}

function drawSeries(ctx: CanvasRenderingContext2D, f: Frame, lane: LaneBox, k: number, stats: FrameStats): void {
  const d = f.data!;
  const a = d.pointOffset[k],
    b = d.pointOffset[k + 1];
  if (b <= a) return;
  let lo = 0,
    hi = 0;
  for (let i = a; i < b; i++) {
    lo = Math.min(lo, d.pointMin[i]);
    hi = Math.max(hi, d.pointMax[i]);
  }
  const top = yOf(f, lane.y) + 2,
    h = lane.h - 4;
  const yv = (v: number) => top + h - ((v - lo) / (hi - lo || 1)) * h;
  const base = yv(Math.max(lo, 0));
  ctx.beginPath();
  ctx.moveTo(Math.max(kGutter, xOf(f, d.pointTs[a])), base);
  let prev = d.pointLast[a];
  for (let i = a; i < b; i++) {
    const x = Math.min(f.width, Math.max(kGutter, xOf(f, d.pointTs[i])));
    ctx.lineTo(x, yv(prev));
    ctx.lineTo(x, yv(d.pointMax[i]));
    ctx.lineTo(x, yv(d.pointMin[i]));
    ctx.lineTo(x, yv(d.pointLast[i]));
    prev = d.pointLast[i];
    stats.items++;
  }
  ctx.lineTo(f.width, yv(prev));
  ctx.lineTo(f.width, base);
  ctx.closePath();
  ctx.fillStyle = lane.kind === 'memory' ? 'rgba(171,71,188,0.35)' : 'rgba(63,127,207,0.35)';
  ctx.fill();
  ctx.fillStyle = f.muted;
  ctx.font = '10px system-ui, sans-serif';
  ctx.textBaseline = 'top';
  ctx.fillText(`max ${formatValue(hi)}`, kGutter + 4, top);
}

function formatValue(v: number): string {
  const a = Math.abs(v);
  if (a >= 2 ** 30) return `${(v / 2 ** 30).toFixed(2)} GiB`;
  if (a >= 2 ** 20) return `${(v / 2 ** 20).toFixed(1)} MiB`;
  return Number.isInteger(v) ? String(v) : v.toPrecision(4);
}

// A name not fetched yet (./track_names.ts) shows as this until it comes.
const kNameLoading = '…';

function drawGutter(ctx: CanvasRenderingContext2D, f: Frame, stats: FrameStats): void {
  ctx.fillStyle = f.bg;
  ctx.fillRect(0, kRulerH, kGutter, f.height - kRulerH);
  // Headers and names of lanes scrolled partly under the ruler are cut at its edge, not drawn on it.
  ctx.save();
  ctx.beginPath();
  ctx.rect(0, kRulerH, f.width, f.height - kRulerH);
  ctx.clip();
  ctx.font = '12px system-ui, sans-serif';
  ctx.textBaseline = 'middle';
  const top = f.scrollY,
    bottom = f.scrollY + f.height - kRulerH;
  for (const g of f.layout.groupsIn(top, bottom)) {
    const y = yOf(f, g.y);
    if (y + kHeaderH < kRulerH || y > f.height) continue;
    stats.headers++;
    ctx.fillStyle = f.line;
    ctx.globalAlpha = 0.35;
    ctx.fillRect(0, y, f.width, kHeaderH - 2);
    ctx.globalAlpha = 1;
    ctx.fillStyle = f.fg;
    ctx.font = 'bold 12px system-ui, sans-serif';
    ctx.fillText(
      fitText(ctx, `${g.collapsed ? '▸' : '▾'} ${f.trackNames.group(g.index) ?? kNameLoading}`, f.width - 60) +
        (g.collapsed ? ` (${g.lanes})` : ''),
      6,
      y + kHeaderH / 2 - 1
    );
  }
  ctx.font = '11px system-ui, sans-serif';
  for (const l of f.layout.lanesIn(top, bottom)) {
    const y = yOf(f, l.y);
    if (y + l.h < kRulerH || y > f.height) continue;
    stats.laneNames++;
    ctx.fillStyle = f.muted;
    const text = fitText(ctx, f.trackNames.track(l.id) ?? kNameLoading, kGutter - 20);
    if (l.kind !== 'overlap') {
      ctx.fillText(text, 14, y + Math.min(l.h, 18) / 2);
      continue;
    }
    // The overlap lane's rows are 10 px: its name sits on the first, and a row's small label only
    // where it fits after the name (the name has priority).
    ctx.fillText(text, 14, y + l.rowH / 2);
    const nameEnd = 14 + ctx.measureText(text).width + 4;
    ctx.font = '9px system-ui, sans-serif';
    ctx.textAlign = 'right';
    ['compute', 'comm hidden', 'comm exposed'].forEach((r, i) => {
      if (i > 0 || kGutter - 6 - ctx.measureText(r).width >= nameEnd)
        ctx.fillText(r, kGutter - 6, y + i * l.rowH + l.rowH / 2);
    });
    ctx.textAlign = 'left';
    ctx.font = '11px system-ui, sans-serif';
  }
  ctx.restore();
  ctx.strokeStyle = f.line;
  ctx.beginPath();
  ctx.moveTo(kGutter - 0.5, kRulerH);
  ctx.lineTo(kGutter - 0.5, f.height);
  ctx.stroke();
}

function arrow(ctx: CanvasRenderingContext2D, x0: number, y0: number, x1: number, y1: number): void {
  ctx.beginPath();
  ctx.moveTo(x0, y0);
  const my = (y0 + y1) / 2;
  ctx.bezierCurveTo(x0, my, x1, my, x1, y1);
  ctx.stroke();
  const ang = Math.atan2(y1 - my, 0.0001);
  ctx.beginPath();
  ctx.moveTo(x1, y1);
  ctx.lineTo(x1 - 5 * Math.cos(ang - 0.5), y1 - 5 * Math.sin(ang - 0.5));
  ctx.lineTo(x1 - 5 * Math.cos(ang + 0.5), y1 - 5 * Math.sin(ang + 0.5));
  ctx.closePath();
  ctx.fill();
}

export function drawFrame(ctx: CanvasRenderingContext2D, f: Frame): FrameStats {
  const stats: FrameStats = { items: 0, instants: 0, headers: 0, laneNames: 0 };
  ctx.clearRect(0, 0, f.width, f.height);
  drawRuler(ctx, f);
  ctx.save();
  ctx.beginPath();
  ctx.rect(kGutter, kRulerH, f.width - kGutter, f.height - kRulerH);
  ctx.clip();
  if (f.data) {
    for (const lane of f.layout.lanesIn(f.scrollY, f.scrollY + f.height)) {
      const k = f.data.laneIndex.get(lane.id);
      if (k === undefined) continue;
      if (lane.kind === 'slices' || lane.kind === 'overlap') drawSlices(ctx, f, lane, k, stats);
      else drawSeries(ctx, f, lane, k, stats);
      if (lane.kind === 'slices') stats.instants += drawInstants(ctx, f, lane, k);
    }
  }
  const box = (s: { lane: number; depth: number; startNs: number; durNs: number }) => {
    const lane = f.layout.laneBox(s.lane);
    if (!lane) return null;
    const x0 = xOf(f, s.startNs),
      x1 = Math.max(x0 + 2, xOf(f, s.startNs + s.durNs));
    return { x0, x1, y: yOf(f, lane.y + s.depth * lane.rowH), h: lane.rowH };
  };
  if (f.selected) {
    const b = box(f.selected);
    if (b) {
      ctx.strokeStyle = f.fg;
      ctx.lineWidth = 2;
      ctx.strokeRect(b.x0, b.y, b.x1 - b.x0, b.h - 1);
      ctx.lineWidth = 1.5;
      ctx.strokeStyle = ctx.fillStyle = '#d81b60';
      for (const l of f.links) {
        const t = box(l);
        if (!t) continue;
        const down = t.y > b.y;
        arrow(ctx, b.x0, down ? b.y + b.h : b.y, t.x0, down ? t.y : t.y + t.h);
      }
      ctx.lineWidth = 1;
    }
  }
  // The selected collective's kernels on the other ranks (the aligned view of a job): outlined like
  // the selection but dashed, with guides at the selected kernel's start and end over the whole
  // view, so that who arrived late (and that all leave together) reads at a glance.
  if (f.peers.length && f.selected) {
    const x0 = xOf(f, f.selected.startNs),
      x1 = xOf(f, f.selected.startNs + f.selected.durNs);
    ctx.strokeStyle = '#d81b60';
    ctx.globalAlpha = 0.7;
    ctx.setLineDash([4, 4]);
    ctx.beginPath();
    for (const x of [x0, x1]) {
      ctx.moveTo(Math.round(x) + 0.5, kRulerH);
      ctx.lineTo(Math.round(x) + 0.5, f.height);
    }
    ctx.stroke();
    ctx.globalAlpha = 1;
    ctx.lineWidth = 2;
    ctx.strokeStyle = f.fg;
    for (const p of f.peers) {
      const b = box(p);
      if (b) ctx.strokeRect(b.x0, b.y, b.x1 - b.x0, b.h - 1);
    }
    ctx.setLineDash([]);
    ctx.lineWidth = 1;
  }
  if (f.area) {
    const x0 = xOf(f, f.area.t0),
      x1 = xOf(f, f.area.t1);
    ctx.fillStyle = 'rgba(33,150,243,0.15)';
    ctx.strokeStyle = 'rgba(33,150,243,0.9)';
    const y0 = yOf(f, f.area.y0),
      y1 = yOf(f, f.area.y1);
    ctx.fillRect(x0, y0, x1 - x0, y1 - y0);
    ctx.strokeRect(x0, y0, x1 - x0, y1 - y0);
  }
  ctx.restore();
  drawGutter(ctx, f, stats);
  stats.instants += drawMarks(ctx, f);
  return stats;
}
