// One profiler step's detail sections (steps[i].sections in the summary): idle time per stream by
// cause, the step's top kernels, its launch delays / short ops / host syncs, its collectives, memory
// peak and CPU operators. A step selector picks the step; every number is the summary's own value, shown
// through the shared formatters (and kept in data-raw so tests can compare it with the CLI's JSON).
import { h, clear } from '../dom';
import { fmtCount, fmtDuration, fmtField, type FieldKind, kNoOperator } from '../format';
import type { Links } from './links';
import { DataTable, type Column } from './table';
import type { Collectives, Idle, IdleCause, Kernels, Launches, Memory, Operators, Step } from '../summary_document';
import { kIdleGapColumns } from './idle';
import { deviceLabel, memoryPeaks, memoryPeakText } from './memory_words';

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

// A labelled number; `path` (inside the step's details) names the summary value it shows.
function fact(label: string, kind: FieldKind, v: unknown, path: string): HTMLElement {
  return h(
    'span',
    { class: 'fact', 'data-key': path, 'data-raw': num(v) === null ? null : String(v) },
    h('span', { class: 'muted' }, `${label} `),
    num(v) === null ? '–' : fmtField(kind, v)
  );
}

function idleBlock(idle: Idle, links: Links): Node[] {
  const streams = Array.isArray(idle?.streams) ? idle.streams : [];
  const rows = streams.map((s) => ({
    stream: `GPU ${s?.device} stream ${s?.stream}`,
    ops: s?.ops,
    idle_ns: s?.idle_ns,
    host_wait_ns: s?.categories?.host_wait?.ns,
    kernel_wait_ns: s?.categories?.kernel_wait?.ns,
    other_ns: s?.categories?.other?.ns,
    gaps: (['host_wait', 'kernel_wait', 'other'] satisfies IdleCause[]).reduce(
      (n, c) => n + (num(s?.categories?.[c]?.count) ?? 0),
      0
    ),
  }));
  const cols: Column[] = [
    { key: 'stream', label: 'Stream', kind: 'text' },
    { key: 'ops', label: 'Ops', kind: 'count' },
    { key: 'idle_ns', label: 'Idle', kind: 'ns' },
    { key: 'host_wait_ns', label: 'Host wait', kind: 'ns' },
    { key: 'kernel_wait_ns', label: 'Kernel wait', kind: 'ns' },
    { key: 'other_ns', label: 'Other', kind: 'ns' },
    { key: 'gaps', label: 'Gaps', kind: 'count' },
  ];
  const gaps = streams
    .flatMap((s) =>
      (Array.isArray(s?.longest_gaps) ? s.longest_gaps : []).map((g) => ({
        stream: `GPU ${s?.device} stream ${s?.stream}`,
        category: g?.category,
        duration_ns: g?.duration_ns,
        begin_ns: g?.begin_ns,
        end_ns: g?.end_ns,
      }))
    )
    .sort((a, b) => (num(b.duration_ns) ?? 0) - (num(a.duration_ns) ?? 0));
  return [
    h('h4', null, 'Idle time per stream'),
    new DataTable(rows, cols, links, undefined, 'step_idle').root,
    gaps.length ? new DataTable(gaps, kIdleGapColumns, links, 'Longest gaps in the step', 'step_idle_gaps').root : null,
  ].filter((x): x is HTMLElement => x !== null);
}

function kernelsBlock(k: Kernels, links: Links): Node[] {
  const cols: Column[] = [
    { key: 'name', label: 'Name', kind: 'text' },
    { key: 'class', label: 'Class', kind: 'text' },
    { key: 'count', label: 'Count', kind: 'count' },
    { key: 'total_ns', label: 'Total', kind: 'ns' },
    { key: 'mean_ns', label: 'Mean', kind: 'ns' },
    { key: 'p95_ns', label: 'p95', kind: 'ns' },
    { key: 'share', label: 'Share', kind: 'frac' },
  ];
  return [
    h('h4', null, 'Kernels'),
    h(
      'div',
      { class: 'facts' },
      fact('GPU ops', 'count', k?.count, 'kernels.count'),
      fact('total', 'ns', k?.total_ns, 'kernels.total_ns'),
      fact('distinct names', 'count', k?.distinct_names, 'kernels.distinct_names')
    ),
    new DataTable(Array.isArray(k?.top) ? k.top : [], cols, links, undefined, 'step_kernels').root,
  ];
}

function launchesBlock(l: Launches): Node[] {
  const d = l?.delay,
    s = l?.host_syncs;
  return [
    h('h4', null, 'Launches'),
    h(
      'div',
      { class: 'facts' },
      fact('launches', 'count', l?.count, 'launches.count'),
      fact('delay p50', 'ns', d?.p50_ns, 'launches.delay.p50_ns'),
      fact('p90', 'ns', d?.p90_ns, 'launches.delay.p90_ns'),
      fact('max', 'ns', d?.max_ns, 'launches.delay.max_ns'),
      fact('delay outliers', 'count', l?.delay_outliers, 'launches.delay_outliers'),
      fact('short ops', 'count', l?.short_ops?.count, 'launches.short_ops.count'),
      fact('launch CPU', 'ns', l?.launch_cpu_ns, 'launches.launch_cpu_ns'),
      fact('launched GPU', 'ns', l?.launched_gpu_ns, 'launches.launched_gpu_ns'),
      h(
        'span',
        { class: 'fact', 'data-key': 'launches.launch_bound' },
        l?.launch_bound === true ? 'launch-bound' : 'not launch-bound'
      )
    ),
    h(
      'div',
      { class: 'facts' },
      fact('host syncs', 'count', s?.count, 'launches.host_syncs.count'),
      fact('blocked', 'ns', s?.blocked_ns, 'launches.host_syncs.blocked_ns'),
      ...(Array.isArray(s?.top_sites) ? s.top_sites : []).map((x) =>
        h(
          'span',
          { class: 'fact' },
          h('span', { class: 'muted' }, `from ${typeof x?.name === 'string' ? x.name : kNoOperator} `),
          `${fmtCount(num(x?.count) ?? 0)} × ${fmtDuration(num(x?.blocked_ns) ?? 0)}`
        )
      )
    ),
  ];
}

// A section: its title, a line of headline facts, and its table (rows from the summary as they are).
function tableBlock(
  title: string,
  facts: HTMLElement[],
  rows: unknown,
  cols: Column[],
  id: string,
  links: Links
): Node[] {
  return [
    h('h4', null, title),
    h('div', { class: 'facts' }, ...facts),
    new DataTable(Array.isArray(rows) ? rows : [], cols, links, undefined, id).root,
  ];
}

function collectivesBlock(c: Collectives, links: Links): Node[] {
  const cols: Column[] = [
    { key: 'type', label: 'Type', kind: 'text' },
    { key: 'count', label: 'Count', kind: 'count' },
    { key: 'total_ns', label: 'Total', kind: 'ns' },
    { key: 'exposed_ns', label: 'Exposed', kind: 'ns' },
    { key: 'bytes', label: 'Bytes', kind: 'bytes' },
    { key: 'busbw_gbps', label: 'Bus GB/s', kind: 'num' },
  ];
  return tableBlock(
    'Collectives',
    [
      fact('ops', 'count', c?.count, 'collectives.count'),
      fact('total', 'ns', c?.total_ns, 'collectives.total_ns'),
      fact('communication time', 'ns', c?.union_ns, 'collectives.union_ns'),
      fact('exposed', 'ns', c?.exposed_ns, 'collectives.exposed_ns'),
    ],
    c?.by_type,
    cols,
    'step_collectives',
    links
  );
}

function operatorsBlock(o: Operators, links: Links): Node[] {
  const cols: Column[] = [
    { key: 'name', label: 'Operator', kind: 'text' },
    { key: 'calls', label: 'Calls', kind: 'count' },
    { key: 'total_ns', label: 'Host total', kind: 'ns' },
    { key: 'self_ns', label: 'Host self', kind: 'ns' },
    { key: 'device_self_ns', label: 'Device self', kind: 'ns' },
    { key: 'device_total_ns', label: 'Device total', kind: 'ns' },
  ];
  return tableBlock(
    'CPU operators',
    [
      fact('distinct operators', 'count', o?.distinct_operators, 'operators.distinct_operators'),
      fact('launches attributed', 'count', o?.launches_attributed, 'operators.launches_attributed'),
    ],
    o?.top,
    cols,
    'step_operators',
    links
  );
}

function memoryBlock(m: Memory): Node[] {
  const devs = Array.isArray(m?.devices) ? m.devices : [];
  if (!devs.length) return [];
  return [
    h('h4', null, 'Memory peak'),
    h(
      'div',
      { class: 'facts' },
      ...devs.map((d, i) =>
        h(
          'span',
          {
            class: 'fact',
            'data-key': `memory.devices.${i}.peak_allocated`,
            'data-raw': num(d?.peak_allocated) === null ? null : String(d.peak_allocated),
          },
          h('span', { class: 'muted' }, `${deviceLabel(d?.device)} `),
          memoryPeakText(memoryPeaks(d))
        )
      )
    ),
  ];
}

function detailBody(step: Step, links: Links): Node[] {
  const d = step?.sections;
  if (!d || typeof d !== 'object')
    return [h('p', { class: 'muted' }, 'No per-step details for this step (only the first 32 steps carry them).')];
  const out: Node[] = [
    h(
      'p',
      { class: 'muted small' },
      `Step ${step.number}: ${fmtDuration(num(step.duration_ns) ?? 0)}. GPU ops, launches and collectives count in the step where they start; idle gaps and communication time are cut at the step's edges.`
    ),
  ];
  if (d.idle) out.push(...idleBlock(d.idle, links));
  if (d.kernels) out.push(...kernelsBlock(d.kernels, links));
  if (d.launches) out.push(...launchesBlock(d.launches));
  if (d.collectives) out.push(...collectivesBlock(d.collectives, links));
  if (d.memory) out.push(...memoryBlock(d.memory));
  if (out.length === 1) out.push(h('p', { class: 'muted' }, 'This step has no GPU work, launches or memory samples.'));
  if (d.operators && Number(d.operators.distinct_operators) > 0) out.push(...operatorsBlock(d.operators, links));
  return out;
}

// The step picker and the selected step's details; null when no step carries details. The picker
// is a plain <select> (the rank picker owns the dashboard's chips).
export function stepDetailPanel(steps: Step[], links: Links): HTMLElement | null {
  const withDetails = steps.filter((s) => s && typeof s === 'object' && s.sections && typeof s.sections === 'object');
  if (!withDetails.length) return null;
  const body = h('div', { class: 'step-detail-body' });
  const picker = h(
    'select',
    { class: 'step-select', 'aria-label': 'Step' },
    ...withDetails.map((s, i) =>
      h(
        'option',
        { value: String(i), 'data-step': String(s.number) },
        `Step ${s.number} (${fmtDuration(num(s.duration_ns) ?? 0)})`
      )
    )
  );
  const select = (i: number) => {
    clear(body);
    body.setAttribute('data-step', String(withDetails[i].number));
    for (const n of detailBody(withDetails[i], links)) body.append(n);
  };
  picker.addEventListener('change', () => select(Number(picker.value) || 0));
  select(0);
  return h(
    'div',
    { class: 'step-detail', 'data-section': 'step-detail' },
    h('h3', null, 'Step details ', picker),
    body
  );
}
