// Temporal breakdown: where each rank's (and each step's) time went, as stacked bars with exact
// numbers on hover. Reads `temporal` (and per-step variants when the summary has them).
import { clear, h } from '../dom';
import { fmtDuration, fmtPct, labelOf } from '../format';
import { legend, stackedBar, type BarPart } from './charts';
import type { Links } from './links';
import { rangeLink } from './links';
import type { FileSummary, Step, StepTemporal, StepTimes, Temporal } from '../summary_document';
import { field } from '../summary_document';

const kColors: Record<string, string> = {
  computation: '--c-compute',
  communication: '--c-comm',
  memory: '--c-mem',
  other: '--c-other',
};

// The parts that add up to the span: the exposed view (compute + exposed communication + exposed
// memory + other + idle = span) when present, else compute / non-compute / idle.
const kExposed: Array<[string, string, string]> = [
  ['computation_ns', 'Compute', '--c-compute'],
  ['communication_ns', 'Exposed communication', '--c-comm'],
  ['memory_ns', 'Exposed memory', '--c-mem'],
  ['other_ns', 'Other', '--c-other'],
  ['idle_ns', 'Idle', '--c-idle'],
];
const kBasic: Array<[string, string, string]> = [
  ['compute_ns', 'Compute', '--c-compute'],
  ['non_compute_ns', 'Non-compute', '--c-comm'],
  ['idle_ns', 'Idle', '--c-idle'],
];

function partsOf(t: Temporal | StepTemporal | null | undefined): BarPart[] | null {
  if (!t || typeof t !== 'object') return null;
  const exposed = t.exposed && typeof t.exposed === 'object';
  const src: Record<string, unknown> = exposed ? t.exposed : t;
  const keys = exposed ? kExposed : kBasic;
  if (!keys.some(([k]) => typeof src[k] === 'number')) return null;
  const span = typeof t.span_ns === 'number' ? t.span_ns : 0;
  return keys.flatMap(([k, label, color]) => {
    const v = src[k];
    return typeof v === 'number'
      ? [
          {
            label,
            value: v,
            color,
            title: `${label}: ${fmtDuration(v)}${span > 0 ? ` (${fmtPct((100 * v) / span)})` : ''}`,
          },
        ]
      : [];
  });
}

// A trace can hold thousands of steps: their bars come kFirstBars at first, then kMoreBars per click on
// "Show more" (as the tables page their rows). One DOM row per step for 12 000 steps made building the
// dashboard a single main-thread task of over a second.
const kFirstBars = 100;
const kMoreBars = 200;

// `head` rows, then the rows `render` makes for `items`, paged: the list and its "Show more" foot.
function pagedBars<T>(head: HTMLElement[], items: T[], render: (item: T) => HTMLElement): HTMLElement[] {
  const list = h('div', { class: 'bd' }, ...head);
  const foot = h('div', { class: 'bd-more' });
  let shown = 0;
  const more = (n: number) => {
    for (const item of items.slice(shown, shown + n)) list.append(render(item));
    shown = Math.min(items.length, shown + n);
    clear(foot);
    const hidden = items.length - shown;
    if (hidden > 0) {
      foot.append(
        h(
          'button',
          { class: 'btn small', onclick: () => more(kMoreBars) },
          `Show more steps (${hidden.toLocaleString('en-US')} hidden)`
        )
      );
    }
  };
  more(kFirstBars);
  return [list, foot];
}

function row(label: Node | string, parts: BarPart[], total: number | undefined, right: string): HTMLElement {
  return h(
    'div',
    { class: 'bd-row' },
    h('div', { class: 'bd-label' }, label),
    stackedBar(parts, total),
    h('div', { class: 'bd-right' }, right)
  );
}

export function breakdownPanel(all: FileSummary[], f: FileSummary, links: Links): HTMLElement | null {
  const rows: HTMLElement[] = [];
  let legendParts: BarPart[] = [];
  for (const s of all) {
    const t = s?.temporal;
    const parts = partsOf(t);
    if (!parts || !t) continue;
    legendParts = parts;
    const label = s.rank !== null && s.rank !== undefined ? `rank ${s.rank}` : s.name;
    rows.push(row(s === f ? h('strong', null, label) : label, parts, t.span_ns, fmtDuration(t.span_ns ?? 0)));
  }
  type TimedStep = Step & { temporal: StepTemporal };
  const timed = (s: Step): s is TimedStep => !!(s?.temporal && partsOf(s.temporal));
  const stepRows = Array.isArray(f?.steps) ? f.steps.filter(timed) : [];
  const stepRow = (st: TimedStep) => {
    const t = st.temporal;
    const b = st.begin_ns,
      e = st.end_ns;
    const label = `step ${st.number ?? field(st, 'step') ?? ''}`; // step: not the core's key
    return row(
      typeof b === 'number' && typeof e === 'number' ? rangeLink(links, b, e, label) : label,
      partsOf(t)!,
      t.span_ns,
      fmtDuration(t.span_ns ?? e - b)
    );
  };
  if (!legendParts.length && stepRows.length) legendParts = partsOf(stepRows[0].temporal)!;
  const kc = f?.kernel_classes_ns;
  let classes: HTMLElement | null = null;
  if (kc && typeof kc === 'object') {
    const parts: BarPart[] = Object.entries(kc)
      .filter(([, v]) => typeof v === 'number')
      .map(([k, v]) => ({
        label: labelOf(k),
        value: v as number,
        color: kColors[k] ?? '--c-other',
        title: `${labelOf(k)}: ${fmtDuration(v as number)}`,
      }));
    if (parts.length) {
      classes = h(
        'div',
        { class: 'subsection' },
        h('h4', null, 'GPU op time by class (union per class)'),
        row('all streams', parts, undefined, `Σ ${fmtDuration(parts.reduce((a, p) => a + p.value, 0))}`),
        legend(parts),
        h('p', { class: 'muted small', 'data-note': 'class-union' }, classTotalsNote(f))
      );
    }
  }
  const tb = stepCategories(f, links);
  const bars = rows.length > 0 || stepRows.length > 0;
  if (!bars && !classes && !tb) return null;
  return h(
    'section',
    { class: 'panel', 'data-section': 'temporal' },
    h('h2', null, 'Time breakdown'),
    bars
      ? h(
          'p',
          { class: 'muted small' },
          'GPU time from the first GPU op to the last: compute, then communication and memory copies not hidden under compute, then idle.'
        )
      : null,
    ...(bars ? pagedBars(rows, stepRows, stepRow) : []),
    bars ? legend(legendParts) : null,
    classes,
    tb
  );
}

// TensorBoard plugin step categories (Kernel > Memcpy > Memset > Communication > Runtime >
// DataLoader > CPU Exec > Other): what each step's wall time was spent on.
const kStepColors: Record<string, string> = {
  kernel: '--c-compute',
  memcpy: '--c-mem',
  memset: '--c4',
  communication: '--c-comm',
  runtime: '--c5',
  dataloader: '--c6',
  data_loader: '--c6',
  cpu_exec: '--c3',
  other: '--c-idle',
};

function stepCategories(f: FileSummary, links: Links): HTMLElement | null {
  const sb = f?.step_breakdown;
  if (!sb || typeof sb !== 'object' || !Array.isArray(sb.steps) || sb.steps.length === 0) return null;
  const keys = Object.keys(sb.categories_ns ?? sb.steps[0]?.categories_ns ?? {});
  if (!keys.length) return null;
  const partsOfStep = (c: Record<string, number> | undefined, total: number): BarPart[] =>
    keys.map((k) => ({
      label: labelOf(k),
      value: Number(c?.[k] ?? 0),
      color: kStepColors[k] ?? '--c-other',
      title: `${labelOf(k)}: ${fmtDuration(Number(c?.[k] ?? 0))}${total > 0 ? ` (${fmtPct((100 * Number(c?.[k] ?? 0)) / total)})` : ''}`,
    }));
  const stepRow = (st: StepTimes) =>
    row(
      typeof st.begin_ns === 'number' && typeof st.end_ns === 'number'
        ? rangeLink(links, st.begin_ns, st.end_ns, `step ${st.number}`)
        : `step ${st.number}`,
      partsOfStep(st.categories_ns, st.duration_ns ?? 0),
      st.duration_ns,
      fmtDuration(st.duration_ns ?? 0)
    );
  const head =
    typeof sb.total_ns === 'number' && sb.categories_ns
      ? [
          row(
            h('strong', null, 'all steps'),
            partsOfStep(sb.categories_ns, sb.total_ns),
            sb.total_ns,
            fmtDuration(sb.total_ns)
          ),
        ]
      : [];
  return h(
    'div',
    { class: 'subsection' },
    h('h4', null, 'Step time by activity (TensorBoard categories)'),
    ...pagedBars(head, sb.steps, stepRow),
    legend(keys.map((k) => ({ label: labelOf(k), color: kStepColors[k] ?? '--c-other' })))
  );
}

// Two totals of GPU op time appear on the page and differ on purpose: a class's time here is a
// union (ops of the class that overlap count once), the Kernels table's total a sum of durations.
function classTotalsNote(f: FileSummary): string {
  const busy = f?.temporal?.busy_ns;
  const sum = f?.kernels?.total_ns;
  return (
    'Each class is the time at least one of its ops runs (a union: overlapping ops of a class count once). ' +
    'Classes overlap one another (communication under computation), so the classes add up to more than the GPU busy time' +
    (typeof busy === 'number' ? ` (${fmtDuration(busy)}, the union of all ops)` : '') +
    '. The Kernels table sums durations instead' +
    (typeof sum === 'number' ? ` (${fmtDuration(sum)})` : '') +
    ': ops that run at the same time count each.'
  );
}
