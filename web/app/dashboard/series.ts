// Time-series charts from the summary: GPU utilisation over time (utilization: fractions per time
// bucket, for all devices and each one), memory over time (memory.devices[].series) and queue length
// per stream (launches.queues[].series). Dragging across a chart opens that range in the timeline.
import { h } from '../dom';
import { fmtBytes, fmtDuration, fmtPct } from '../format';
import { lineChart } from './charts';
import type { Links } from './links';

const numbers = (a: unknown): a is number[] => Array.isArray(a) && a.every((x) => typeof x === 'number');

function panel(id: string, title: string, ...body: Array<Node | null>): HTMLElement {
  return h('section', { class: 'panel', 'data-section': id }, h('h2', null, title), ...body);
}

function utilizationChart(f: any, links: Links): HTMLElement | null {
  const u = f?.utilization;
  if (!u || typeof u !== 'object' || typeof u.bucket_ns !== 'number' || typeof u.begin_ns !== 'number' || !numbers(u.all) || u.all.length < 2) return null;
  const origin = links.originNs;
  const xs = u.all.map((_: number, i: number) => (u.begin_ns - origin + (i + 0.5) * u.bucket_ns) / 1e6);
  const ys: number[][] = [u.all.map((v: number) => 100 * v)];
  const labels = ['all devices'];
  const devs = Array.isArray(u.devices) ? u.devices.filter((d: any) => numbers(d?.busy) && d.busy.length === u.all.length) : [];
  if (devs.length > 1) for (const d of devs) { ys.push(d.busy.map((v: number) => 100 * v)); labels.push(`GPU ${d.device}`); }
  const mean = u.all.reduce((a: number, b: number) => a + b, 0) / u.all.length;
  return panel('utilization', 'GPU utilisation over time',
    lineChart([xs, ...ys], labels, { fill: true, height: 170, yRange: [0, 100], xLabel: (x) => `+${fmtDuration(x * 1e6)}`, yLabel: (y) => `${y.toFixed(0)}%`,
      onSelect: (x0, x1) => links.range(origin + x0 * 1e6, origin + x1 * 1e6) }),
    h('p', { class: 'muted small' }, `${u.buckets ?? u.all.length} buckets of ${fmtDuration(u.bucket_ns)}; mean ${fmtPct(100 * mean)}. ` +
      'Drag across the chart to open that range in the timeline.'));
}

// A {ts_ns: [...], <name>: [...]} object as chart columns (x in ms from the trace start).
function tsSeries(series: any, keys: string[], origin: number): number[][] | null {
  if (!series || !numbers(series.ts_ns) || series.ts_ns.length < 2) return null;
  const cols = keys.map((k) => series[k]).filter((a) => numbers(a) && a.length === series.ts_ns.length) as number[][];
  if (!cols.length) return null;
  return [series.ts_ns.map((t: number) => (t - origin) / 1e6), ...cols];
}

function memoryCharts(f: any, links: Links): HTMLElement | null {
  const devs = Array.isArray(f?.memory?.devices) ? f.memory.devices : [];
  const origin = links.originNs;
  const charts = devs.map((d: any) => {
    const data = tsSeries(d?.series, ['allocated', 'reserved'], origin);
    if (!data) return null;
    const name = d.device === -1 ? 'CPU' : `GPU ${d.device}`;
    const total = typeof d.total_global_mem === 'number' ? ` of ${fmtBytes(d.total_global_mem)}` : '';
    return h('div', { class: 'subsection' }, h('h4', null, `${name}: peak ${fmtBytes(d.peak_reserved ?? 0)} reserved${total}`),
      lineChart(data, ['allocated', 'reserved'], { height: 150, yRange: [0, null], xLabel: (x) => `+${fmtDuration(x * 1e6)}`, yLabel: fmtBytes,
        onSelect: (x0, x1) => links.range(origin + x0 * 1e6, origin + x1 * 1e6) }));
  }).filter(Boolean);
  return charts.length ? panel('memory-chart', 'Memory over time', ...charts) : null;
}

function queueCharts(f: any, links: Links): HTMLElement | null {
  const qs = Array.isArray(f?.launches?.queues) ? f.launches.queues : [];
  const origin = links.originNs;
  const charts = qs.map((q: any) => {
    const data = tsSeries(q?.series, ['max_length'], origin);
    if (!data) return null;
    return h('div', { class: 'subsection' }, h('h4', null, `GPU ${q.device} stream ${q.stream}: max ${q.max}, mean ${Number(q.time_weighted_mean ?? q.mean ?? 0).toFixed(2)}`),
      lineChart(data, ['queued ops'], { height: 110, yRange: [0, null], xLabel: (x) => `+${fmtDuration(x * 1e6)}`, yLabel: (y) => y.toFixed(0),
        onSelect: (x0, x1) => links.range(origin + x0 * 1e6, origin + x1 * 1e6) }));
  }).filter(Boolean);
  return charts.length ? h('details', { class: 'panel', 'data-section': 'queues' }, h('summary', null, h('strong', null, 'Launch queue length per stream')), ...charts) : null;
}

export function chartPanels(f: any, links: Links): HTMLElement[] {
  return [utilizationChart(f, links), memoryCharts(f, links), queueCharts(f, links)].filter((x): x is HTMLElement => x !== null);
}
