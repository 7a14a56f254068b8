// Time-series charts from the summary: GPU utilisation over time (utilization: fractions per time
// bucket, for all devices and each one), memory over time (memory.devices[].series) and queue length
// per stream (launches.queues[].series). Dragging across a chart opens that range in the timeline.
// The charts of one file share one x range (so charts under each other line up) and one cursor.
import { h } from '../dom';
import { fmtBytes, fmtCount, fmtDuration, fmtPct } from '../format';
import { lineChart } from './charts';
import { deviceLabel, memoryPeaks, memoryPeakText } from './memory_words';
import type { Links } from './links';
import type { FileSummary } from '../summary_document';

const numbers = (a: unknown): a is number[] => Array.isArray(a) && a.every((x) => typeof x === 'number');

const at = (x: number) => `+${fmtDuration(x * 1e6)}`;
// A range dragged across a chart (x in ms from the trace start), opened in the timeline.
const openRange = (links: Links) => (x0: number, x1: number) =>
  links.range(links.originNs + x0 * 1e6, links.originNs + x1 * 1e6);

// What the charts of one file have in common: the x range (ms from the trace start) that covers the
// utilisation buckets and every memory and queue point, and the key that syncs their cursors.
interface Shared {
  xRange?: [number, number];
  sync: string;
}
let syncKeys = 0;

function sharedRange(f: FileSummary, origin: number): [number, number] | undefined {
  let lo = Infinity,
    hi = -Infinity;
  const take = (t0: unknown, t1: unknown) => {
    if (typeof t0 === 'number' && typeof t1 === 'number') {
      lo = Math.min(lo, (t0 - origin) / 1e6);
      hi = Math.max(hi, (t1 - origin) / 1e6);
    }
  };
  const u = f?.utilization;
  if (u && numbers(u.all))
    take(u.begin_ns, typeof u.end_ns === 'number' ? u.end_ns : u.begin_ns + u.all.length * u.bucket_ns);
  const series = [
    ...(Array.isArray(f?.memory?.devices) ? f.memory.devices : []),
    ...(Array.isArray(f?.launches?.queues) ? f.launches.queues : []),
  ];
  for (const d of series)
    if (numbers(d?.series?.ts_ns) && d.series.ts_ns.length)
      take(d.series.ts_ns[0], d.series.ts_ns[d.series.ts_ns.length - 1]);
  return hi > lo ? [lo, hi] : undefined;
}

function panel(id: string, title: string, ...body: Array<Node | null>): HTMLElement {
  return h('section', { class: 'panel', 'data-section': id }, h('h2', null, title), ...body);
}

// Utilisation stays a line: each value is a bucket's mean plotted at the bucket's centre, a rate
// rather than a count that jumps, and steps would draw edges at arbitrary bucket boundaries.
function utilizationChart(f: FileSummary, links: Links, shared: Shared): HTMLElement | null {
  const u = f?.utilization;
  if (
    !u ||
    typeof u !== 'object' ||
    typeof u.bucket_ns !== 'number' ||
    typeof u.begin_ns !== 'number' ||
    !numbers(u.all) ||
    u.all.length < 2
  )
    return null;
  const origin = links.originNs;
  const xs = u.all.map((_: number, i: number) => (u.begin_ns - origin + (i + 0.5) * u.bucket_ns) / 1e6);
  const ys: number[][] = [u.all.map((v: number) => 100 * v)];
  const labels = ['all devices'];
  const devs = Array.isArray(u.devices)
    ? u.devices.filter((d) => numbers(d?.busy) && d.busy.length === u.all.length)
    : [];
  if (devs.length > 1)
    for (const d of devs) {
      ys.push(d.busy.map((v: number) => 100 * v));
      labels.push(`GPU ${d.device}`);
    }
  const mean = u.all.reduce((a: number, b: number) => a + b, 0) / u.all.length;
  return panel(
    'utilization',
    'GPU utilisation over time',
    lineChart([xs, ...ys], labels, {
      fill: true,
      height: 170,
      yRange: [0, 100],
      xLabel: at,
      xTime: true,
      ...shared,
      yLabel: (y) => `${y.toFixed(0)}%`,
      onSelect: openRange(links),
    }),
    h(
      'p',
      { class: 'muted small' },
      `${u.buckets ?? u.all.length} buckets of ${fmtDuration(u.bucket_ns)}; mean ${fmtPct(100 * mean)}. ` +
        'Drag across the chart to open that range in the timeline.'
    )
  );
}

// A {ts_ns: [...], <name>: [...]} object as chart columns (x in ms from the trace start).
function tsSeries(series: Record<string, unknown> | undefined, keys: string[], origin: number): number[][] | null {
  const ts = series?.ts_ns;
  if (!series || !numbers(ts) || ts.length < 2) return null;
  const cols = keys.map((k) => series[k]).filter((a) => numbers(a) && a.length === ts.length) as number[][];
  if (!cols.length) return null;
  return [ts.map((t) => (t - origin) / 1e6), ...cols];
}

// Memory is drawn in steps: a sample is the state after an allocation or free and holds until the
// next one.
function memoryCharts(f: FileSummary, links: Links, shared: Shared): HTMLElement | null {
  const devs = Array.isArray(f?.memory?.devices) ? f.memory.devices : [];
  const origin = links.originNs;
  const charts = devs
    .map((d) => {
      // A series the trace never recorded (the CPU's reserved memory) is not drawn as a line at 0 B.
      const peaks = memoryPeaks(d);
      const keys = peaks.kind === 'measured' && peaks.reserved !== null ? ['allocated', 'reserved'] : ['allocated'];
      const data = tsSeries(d?.series, keys, origin);
      if (!data) return null;
      const total = typeof d.total_global_mem === 'number' ? ` of ${fmtBytes(d.total_global_mem)}` : '';
      return h(
        'div',
        { class: 'subsection' },
        h('h4', null, `${deviceLabel(d.device)}: ${memoryPeakText(peaks)}${total}`),
        lineChart(data, keys, {
          height: 150,
          yRange: [0, null],
          xLabel: at,
          xTime: true,
          steps: true,
          ...shared,
          yLabel: fmtBytes,
          onSelect: openRange(links),
        })
      );
    })
    .filter(Boolean);
  return charts.length ? panel('memory-chart', 'Memory over time', ...charts) : null;
}

// Queue lengths are counts that change in steps (each point: the most queued in a short bucket, from
// its first change on). The queue is empty before the first launch, and the last length holds to the
// end, so each chart gets a point at both ends of the shared range.
function withEnds(data: number[][], range: [number, number] | undefined): number[][] {
  const [xs, ys] = data;
  if (!range) return data;
  const out = [[...xs], [...ys]];
  if (range[0] < xs[0]) {
    out[0].unshift(range[0]);
    out[1].unshift(0);
  }
  if (range[1] > xs[xs.length - 1]) {
    out[0].push(range[1]);
    out[1].push(ys[ys.length - 1]);
  }
  return out;
}

// A count of queued ops with its unit ("max 8" said nothing of what was counted).
const queuedOps = (n: unknown) => `${fmtCount(Number(n))} op${n === 1 ? '' : 's'}`;

function queueCharts(f: FileSummary, links: Links, shared: Shared): HTMLElement | null {
  const qs = Array.isArray(f?.launches?.queues) ? f.launches.queues : [];
  const origin = links.originNs;
  const charts = qs
    .map((q) => {
      const data = tsSeries(q?.series, ['max_length'], origin);
      if (!data) return null;
      return h(
        'div',
        { class: 'subsection' },
        h(
          'h4',
          null,
          `GPU ${q.device} stream ${q.stream}: ${queuedOps(q.max)} queued at most, ${Number(q.time_weighted_mean ?? q.mean ?? 0).toFixed(2)} on average`
        ),
        lineChart(withEnds(data, shared.xRange), ['queued ops'], {
          height: 110,
          yRange: [0, null],
          xLabel: at,
          xTime: true,
          steps: true,
          yCounts: true,
          ...shared,
          yLabel: (y) => y.toFixed(0),
          onSelect: openRange(links),
        })
      );
    })
    .filter(Boolean);
  return charts.length
    ? h(
        'details',
        { class: 'panel', 'data-section': 'queues' },
        h('summary', null, h('strong', null, 'Launch queue length per stream')),
        ...charts
      )
    : null;
}

export function chartPanels(f: FileSummary, links: Links): HTMLElement[] {
  const shared: Shared = { xRange: sharedRange(f, links.originNs), sync: `tw-charts-${++syncKeys}` };
  return [utilizationChart(f, links, shared), memoryCharts(f, links, shared), queueCharts(f, links, shared)].filter(
    (x): x is HTMLElement => x !== null
  );
}
