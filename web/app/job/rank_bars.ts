// The Job view's bars: one row per rank, its mean step (or GPU span) split by activity on one axis
// shared by all ranks, and beside it, on a second shared axis, its time in collectives split into
// waiting for the last rank and transferring (rank_bars_data.ts computes both).
import { h } from '../dom';
import { durationUnit, fmtDuration, fmtInUnit, fmtPct } from '../format';
import { legend } from '../dashboard/charts';
import { durationAxis, type DurationAxis } from './duration_axis';
import { basisParts, rankBars, type RankBar } from './rank_bars_data';
import type { FileSummary, JobSummary } from '../summary_document';

function axisRow(axis: DurationAxis): HTMLElement {
  const row = h('div', { class: 'jb-axis' });
  for (const t of axis.ticks) {
    const tick = h('span', { class: 'jb-tick' }, fmtInUnit(t, axis.unit));
    tick.style.left = `${(100 * t) / axis.end_ns}%`;
    row.append(tick);
  }
  return row;
}

// A track as wide as the axis, its gridlines at the ticks, and the parts from 0.
function track(axis: DurationAxis, parts: Array<{ ns: number; cls: string; color?: string; title: string }>) {
  const el = h('div', { class: 'jb-track' });
  for (const t of axis.ticks.slice(1, -1)) {
    const line = h('span', { class: 'jb-grid' });
    line.style.left = `${(100 * t) / axis.end_ns}%`;
    el.append(line);
  }
  const bar = h('div', { class: 'jb-bar' });
  for (const p of parts) {
    if (!(p.ns > 0)) continue;
    const seg = h('span', { class: `jb-seg ${p.cls}`, title: p.title });
    seg.style.width = `${(100 * p.ns) / axis.end_ns}%`;
    if (p.color) seg.style.background = `var(${p.color})`;
    bar.append(seg);
  }
  el.append(bar);
  return el;
}

function rankRow(r: RankBar, index: number, axis: DurationAxis, commAxis: DurationAxis | null): HTMLElement {
  const steps = track(
    axis,
    r.segments.map((s) => ({
      ns: s.ns,
      cls: '',
      color: s.color,
      title: `${r.label}, ${s.label}: ${fmtDuration(s.ns)}${r.total_ns > 0 ? ` (${fmtPct((100 * s.ns) / r.total_ns)})` : ''}`,
    }))
  );
  const wait = r.wait_ns ?? 0,
    transfer = r.transfer_ns ?? 0;
  const commUnit = durationUnit(commAxis?.end_ns ?? 0); // the values with the decimals a column has
  const comm = commAxis
    ? track(commAxis, [
        { ns: wait, cls: 'jb-wait', title: `${r.label} waited ${fmtDuration(wait)} for the last rank to arrive` },
        { ns: transfer, cls: 'jb-transfer', title: `${r.label} transferred for ${fmtDuration(transfer)}` },
      ])
    : null;
  return h(
    'div',
    { class: `jb-row${r.straggler ? ' straggler' : ''}`, 'data-rank': String(index), 'data-label': r.label },
    h(
      'div',
      { class: 'jb-label', title: r.label },
      r.straggler ? h('span', { class: 'flag', title: 'straggler' }, '⚑') : null,
      r.label
    ),
    steps,
    h('div', { class: 'jb-value', 'data-raw': String(r.total_ns) }, r.segments.length ? fmtDuration(r.total_ns) : '–'),
    comm,
    commAxis
      ? h(
          'div',
          { class: 'jb-value jb-comm-value', 'data-wait': String(wait), 'data-transfer': String(transfer) },
          r.wait_ns === null ? '–' : `${fmtInUnit(wait, commUnit)} / ${fmtInUnit(transfer, commUnit)}`
        )
      : null
  );
}

export function rankBarsPanel(summaries: Array<FileSummary | undefined>, job: JobSummary | null): HTMLElement | null {
  const data = rankBars(summaries, job);
  if (!data.rows.length) return null;
  const axis = durationAxis(data.max_ns);
  const commAxis = data.rows.some((r) => r.wait_ns !== null) ? durationAxis(data.max_comm_ns, 3) : null;
  const what =
    data.basis === 'step'
      ? 'Mean profiler step'
      : data.basis === 'gpu_span'
        ? 'GPU span (first GPU op to last)'
        : 'No common basis';
  const head = h(
    'div',
    { class: 'jb-row jb-head' },
    h('div', null),
    h('div', { class: 'jb-caption' }, `${what} (${axis.unit.unit})`, axisRow(axis)),
    h('div'),
    commAxis ? h('div', { class: 'jb-caption' }, `In collectives (${commAxis.unit.unit})`, axisRow(commAxis)) : null,
    commAxis ? h('div', { class: 'jb-value muted' }, `wait / transfer (${commAxis.unit.unit})`) : null
  );
  const grid = h(
    'div',
    { class: `jb-grid-rows${commAxis ? ' with-comm' : ''}` },
    head,
    ...data.rows.map((r, i) => rankRow(r, i, axis, commAxis))
  );
  const note =
    data.basis === null
      ? 'Not every rank has profiler steps or GPU work, so their times are not shown side by side.'
      : (data.basis === 'step'
          ? "Each rank's profiler steps, averaged, by what the step's wall time was spent on (TensorBoard's categories)."
          : 'Not every rank has profiler steps: each GPU span, from the first GPU op to the last, as the time breakdown splits it.') +
        (commAxis
          ? ' In collectives: the summed time of the matched collectives the rank ran, waiting for the last rank to arrive (hatched) and transferring after it.'
          : '');
  return h(
    'section',
    { class: 'panel', 'data-section': 'job-bars' },
    h('h2', null, 'Time per rank'),
    h('p', { class: 'muted small' }, note),
    grid,
    legend([
      ...basisParts(data.basis),
      ...(commAxis
        ? [
            { label: 'waiting in collectives', color: '--c-wait' },
            { label: 'transferring', color: '--c-comm' },
          ]
        : []),
    ])
  );
}
