// The step-time distributions of both sides overlaid: one histogram per side on shared bins
// (./diff_model.ts stepHistogram), the baseline's and the candidate's bars drawn over each other
// half transparent, each side's median a dashed line. SVG built with DOM APIs (no markup strings).
import { fmtDuration } from '../format';
import type { Histogram } from './diff_model';

const kNs = 'http://www.w3.org/2000/svg';
const W = 560;
const H = 180;
const PAD = { left: 34, right: 10, top: 10, bottom: 28 };

function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number>
): SVGElementTagNameMap[K] {
  const el = document.createElementNS(kNs, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

function text(x: number, y: number, s: string, anchor: 'start' | 'middle' | 'end'): SVGTextElement {
  const t = svg('text', { x, y, 'text-anchor': anchor, class: 'cmp-chart-text' });
  t.textContent = s;
  return t;
}

export function stepChart(hist: Histogram): SVGSVGElement {
  const root = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'cmp-chart', role: 'img', 'data-chart': 'step-times' });
  root.setAttribute('aria-label', 'Step time distributions: baseline and candidate');
  const bins = hist.base.length;
  const lo = hist.edges[0];
  const hi = hist.edges[bins];
  const top = Math.max(1, ...hist.base, ...hist.cand);
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const x = (ns: number) => PAD.left + ((ns - lo) / (hi - lo)) * plotW;
  const y = (n: number) => PAD.top + plotH - (n / top) * plotH;
  root.append(svg('line', { x1: PAD.left, y1: y(0), x2: W - PAD.right, y2: y(0), class: 'cmp-chart-axis' }));
  for (const side of ['base', 'cand'] as const) {
    const g = svg('g', { class: `cmp-chart-side ${side}`, 'data-side': side });
    hist[side].forEach((n, i) => {
      if (!n) return;
      const x0 = x(hist.edges[i]);
      const x1 = x(hist.edges[i + 1]);
      const r = svg('rect', { x: x0 + 0.5, y: y(n), width: Math.max(1, x1 - x0 - 1), height: y(0) - y(n) });
      r.append(
        Object.assign(document.createElementNS(kNs, 'title'), { textContent: `${n} step${n === 1 ? '' : 's'}` })
      );
      g.append(r);
    });
    const m = side === 'base' ? hist.baseMedian : hist.candMedian;
    if (m !== null)
      g.append(svg('line', { x1: x(m), x2: x(m), y1: PAD.top, y2: y(0), class: 'cmp-chart-median', 'data-median': m }));
    root.append(g);
  }
  root.append(
    text(PAD.left, H - 8, fmtDuration(lo), 'start'),
    text(W - PAD.right, H - 8, fmtDuration(hi), 'end'),
    text(PAD.left - 4, PAD.top + 8, String(top), 'end'),
    text(PAD.left - 4, y(0), '0', 'end')
  );
  return root;
}
