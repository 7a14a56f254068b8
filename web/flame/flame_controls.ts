// The flame graph's toolbar: which roots (every thread side by side, threads merged, one thread),
// the measure (CPU time or attributed GPU time), the order (icicle, left-heavy), the direction
// (top-down, bottom-up), the search box and its count, and the reset of the zoom. Thread labels come
// from the trace: option text only.
import { h } from '../timeline/element';
import { formatDuration } from '../timeline/time_format';
import type { Order } from './layout';
import type { Measure } from './tree_shape';

export type Roots = 'threads' | 'merged' | number; // number: that thread root's node

function select(label: string, testId: string, options: Array<[string, string]>): HTMLSelectElement {
  const s = h('select', { 'aria-label': label, 'data-testid': testId });
  for (const [v, t] of options) s.append(h('option', { value: v }, t));
  return s;
}

export class FlameControls {
  readonly roots = select('Threads shown', 'flame-roots', []);
  readonly measure = select('Measure', 'flame-measure', [
    ['cpu', 'CPU time'],
    ['gpu', 'GPU time (attributed)'],
  ]);
  readonly order = select('Layout', 'flame-order', [
    ['icicle', 'Icicle'],
    ['left-heavy', 'Left-heavy'],
  ]);
  readonly direction = select('Direction', 'flame-direction', [
    ['top_down', 'Top-down'],
    ['bottom_up', 'Bottom-up (callers)'],
  ]);
  readonly search = h('input', {
    type: 'search',
    placeholder: 'Search frames',
    'aria-label': 'Search frames by name',
    'data-testid': 'flame-search',
  });
  readonly count = h('span', { class: 'flame-count', 'data-testid': 'flame-search-count' });
  readonly reset = h('button', { 'data-testid': 'flame-reset', title: 'Show the whole graph again' }, 'Reset zoom');
  readonly el = h('div', { class: 'flame-bar' });

  constructor(onChange: () => void, onSearch: () => void, onReset: () => void) {
    this.el.append(this.roots, this.measure, this.order, this.direction, this.search, this.count, this.reset);
    for (const s of [this.roots, this.measure, this.order, this.direction]) s.addEventListener('change', onChange);
    this.search.addEventListener('input', onSearch);
    this.search.addEventListener('keydown', (e) => e.stopPropagation());
    this.reset.addEventListener('click', onReset);
  }

  // The thread roots of the tree shown (node, label, value).
  // A thread picked before stays picked when the new tree has it (by its label: node numbers change).
  setThreads(threads: Array<{ node: number; label: string; value: number }>, bottomUp: boolean): void {
    const was = this.roots.selectedOptions[0];
    const key = was?.dataset.label ?? was?.value ?? 'threads';
    this.roots.replaceChildren(
      h('option', { value: 'threads' }, bottomUp ? 'All functions' : 'All threads'),
      ...(bottomUp ? [] : [h('option', { value: 'merged' }, 'All threads merged')]),
      ...threads.map((t) => {
        const o = h('option', { value: String(t.node) }, `${t.label} (${formatDuration(t.value)})`);
        o.dataset.label = t.label;
        return o;
      })
    );
    const again = [...this.roots.options].find((o) => (o.dataset.label ?? o.value) === key);
    this.roots.value = again?.value ?? 'threads';
  }

  get rootsChoice(): Roots {
    const v = this.roots.value;
    return v === 'merged' ? 'merged' : /^\d+$/.test(v) ? Number(v) : 'threads';
  }
  get measureChoice(): Measure {
    return this.measure.value === 'gpu' ? 'gpu' : 'cpu';
  }
  get orderChoice(): Order {
    return this.order.value === 'left-heavy' ? 'left-heavy' : 'icicle';
  }
  get bottomUp(): boolean {
    return this.direction.value === 'bottom_up';
  }
}
