// Charts: uPlot line/area charts (columnar data, fast canvas) sized to their container, and
// stacked horizontal bars (plain elements) for breakdowns.
import uPlot from 'uplot';
import { h } from '../dom';
import { formatTick, tickFormat, tickSpace } from './time_ticks';

export interface LineOptions {
  height?: number;
  xLabel?: (x: number) => string; // legend text for x values (and tick text unless xTime)
  yLabel?: (y: number) => string;
  xTime?: boolean; // x is ms from the trace start: ticks from time_ticks.ts
  xRange?: [number, number]; // fixed x range: the time charts of one file share one, so they line up
  steps?: boolean; // each value holds until the next point (counts, samples), not a slope
  yCounts?: boolean; // y is a count: whole-number ticks only
  sync?: string; // charts with the same key show the cursor at the same x
  fill?: boolean;
  yRange?: [number, number | null]; // fixed minimum (and maximum, or null = data max)
  onSelect?: (x0: number, x1: number) => void; // drag-select a range on the chart
}

const kPalette = ['--c1', '--c2', '--c3', '--c4', '--c5', '--c6'];
// Whole-number y ticks for counts, closer than uPlot's 30 px: a short queue chart (max 4) otherwise
// got a single tick, "0", or ticks at 2.5.
const kCountIncrs = Array.from({ length: 27 }, (_, i) => [1, 2, 5][i % 3] * 10 ** Math.floor(i / 3));
// uPlot's axis font, set explicitly so that tick labels are measured in the font they are drawn in.
const kAxisFont = '12px system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif';

function cssVar(name: string, fallback: string): string {
  const v = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return v || fallback;
}

let measureCtx: CanvasRenderingContext2D | null = null;
function measure(text: string): number {
  measureCtx ??= document.createElement('canvas').getContext('2d');
  if (!measureCtx) return text.length * 7;
  measureCtx.font = kAxisFont;
  return measureCtx.measureText(text).width;
}

// The index of the last x at or before `x` (null before the first): the point whose value holds there.
function heldIdx(xs: ArrayLike<number>, x: number): number | null {
  let lo = 0,
    hi = xs.length; // first index with xs[i] > x
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 ? lo - 1 : null;
}

// The legend under a chart: the series' names while the pointer is elsewhere (uPlot's own legend read
// "Value: – all devices: –" then), and the x and each series' value at the cursor while hovering.
// The x text goes last so that the names do not move when it appears. A stepped chart shows the
// value held at the pointer's x (uPlot's default is the nearest point, which for a queue that drains
// at 40 ms read "1 at +39.49 ms" with the pointer at 35 ms, where the line is at 0).
function chartLegend(
  labels: string[],
  colors: string[],
  xText: (x: number) => string,
  yText: (y: number) => string,
  steps: boolean
) {
  const at = h('span', { class: 'legend-item' });
  at.style.display = 'none'; // not the hidden attribute: .legend-item's display would override it
  const values = labels.map(() => h('span', { class: 'legend-value' }));
  const el = h(
    'div',
    { class: 'legend chart-legend' },
    ...labels.map((label, i) => {
      const sw = h('span', { class: 'swatch' });
      sw.style.background = colors[i];
      return h('span', { class: 'legend-item' }, sw, label, values[i]);
    }),
    at
  );
  const update = (u: uPlot) => {
    const i = u.cursor.idx;
    at.style.display = i == null ? 'none' : '';
    at.textContent = i == null ? '' : `at ${xText(steps ? u.posToVal(u.cursor.left ?? 0, 'x') : u.data[0][i])}`;
    values.forEach((v, k) => {
      const j = i == null ? null : (u.cursor.idxs?.[k + 1] ?? i);
      const y = j == null ? null : u.data[k + 1][j];
      v.textContent = y == null ? '' : yText(y);
    });
  };
  return { el, update };
}

export function lineChart(data: number[][], labels: string[], opts: LineOptions = {}): HTMLElement {
  const box = h('div', { class: 'chart' });
  const xText = (v: number) => (opts.xLabel ? opts.xLabel(v) : String(v));
  const yText = (v: number) => (opts.yLabel ? opts.yLabel(v) : String(v));
  const colors = labels.map((_, i) => cssVar(kPalette[i % kPalette.length], '#4a8'));
  const legend = labels.length > 1 || opts.xLabel ? chartLegend(labels, colors, xText, yText, !!opts.steps) : null;
  // Queue lengths and memory samples hold their value until the next point: a slope between two
  // points would show counts that never existed. align 1: the step is drawn at the next point.
  const paths = opts.steps ? uPlot.paths.stepped!({ align: 1 }) : undefined;
  let plot: uPlot | null = null;
  let ticks: { splits: number[]; labels: string[] } = { splits: [], labels: [] };
  const make = (width: number) => {
    const axis = {
      stroke: cssVar('--muted', '#888'),
      font: kAxisFont,
      grid: { stroke: cssVar('--grid', '#8883'), width: 1 },
      ticks: { stroke: cssVar('--grid', '#8883') },
    };
    // Lines 1 px wide: a canvas draws those as hairlines, which a software rasteriser (Chromium
    // without a GPU) draws and rasterises in about half the time of 1.5 px strokes. It is one task
    // at the end of a load.
    const series: uPlot.Series[] = [{}];
    labels.forEach((label, i) => {
      series.push({
        label,
        stroke: colors[i],
        width: 1,
        fill: opts.fill ? `${colors[i]}33` : undefined,
        paths,
        points: { show: false },
      });
    });
    const xAxis: uPlot.Axis = opts.xTime
      ? {
          ...axis,
          space: (_u, _i, min, max, dim) => tickSpace(min, max, dim, measure),
          values: (u, splits, _i, _space, incr) => {
            const f = tickFormat(incr, u.scales.x.min ?? 0, u.scales.x.max ?? 0);
            ticks = { splits, labels: splits.map((v) => formatTick(v, f)) };
            return ticks.labels;
          },
        }
      : { ...axis, values: (_u, vals) => vals.map(xText) };
    const o: uPlot.Options = {
      width,
      height: opts.height ?? 180,
      series,
      scales: {
        x: { time: false, ...(opts.xRange ? { range: () => opts.xRange as uPlot.Range.MinMax } : {}) },
        ...(opts.yRange
          ? {
              y: {
                range: (_u: uPlot, _min: number, max: number) =>
                  [opts.yRange![0], opts.yRange![1] ?? (max > 0 ? max * 1.05 : 1)] as uPlot.Range.MinMax,
              },
            }
          : {}),
      },
      axes: [
        xAxis,
        {
          ...axis,
          size: 72,
          values: (_u, vals) => vals.map(yText),
          ...(opts.yCounts ? { incrs: kCountIncrs, space: 20 } : {}),
        },
      ],
      legend: { show: false },
      cursor: {
        drag: { x: !!opts.onSelect, y: false, setScale: false },
        y: false, // a horizontal crosshair means nothing on the synced charts
        ...(opts.steps
          ? {
              dataIdx: (u: uPlot, si: number, closest: number, x: number) =>
                si === 0 ? closest : heldIdx(u.data[0], x),
            }
          : {}),
        // Only the pointer's moves go to the other charts: a drag (mousedown/up) there would select too.
        ...(opts.sync
          ? { sync: { key: opts.sync, scales: ['x', null], filters: { pub: (type: string) => type === 'mousemove' } } }
          : {}),
      },
      hooks: {
        ...(legend ? { setCursor: [legend.update] } : {}),
        // What was drawn, for tests/e2e/charts.test.mjs and dashboard_layout.test.mjs: the x tick
        // labels at their positions, the x range, the number of points and the kind of path.
        draw: [
          (u) => {
            box.dataset.xRange = `${u.scales.x.min},${u.scales.x.max}`;
            box.dataset.points = String(u.data[0]?.length ?? 0);
            box.dataset.paths = opts.steps ? 'stepped' : 'linear';
            if (opts.xTime)
              box.dataset.xTicks = JSON.stringify(ticks.splits.map((v, i) => [u.valToPos(v, 'x'), ticks.labels[i]]));
          },
        ],
        ...(opts.onSelect
          ? {
              setSelect: [
                (u) => {
                  if (u.select.width < 2) return;
                  const x0 = u.posToVal(u.select.left, 'x'),
                    x1 = u.posToVal(u.select.left + u.select.width, 'x');
                  u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
                  opts.onSelect!(x0, x1);
                },
              ],
            }
          : {}),
      },
    };
    // Made empty, drawn with its data in a task of its own: together (the DOM, the axes and the
    // first draw) they made one task long enough to count as a long task right after a load.
    const made = new uPlot(o, null as unknown as uPlot.AlignedData, box);
    plot = made;
    if (legend) box.append(legend.el);
    setTimeout(() => {
      if (plot === made) made.setData(data as uPlot.AlignedData);
    }, 0);
  };
  const ro = new ResizeObserver(() => {
    // Synced charts stay in uPlot's registry of the sync key until destroyed: a chart taken out of the
    // page (the dashboard drawn again) is destroyed, and made again should it come back.
    if (!box.isConnected && plot) {
      plot.destroy();
      plot = null;
      legend?.el.remove();
      return;
    }
    const w = Math.floor(box.clientWidth);
    if (w <= 0) return;
    if (!plot)
      setTimeout(() => {
        if (!plot && box.clientWidth > 0) make(Math.floor(box.clientWidth));
      }, 0); // own task, not inside a frame
    else if (Math.abs(plot.width - w) > 2) plot.setSize({ width: w, height: opts.height ?? 180 });
  });
  ro.observe(box);
  return box;
}

export interface BarPart {
  label: string;
  value: number;
  color: string;
  title?: string;
}

// One stacked bar: parts as fractions of their sum (or of `total` when given).
export function stackedBar(parts: BarPart[], total?: number): HTMLElement {
  const sum = total ?? parts.reduce((a, p) => a + Math.max(0, p.value), 0);
  const bar = h('div', { class: 'stack' });
  for (const p of parts) {
    if (!(p.value > 0) || !(sum > 0)) continue;
    const seg = h('div', { class: 'stack-seg', title: p.title ?? p.label });
    seg.style.width = `${(100 * p.value) / sum}%`;
    seg.style.background = `var(${p.color})`;
    bar.append(seg);
  }
  return bar;
}

export function legend(parts: Array<{ label: string; color: string }>): HTMLElement {
  return h(
    'div',
    { class: 'legend' },
    ...parts.map((p) => {
      const sw = h('span', { class: 'swatch' });
      sw.style.background = `var(${p.color})`;
      return h('span', { class: 'legend-item' }, sw, p.label);
    })
  );
}
