// Time-series charts from the summary: GPU utilisation over time and memory over time. Shapes are
// read defensively: {bucket_ns|begin_ns + values[]} or arrays of {ts_ns, value} points.
import { h } from '../dom';
import { fmtBytes, fmtDuration } from '../format';
import { lineChart } from './charts';
import type { Links } from './links';

interface Series { xs: number[]; ys: number[][]; labels: string[] }

// Accepts {t0_ns|begin_ns, bucket_ns, <array>} or [{ts_ns|t_ns|begin_ns, <number fields>}].
function toSeries(v: any, originNs: number, preferKeys: RegExp): Series | null {
  if (!v || typeof v !== 'object') return null;
  if (Array.isArray(v)) {
    if (v.length < 2 || typeof v[0] !== 'object') return null;
    const tkey = ['ts_ns', 't_ns', 'begin_ns', 'start_ns', 'time_ns'].find((k) => typeof v[0][k] === 'number');
    if (!tkey) return null;
    const keys = Object.keys(v[0]).filter((k) => k !== tkey && typeof v[0][k] === 'number' && preferKeys.test(k));
    if (!keys.length) return null;
    return { xs: v.map((p: any) => (p[tkey] - originNs) / 1e6), ys: keys.map((k) => v.map((p: any) => p[k])), labels: keys };
  }
  const bucket = v.bucket_ns ?? v.bucket_width_ns ?? v.step_ns;
  const start = v.begin_ns ?? v.t0_ns ?? v.start_ns ?? originNs;
  if (typeof bucket === 'number') {
    const arrays = Object.entries(v).filter(([k, a]) => Array.isArray(a) && a.length > 1 && typeof a[0] === 'number' && preferKeys.test(k));
    if (arrays.length) {
      const n = (arrays[0][1] as number[]).length;
      return { xs: Array.from({ length: n }, (_, i) => (start - originNs + i * bucket) / 1e6), ys: arrays.map(([, a]) => a as number[]), labels: arrays.map(([k]) => k) };
    }
  }
  for (const [, sub] of Object.entries(v)) {
    if (sub && typeof sub === 'object') {
      const s = toSeries(sub, originNs, preferKeys);
      if (s) return s;
    }
  }
  return null;
}

export function chartPanels(f: any, links: Links): HTMLElement[] {
  const out: HTMLElement[] = [];
  const origin = links.originNs;
  const select = (x0: number, x1: number) => links.range(origin + x0 * 1e6, origin + x1 * 1e6);
  const xLabel = (x: number) => fmtDuration(x * 1e6);
  const util = toSeries(f?.utilization, origin, /busy|util|pct|frac/i);
  if (util) {
    const asPct = util.ys.every((y) => y.every((v) => v <= 1.0001)) ? 100 : 1;
    out.push(h('section', { class: 'panel', 'data-section': 'utilization' }, h('h2', null, 'GPU utilisation over time'),
      lineChart([util.xs, ...util.ys.map((y) => y.map((v) => v * asPct))], util.labels, { fill: true, xLabel, yLabel: (y) => `${y.toFixed(0)}%`, onSelect: select }),
      h('p', { class: 'muted' }, 'Drag across the chart to open that range in the timeline.')));
  }
  const mem = toSeries(f?.memory, origin, /alloc|reserv|bytes|used/i);
  if (mem) {
    out.push(h('section', { class: 'panel', 'data-section': 'memory-chart' }, h('h2', null, 'Memory over time'),
      lineChart([mem.xs, ...mem.ys], mem.labels, { xLabel, yLabel: fmtBytes, onSelect: select })));
  }
  return out;
}
