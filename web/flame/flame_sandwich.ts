// A function's sandwich: its callers above it (drawn upwards from the function), its callees below
// (drawn downwards), each merged over every place it is called from (merge.ts). Clicking a frame
// makes its function the sandwich's.
import { h } from '../timeline/element';
import type { CallTree } from './call_tree';
import type { Order } from './layout';
import { sandwich } from './merge';
import { FlamePane } from './flame_pane';
import type { Measure } from './tree_shape';

export class FlameSandwich {
  readonly el = h('div', { class: 'flame-sandwich', 'data-testid': 'flame-sandwich' });
  private readonly title = h('span', { class: 'flame-sandwich-title', 'data-testid': 'flame-sandwich-title' });
  readonly callers = new FlamePane('Callers of the function: drag to pan, wheel to zoom', true);
  readonly callees = new FlamePane('Callees of the function: drag to pan, wheel to zoom');
  trees: { callers: CallTree; callees: CallTree } | null = null;
  name = -1;

  constructor(onClose: () => void, onPick: (tree: CallTree, node: number) => void) {
    const close = h('button', { 'data-testid': 'flame-sandwich-close' }, 'Back to the flame graph');
    close.addEventListener('click', onClose);
    this.callers.el.classList.add('flame-half');
    this.callees.el.classList.add('flame-half');
    this.callers.onPick = (n) => this.trees && onPick(this.trees.callers, n);
    this.callees.onPick = (n) => this.trees && onPick(this.trees.callees, n);
    this.el.append(h('div', { class: 'flame-sandwich-head' }, 'Sandwich of '), this.callers.el, this.callees.el);
    this.el.firstElementChild!.append(this.title, close);
    this.el.hidden = true;
  }

  // The sandwich of name `name` of the top-down tree `t`.
  show(t: CallTree, name: number, measure: Measure, order: Order): void {
    if (this.name !== name || !this.trees || this.trees.callers.names !== t.names) this.trees = sandwich(t, name);
    this.name = name;
    this.title.textContent = t.names[name];
    this.callers.set({ tree: this.trees.callers, measure, order, focus: 0 });
    this.callees.set({ tree: this.trees.callees, measure, order, focus: 0 });
    this.el.hidden = false;
  }

  hide(): void {
    this.el.hidden = true;
    this.name = -1;
  }

  setMatch(match: Uint8Array | null): void {
    for (const p of [this.callers, this.callees]) {
      p.match = match;
      p.invalidate();
    }
  }
}
