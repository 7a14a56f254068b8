// GPU time by user annotation and nn.Module (the summary's `annotations`, core/calltree/annotations.h):
// the units users reason in, DeepSeek's attn(F) / combine(B) micro-batch parts among them, with the
// GPU time of the kernels launched while each was open (from any thread of its process), and which
// annotation's GPU work runs under which: overlapped micro-batches read as "combine(B) 63 % under
// attn(F)". Names come from the trace: text only.
import { h } from '../dom';
import { fmtPct } from '../format';
import { stackedBar } from './charts';
import { DataTable, type Column } from './table';
import type { Links } from './links';
import type { Annotations, FileSummary } from '../summary_document';

const kRowCols: Column[] = [
  { key: 'name', label: 'Annotation', kind: 'text' },
  { key: 'count', label: 'Calls', kind: 'count' },
  { key: 'cpu_ns', label: 'CPU time', kind: 'ns' },
  { key: 'gpu_ns', label: 'GPU time launched', kind: 'ns' },
  { key: 'gpu_ops', label: 'GPU ops', kind: 'count' },
  { key: 'gpu_ops_other_thread', label: 'from other threads', kind: 'count' },
  { key: 'streams', label: 'Streams', kind: 'text' },
];
const kOverlapCols: Column[] = [
  { key: 'a', label: 'GPU work of', kind: 'text' },
  { key: 'b', label: 'runs under', kind: 'text' },
  { key: 'overlap_ns', label: 'Overlap', kind: 'ns' },
  { key: 'a_hidden_pct', label: 'Of the first', kind: 'pct' },
  { key: 'b_hidden_pct', label: 'Of the second', kind: 'pct' },
];
const kChartPairs = 8;

type Overlap = Annotations['overlaps'][number];

// One bar per pair, from the side of the one more hidden: its GPU busy time, the part under the other.
function overlapChart(pairs: Overlap[]): HTMLElement {
  const rows = pairs.slice(0, kChartPairs).map((p) => {
    const aFirst = p.a_hidden_pct >= p.b_hidden_pct;
    const [who, under, busy, pct] = aFirst
      ? [p.a, p.b, p.a_busy_ns, p.a_hidden_pct]
      : [p.b, p.a, p.b_busy_ns, p.b_hidden_pct];
    const bar = stackedBar(
      [
        { label: `under ${under}`, value: p.overlap_ns, color: '--c-comm', title: `${who} under ${under}` },
        { label: 'alone', value: Math.max(0, busy - p.overlap_ns), color: '--c-idle', title: `${who} alone` },
      ],
      busy
    );
    return h(
      'div',
      { class: 'ann-overlap-row' },
      h('span', { class: 'ann-overlap-label' }, `${who} under ${under}: ${fmtPct(pct)}`),
      bar
    );
  });
  return h('div', { class: 'ann-overlap-chart', 'data-chart': 'annotation_overlap' }, ...rows);
}

export function annotationsPanel(f: FileSummary, links: Links): HTMLElement | null {
  const a = f?.annotations;
  if (!a || !Array.isArray(a.rows) || a.rows.length === 0) return null;
  const rows = a.rows.map((r) => ({
    ...r,
    streams: (r.gpu_by_stream ?? []).map((s) => `GPU ${s.device} stream ${s.stream}`).join(', '),
  }));
  const overlaps = Array.isArray(a.overlaps) ? a.overlaps : [];
  return h(
    'section',
    { class: 'panel', 'data-section': 'annotations' },
    h('h2', null, 'GPU time by annotation'),
    h(
      'p',
      { class: 'muted small' },
      'Kernels belong to every annotation open around their launch on the launching thread, or, when it has ' +
        'none, open on another thread of the process (autograd launches the backward pass from its own thread).'
    ),
    new DataTable(rows, kRowCols, links, undefined, 'annotations').root,
    overlaps.length ? h('h3', null, 'Overlapped work') : null,
    overlaps.length ? overlapChart(overlaps) : null,
    overlaps.length ? new DataTable(overlaps, kOverlapCols, links, undefined, 'annotation_overlaps').root : null,
    a.count > a.rows.length
      ? h('p', { class: 'muted small' }, `The ${a.rows.length} with most GPU time of ${a.count}.`)
      : null
  );
}
