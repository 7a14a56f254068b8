// Temporal breakdown: where each rank's (and each step's) time went, as stacked bars with exact
// numbers on hover. Reads `temporal` (and per-step variants when the summary has them).
import { h } from '../dom';
import { fmtDuration, fmtPct, labelOf } from '../format';
import { legend, stackedBar, type BarPart } from './charts';
import type { Links } from './links';
import { rangeLink } from './links';

const kColors: Record<string, string> = {
  compute_ns: '--c-compute', computation: '--c-compute',
  exposed_communication_ns: '--c-comm', communication: '--c-comm', non_compute_ns: '--c-comm',
  exposed_memory_ns: '--c-mem', memory: '--c-mem',
  other_ns: '--c-other', other: '--c-other',
  idle_ns: '--c-idle',
};

// The parts that add up to the span: the exposed view when present, else compute / non-compute / idle.
function partsOf(t: any): BarPart[] | null {
  if (!t || typeof t !== 'object') return null;
  const exposed = ['compute_ns', 'exposed_communication_ns', 'exposed_memory_ns', 'other_ns', 'idle_ns'];
  const basic = ['compute_ns', 'non_compute_ns', 'idle_ns'];
  const keys = exposed.filter((k) => k !== 'compute_ns' && k !== 'idle_ns').some((k) => typeof t[k] === 'number') ? exposed : basic;
  if (!keys.some((k) => typeof t[k] === 'number')) return null;
  const span = typeof t.span_ns === 'number' ? t.span_ns : 0;
  return keys.filter((k) => typeof t[k] === 'number').map((k) => ({
    label: labelOf(k), value: t[k], color: kColors[k] ?? '--c-other',
    title: `${labelOf(k)}: ${fmtDuration(t[k])}${span > 0 ? ` (${fmtPct((100 * t[k]) / span)})` : ''}`,
  }));
}

function row(label: Node | string, parts: BarPart[], total: number | undefined, right: string): HTMLElement {
  return h('div', { class: 'bd-row' }, h('div', { class: 'bd-label' }, label), stackedBar(parts, total), h('div', { class: 'bd-right' }, right));
}

export function breakdownPanel(all: any[], f: any, links: Links): HTMLElement | null {
  const rows: HTMLElement[] = [];
  let legendParts: BarPart[] = [];
  for (const s of all) {
    const parts = partsOf(s?.temporal);
    if (!parts) continue;
    legendParts = parts;
    const label = s.rank !== null && s.rank !== undefined ? `rank ${s.rank}` : s.name;
    rows.push(row(s === f ? h('strong', null, label) : label, parts, s.temporal.span_ns, fmtDuration(s.temporal.span_ns ?? 0)));
  }
  const stepRows = Array.isArray(f?.temporal?.steps) ? f.temporal.steps : Array.isArray(f?.steps) ? f.steps.filter((s: any) => s?.temporal) : [];
  for (const st of stepRows) {
    const t = st.temporal ?? st;
    const parts = partsOf(t);
    if (!parts) continue;
    const b = st.begin_ns, e = st.end_ns;
    const label = `step ${st.number ?? st.step ?? ''}`;
    rows.push(row(typeof b === 'number' && typeof e === 'number' ? rangeLink(links, b, e, label) : label, parts, t.span_ns, fmtDuration(t.span_ns ?? (e - b))));
  }
  const kc = f?.kernel_classes_ns;
  let classes: HTMLElement | null = null;
  if (kc && typeof kc === 'object') {
    const parts: BarPart[] = Object.entries(kc).filter(([, v]) => typeof v === 'number').map(([k, v]) => ({
      label: labelOf(k), value: v as number, color: kColors[k] ?? '--c-other', title: `${labelOf(k)}: ${fmtDuration(v as number)}`,
    }));
    if (parts.length) {
      classes = h('div', { class: 'subsection' }, h('h4', null, 'GPU kernel time by class'), row('all streams', parts, undefined,
        fmtDuration(parts.reduce((a, p) => a + p.value, 0))), legend(parts));
    }
  }
  if (!rows.length && !classes) return null;
  return h('section', { class: 'panel', 'data-section': 'temporal' }, h('h2', null, 'Time breakdown'),
    rows.length ? h('div', { class: 'bd' }, ...rows) : null, rows.length ? legend(legendParts) : null, classes);
}
