// The rank × collective heatmap: rows are the ranks, columns the collective instances with the
// largest arrival skew (job.collectives.worst, in time order), each cell the rank's wait in that
// collective for the last rank to arrive (heat_scale.ts), the last arrival marked. Hover tells the
// collective; a click opens it on every rank in the aligned timeline (job_links.ts). DOM cells rather than a
// canvas: at most 64 columns, and each cell carries its numbers for tests and screen readers.
import { h } from '../dom';
import { fmtBytes, fmtDuration } from '../format';
import type { JobSummary } from '../summary_document';
import { heatGradient, heatColor, heatInk, heatLevel } from './heat_scale';
import type { JobLinks } from './job_links';
import { groupName } from './job_words';

type Worst = NonNullable<JobSummary['collectives']>['worst'][number];

// Consecutive columns of one step share a header cell.
function stepHeads(worst: Worst[]): HTMLElement[] {
  const out: HTMLElement[] = [];
  for (let i = 0; i < worst.length;) {
    let j = i + 1;
    while (j < worst.length && worst[j].step === worst[i].step) j++;
    const text = worst[i].step === null ? 'no step' : `step ${worst[i].step}`;
    const cell = h(
      'div',
      { class: `hm-step${i > 0 ? ' step-start' : ''}`, title: `${text}: ${j - i} collective${j - i === 1 ? '' : 's'}` },
      text
    );
    cell.style.gridColumn = `span ${j - i}`;
    out.push(cell);
    i = j;
  }
  return out;
}

// The rank that arrived last, when one did: within tie_ns of each other the ranks arrived together
// (the core's `last` then names one of them; its last_arrivals do not count those either).
function lastOf(w: Worst, tieNs: number): string | null {
  return w.skew_ns > tieNs ? w.last : null;
}

function tip(w: Worst, rank: string, wait: number | null, tieNs: number): HTMLElement[] {
  const line = (label: string, value: string) =>
    h('div', { class: 'hm-tip-row' }, h('span', { class: 'muted' }, label), h('span', null, value));
  return [
    h('div', { class: 'hm-tip-title' }, `${w.op} #${w.n}`),
    line('group', groupName(w.group)),
    line('step', w.step === null ? '–' : String(w.step)),
    line(`${rank} waited`, wait === null ? 'did not run it' : fmtDuration(wait)),
    line('arrival skew', fmtDuration(w.skew_ns)),
    line('transfer', fmtDuration(w.transfer_ns)),
    line('size', w.bytes === null ? 'unknown' : fmtBytes(w.bytes)),
    line('last to arrive', lastOf(w, tieNs) ?? `none (all within ${fmtDuration(tieNs)})`),
  ];
}

export function waitHeatmapPanel(job: JobSummary | null, links: JobLinks): HTMLElement | null {
  const worst = job?.collectives?.worst;
  const ranks = job?.ranks;
  if (!job || !Array.isArray(worst) || !Array.isArray(ranks) || !worst.length || !ranks.length) return null;
  const max = Math.max(0, ...worst.flatMap((w) => w.waits_ns.map((x) => x ?? 0)));
  const tieNs = Number(job.straggler_rule?.tie_ns ?? 0);
  const grid = h('div', { class: 'hm', role: 'grid', 'aria-label': 'Wait per rank and collective' });
  grid.style.gridTemplateColumns = `minmax(64px, max-content) repeat(${worst.length}, minmax(8px, 36px)) minmax(72px, max-content)`;
  grid.append(h('div', { class: 'hm-corner' }), ...stepHeads(worst), h('div', { class: 'hm-total hm-head' }, 'Σ wait'));
  ranks.forEach((r, ri) => {
    const late = (job.stragglers ?? []).some((x) => x.label === r.label);
    grid.append(
      h(
        'div',
        { class: 'hm-rank', title: r.file },
        late ? h('span', { class: 'flag', title: 'straggler' }, '⚑') : null,
        r.label
      )
    );
    let sum = 0;
    worst.forEach((w, ci) => {
      const wait = w.waits_ns[ri] ?? null;
      const last = lastOf(w, tieNs) === r.label;
      const cell = h('div', {
        class: `hm-cell${wait === null ? ' absent' : ''}${last ? ' last' : ''}${ci > 0 && w.step !== worst[ci - 1].step ? ' step-start' : ''}`,
        role: 'gridcell',
        'data-rank': String(ri),
        'data-col': String(ci),
        'data-wait': wait === null ? null : String(wait),
        'data-last': last ? 'true' : null,
        'aria-label': `${r.label}, ${w.op} #${w.n}: ${wait === null ? 'not run' : `waited ${fmtDuration(wait)}`}${last ? ', arrived last' : ''}`,
      });
      if (wait !== null) {
        const t = heatLevel(wait, max);
        cell.style.background = heatColor(t);
        if (last) cell.classList.add(`ink-${heatInk(t)}`);
        sum += wait;
      }
      grid.append(cell);
    });
    grid.append(h('div', { class: 'hm-total', 'data-raw': String(sum) }, fmtDuration(sum)));
  });

  // One tooltip for the whole map, filled from the cell under the pointer.
  const tipEl = h('div', { class: 'hm-tip', role: 'tooltip' });
  tipEl.hidden = true;
  const cellOf = (e: Event) => (e.target instanceof HTMLElement ? e.target.closest<HTMLElement>('.hm-cell') : null);
  grid.addEventListener('mousemove', (e) => {
    const cell = cellOf(e);
    if (!cell) {
      tipEl.hidden = true;
      return;
    }
    const ri = Number(cell.dataset.rank),
      ci = Number(cell.dataset.col);
    if (tipEl.dataset.at !== `${ri},${ci}`) {
      tipEl.dataset.at = `${ri},${ci}`;
      tipEl.replaceChildren(...tip(worst[ci], ranks[ri].label, worst[ci].waits_ns[ri] ?? null, tieNs));
    }
    tipEl.hidden = false;
    // Beside the pointer, flipped to its left near the window's right edge.
    const x =
      e.clientX + 14 + tipEl.offsetWidth > window.innerWidth ? e.clientX - 14 - tipEl.offsetWidth : e.clientX + 14;
    tipEl.style.left = `${x}px`;
    tipEl.style.top = `${e.clientY + 14}px`;
  });
  grid.addEventListener('mouseleave', () => {
    tipEl.hidden = true;
  });
  grid.addEventListener('click', (e) => {
    const cell = cellOf(e);
    if (!cell || cell.classList.contains('absent')) return;
    tipEl.hidden = true;
    links.onCollective(Number(cell.dataset.col), Number(cell.dataset.rank));
  });

  const ramp = h('span', { class: 'hm-ramp' });
  ramp.style.background = heatGradient();
  const total = job.collectives?.instances ?? worst.length;
  return h(
    'section',
    { class: 'panel', 'data-section': 'job-heatmap' },
    h('h2', null, 'Waits in collectives, by rank'),
    h(
      'p',
      { class: 'muted small' },
      `The ${worst.length} collective${worst.length === 1 ? '' : 's'} with the largest arrival skew` +
        (total > worst.length ? ` (of ${total})` : '') +
        ', in time order. A cell is how long the rank waited in that collective for the last rank to arrive. ' +
        'Click a cell to see the collective on every rank, in the aligned timeline.'
    ),
    h('div', { class: 'hm-scroll' }, grid),
    h(
      'div',
      { class: 'legend hm-legend' },
      h('span', { class: 'legend-item' }, 'wait 0', ramp, fmtDuration(max)),
      h('span', { class: 'legend-item' }, h('span', { class: 'hm-cell last ink-dark hm-key' }), 'last to arrive'),
      h('span', { class: 'legend-item' }, h('span', { class: 'hm-cell absent hm-key' }), 'not run by this rank')
    ),
    tipEl
  );
}
