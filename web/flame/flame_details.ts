// The line under the flame graph about the selected (last clicked) frame: its name and numbers, and
// what can be done with it: its function's sandwich, its slices highlighted on its thread in the
// timeline. The name comes from the trace: textContent only.
import { h } from '../timeline/element';
import type { CallTree } from './call_tree';
import { frameFacts } from './tip';
import type { Measure } from './tree_shape';

export class FlameDetails {
  readonly el = h('div', { class: 'flame-details', 'data-testid': 'flame-details' });
  private readonly name = h('div', { class: 'flame-details-name', 'data-testid': 'flame-details-name' });
  private readonly facts = h('div', { class: 'flame-details-facts' });
  readonly sandwich = h('button', { 'data-testid': 'flame-sandwich-open' }, 'Sandwich');
  readonly timeline = h(
    'button',
    { 'data-testid': 'flame-show-timeline', title: "Highlight this frame's slices on its thread in the timeline" },
    'Show in timeline'
  );

  constructor() {
    this.el.append(this.name, this.facts, h('div', { class: 'flame-details-actions' }));
    this.el.lastElementChild!.append(this.sandwich, this.timeline);
    this.el.hidden = true;
  }

  show(t: CallTree, node: number, root: number, measure: Measure, canShow: boolean): void {
    this.name.textContent = t.names[t.name[node]];
    this.facts.textContent = frameFacts(t, node, root, measure).join(' · ');
    this.timeline.disabled = !canShow || t.track[node] < 0;
    this.timeline.title = this.timeline.disabled
      ? 'This frame stands for several threads (or none): pick one thread to find its slices'
      : "Highlight this frame's slices on its thread in the timeline";
    this.el.hidden = false;
  }

  hide(): void {
    this.el.hidden = true;
  }
}
