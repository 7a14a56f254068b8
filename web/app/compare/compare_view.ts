// The Compare tab: the diff of a baseline and a candidate (./diff_document.ts, computed by the core:
// ./compare_diff.ts). Its headline sentence and the gate-free verdicts, the headline deltas with
// their verdicts and confidence, the breakdown bars side by side, the kernels and operators that
// changed most, and both sides' step-time distributions overlaid. Built from the view model
// (./diff_model.ts); every text from a trace goes in as text.
import './compare.css';
import { clear, h } from '../dom';
import { fmtDuration } from '../format';
import type { DiffState } from './compare_diff';
import type { DiffDocument } from './diff_document';
import {
  breakdownBars,
  headlineRows,
  sideText,
  stepHistogram,
  tableCounts,
  changeLists,
  verdictCounts,
} from './diff_model';
import { changesTable, headlineTable, streamsTable } from './compare_tables';
import { barGroup } from './compare_bars';
import { stepChart } from './step_chart';
import { appendParts, type ViewPart } from '../view_parts';

export interface CompareViewInput {
  state: DiffState;
  base: string[]; // the files of each side, by name
  cand: string[];
}

const kTopRows = 20;

function head(input: CompareViewInput): HTMLElement {
  const list = (names: string[]) => names.join(', ') || '—';
  return h(
    'div',
    { class: 'cmp-head' },
    h('h1', null, 'Compare'),
    h(
      'div',
      { class: 'cmp-sides' },
      h('span', { class: 'cmp-side base', 'data-side': 'base' }, h('b', null, 'Baseline: '), list(input.base)),
      h('span', { class: 'cmp-side cand', 'data-side': 'cand' }, h('b', null, 'Candidate: '), list(input.cand))
    )
  );
}

function status(state: DiffState): HTMLElement | null {
  const p = (cls: string, text: string) => h('p', { class: cls, 'data-section': 'compare-status' }, text);
  switch (state.kind) {
    case 'none':
    case 'waiting':
      return p('panel muted', 'Waiting for both sides to load…');
    case 'computing':
      return p('panel muted', 'Comparing the two runs…');
    case 'failed':
      return p('msg error', `The comparison could not be made: ${state.message}`);
    case 'ready':
      return null;
  }
}

const panel = (id: string, title: string, ...children: Array<Node | null>) =>
  h('section', { class: 'panel', 'data-section': id }, h('h2', null, title), ...children);

function verdict(doc: DiffDocument): HTMLElement {
  const regression = doc.verdict?.regression === true;
  return h(
    'section',
    { class: `panel cmp-verdict-panel${regression ? ' tone-bad' : ''}`, 'data-section': 'compare-verdict' },
    h('p', { class: 'cmp-sentence' }, String(doc.verdict?.sentence ?? '')),
    h('p', { class: 'cmp-counts muted' }, verdictCounts(doc)),
    h('p', { class: 'cmp-side-facts muted' }, `Baseline: ${sideText(doc.base)}. Candidate: ${sideText(doc.cand)}.`)
  );
}

function breakdown(doc: DiffDocument): HTMLElement | null {
  const bars = breakdownBars(doc);
  const shares = barGroup('Share of the step', bars.shares);
  const classes = barGroup(doc.base?.per_step ? 'Time per step' : 'Time', bars.classes);
  if (!shares && !classes) return null;
  return panel('compare-breakdown', 'Breakdown, side by side', h('div', { class: 'cmp-bar-groups' }, shares, classes));
}

function changes(doc: DiffDocument, kind: 'kernels' | 'operators'): HTMLElement {
  const table = doc[kind];
  const { top, more } = changeLists(table, kTopRows);
  const noun = kind === 'kernels' ? 'kernel' : 'operator';
  const per = doc.base?.per_step ? ' per step' : '';
  const count = (status: string) => more.filter((r) => r.status === status).length;
  return panel(
    `compare-${kind}`,
    `${kind === 'kernels' ? 'Kernels' : 'Operators'} that changed most (Δ total${per})`,
    h('p', { class: 'muted' }, tableCounts(table, noun)),
    top.length ? changesTable(kind, top) : null,
    more.length
      ? h(
          'details',
          { class: 'cmp-more' },
          h('summary', null, `${count('added')} more added and ${count('removed')} more removed ${noun}s`),
          changesTable(`${kind}-more`, more)
        )
      : null
  );
}

function steps(doc: DiffDocument): HTMLElement {
  const hist = stepHistogram(doc.step_samples?.base, doc.step_samples?.cand);
  const n = (v: unknown) => (Array.isArray(v) ? v.length : 0);
  return panel(
    'compare-steps',
    'Step times',
    hist
      ? h(
          'div',
          { class: 'cmp-chart-box' },
          stepChart(hist),
          h(
            'div',
            { class: 'cmp-legend' },
            h('span', { class: 'cmp-key base' }, `baseline (${n(doc.step_samples?.base)} steps)`),
            h('span', { class: 'cmp-key cand' }, `candidate (${n(doc.step_samples?.cand)} steps)`),
            h('span', { class: 'muted' }, 'dashed: medians')
          )
        )
      : h('p', { class: 'muted' }, 'No profiler steps on a side: no step-time distribution.')
  );
}

function notes(doc: DiffDocument): HTMLElement | null {
  const list = Array.isArray(doc.notes) ? doc.notes : [];
  if (!list.length) return null;
  return panel('compare-notes', 'Notes', h('ul', null, ...list.map((n) => h('li', null, String(n)))));
}

export function renderCompareView(root: HTMLElement, input: CompareViewInput): void {
  clear(root);
  root.append(head(input));
  const s = status(input.state);
  if (s) root.append(s);
  if (input.state.kind !== 'ready') return;
  const doc = input.state.doc;
  const parts: ViewPart[] = [
    () => verdict(doc),
    () => panel('compare-metrics', 'Headline deltas', headlineTable(headlineRows(doc))),
    () => breakdown(doc),
    () => changes(doc, 'kernels'),
    () => changes(doc, 'operators'),
    () => steps(doc),
    () =>
      Array.isArray(doc.streams) && doc.streams.length
        ? panel('compare-streams', 'GPU streams', streamsTable(doc.streams, fmtDuration))
        : null,
    () => notes(doc),
  ];
  appendParts(root, parts, 'comparison');
}
