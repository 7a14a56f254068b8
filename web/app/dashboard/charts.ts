// Charts: uPlot line/area charts (columnar data, fast canvas) sized to their container, and
// stacked horizontal bars (plain elements) for breakdowns.
import uPlot from 'uplot';
import { h } from '../dom';

export interface LineOptions {
  height?: number;
  xLabel?: (x: number) => string;      // tick/legend text for x values
  yLabel?: (y: number) => string;
  fill?: boolean;
  yRange?: [number, number | null];  // fixed minimum (and maximum, or null = data max)
  onSelect?: (x0: number, x1: number) => void;  // drag-select a range on the chart
}

const kPalette = ['--c1', '--c2', '--c3', '--c4', '--c5', '--c6'];

function cssVar(name: string, fallback: string): string {
  const v = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return v || fallback;
}

export function lineChart(data: number[][], labels: string[], opts: LineOptions = {}): HTMLElement {
  const box = h('div', { class: 'chart' });
  let plot: uPlot | null = null;
  const make = (width: number) => {
    const axis = { stroke: cssVar('--muted', '#888'), grid: { stroke: cssVar('--grid', '#8883'), width: 1 }, ticks: { stroke: cssVar('--grid', '#8883') } };
    const series: uPlot.Series[] = [{ value: (_u, v) => (v == null ? '–' : opts.xLabel ? opts.xLabel(v) : String(v)) }];
    labels.forEach((label, i) => {
      const color = cssVar(kPalette[i % kPalette.length], '#4a8');
      series.push({ label, stroke: color, width: 1.5, fill: opts.fill ? `${color}33` : undefined,
        value: (_u, v) => (v == null ? '–' : opts.yLabel ? opts.yLabel(v) : String(v)), points: { show: false } });
    });
    const o: uPlot.Options = {
      width, height: opts.height ?? 180, series,
      scales: { x: { time: false }, ...(opts.yRange ? { y: { range: (_u: uPlot, _min: number, max: number) => [opts.yRange![0], opts.yRange![1] ?? (max > 0 ? max * 1.05 : 1)] as uPlot.Range.MinMax } } : {}) },
      axes: [
        { ...axis, values: (_u, vals) => vals.map((v) => (opts.xLabel ? opts.xLabel(v) : String(v))) },
        { ...axis, size: 72, values: (_u, vals) => vals.map((v) => (opts.yLabel ? opts.yLabel(v) : String(v))) },
      ],
      legend: { show: labels.length > 1 || !!opts.xLabel },
      cursor: { drag: { x: !!opts.onSelect, y: false, setScale: false } },
      hooks: opts.onSelect ? {
        setSelect: [(u) => {
          if (u.select.width < 2) return;
          const x0 = u.posToVal(u.select.left, 'x'), x1 = u.posToVal(u.select.left + u.select.width, 'x');
          u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
          opts.onSelect!(x0, x1);
        }],
      } : {},
    };
    plot = new uPlot(o, data as uPlot.AlignedData, box);
  };
  const ro = new ResizeObserver(() => {
    const w = Math.floor(box.clientWidth);
    if (w <= 0) return;
    if (!plot) setTimeout(() => { if (!plot && box.clientWidth > 0) make(Math.floor(box.clientWidth)); }, 0);  // own task, not inside a frame
    else if (Math.abs(plot.width - w) > 2) plot.setSize({ width: w, height: opts.height ?? 180 });
  });
  ro.observe(box);
  return box;
}

export interface BarPart { label: string; value: number; color: string; title?: string }

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
  return h('div', { class: 'legend' }, ...parts.map((p) => {
    const sw = h('span', { class: 'swatch' });
    sw.style.background = `var(${p.color})`;
    return h('span', { class: 'legend-item' }, sw, p.label);
  }));
}
