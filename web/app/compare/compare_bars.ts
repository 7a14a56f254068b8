// Breakdown bars side by side: per metric a baseline bar over a candidate bar on the group's one
// scale (the shares of the step on 0–100 %, the kernel classes' time per step on the largest value).
import { h } from '../dom';
import type { BarPair } from './diff_model';

function bar(side: 'base' | 'cand', value: number, max: number, text: string): HTMLElement {
  const pct = max > 0 ? Math.max(0, Math.min(100, (value / max) * 100)) : 0;
  const fill = h('span', { class: `cmp-bar ${side}`, 'data-raw': String(value) });
  fill.style.width = `${pct.toFixed(2)}%`; // CSSOM, not a style attribute: the page's policy admits no inline style
  return h(
    'div',
    { class: `cmp-bar-row ${side}` },
    h('span', { class: 'cmp-bar-side' }, side === 'base' ? 'base' : 'cand'),
    h('span', { class: 'cmp-bar-track' }, fill),
    h('span', { class: 'cmp-bar-value' }, text)
  );
}

export function barGroup(title: string, pairs: BarPair[]): HTMLElement | null {
  if (!pairs.length) return null;
  return h(
    'div',
    { class: 'cmp-bars' },
    h('h3', null, title),
    ...pairs.map((p) =>
      h(
        'div',
        { class: 'cmp-bar-pair', 'data-metric': p.id },
        h('div', { class: 'cmp-bar-label' }, p.label),
        bar('base', p.base, p.max, p.baseText),
        bar('cand', p.cand, p.max, p.candText)
      )
    )
  );
}
