// GPU streams: what each stream mostly runs, and how much pairs of streams on one device overlap
// (e.g. two micro-batch streams, or compute vs NCCL). Pairs name their streams instead of indices.
import { h } from '../dom';
import { DataTable, type Column } from './table';
import type { Links } from './links';
import type { FileSummary, StreamActivity } from '../summary_document';

const kStreamCols: Column[] = [
  { key: 'stream_name', label: 'Stream', kind: 'text' },
  { key: 'main_class', label: 'Mostly', kind: 'text' },
  { key: 'ops', label: 'Ops', kind: 'count' },
  { key: 'busy_ns', label: 'Busy', kind: 'ns' },
  { key: 'classes_ns.computation', label: 'Computation', kind: 'ns' },
  { key: 'classes_ns.communication', label: 'Communication', kind: 'ns' },
  { key: 'classes_ns.memory', label: 'Memory', kind: 'ns' },
  { key: 'classes_ns.other', label: 'Other', kind: 'ns' },
];
const kPairCols: Column[] = [
  { key: 'a_name', label: 'Stream', kind: 'text' },
  { key: 'b_name', label: 'With stream', kind: 'text' },
  { key: 'overlap_ns', label: 'Overlap', kind: 'ns' },
  { key: 'pct_of_smaller', label: 'Of the less busy one', kind: 'pct' },
];

export function streamsPanel(f: FileSummary, links: Links): HTMLElement | null {
  const so = f?.stream_overlap;
  if (!so || !Array.isArray(so.streams) || so.streams.length === 0) return null;
  const name = (s: StreamActivity | undefined) => (s ? `GPU ${s.device} stream ${s.stream}` : '?');
  const streams = so.streams.map((s) => ({ ...s, stream_name: name(s) }));
  const pairs = (Array.isArray(so.pairs) ? so.pairs : []).map((p) => ({
    ...p,
    a_name: name(so.streams[p.a]),
    b_name: name(so.streams[p.b]),
  }));
  return h(
    'section',
    { class: 'panel', 'data-section': 'stream_overlap' },
    h('h2', null, 'GPU streams'),
    new DataTable(streams, kStreamCols, links, undefined, 'streams').root,
    pairs.length
      ? new DataTable(pairs, kPairCols, links, 'Streams running at the same time', 'stream_pairs').root
      : h('p', { class: 'muted small' }, 'No two streams of one device run at the same time.'),
    so.truncated ? h('p', { class: 'muted small' }, 'Only the busiest streams are listed.') : null
  );
}
