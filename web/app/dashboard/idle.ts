// GPU idle time per stream, by cause (host wait / kernel wait / other, HTA's definitions), and the
// longest idle gaps of every stream, each a link to that gap in the timeline.
import { h } from '../dom';
import { fmtDuration, fmtPct, valueLabel } from '../format';
import { legend, stackedBar } from './charts';
import type { Links } from './links';
import { DataTable, type Column } from './table';
import type { FileSummary, IdleCause } from '../summary_document';

export const kIdleColors: Record<string, string> = { host_wait: '--c2', kernel_wait: '--c4', other: '--c-other' };

// The table of idle gaps, the whole trace's and a step's.
export const kIdleGapColumns: Column[] = [
  { key: 'stream', label: 'Stream', kind: 'text' },
  { key: 'category', label: 'Cause', kind: 'text' },
  { key: 'duration_ns', label: 'Gap', kind: 'ns' },
  { key: 'begin_ns', label: 'Begin', kind: 'ts' },
  { key: 'end_ns', label: 'End', kind: 'ts' },
];

export function idlePanel(f: FileSummary, links: Links): HTMLElement | null {
  const streams = Array.isArray(f?.idle?.streams) ? f.idle.streams : null;
  if (!streams || streams.length === 0) return null;
  const cats = [...new Set(streams.flatMap((s) => Object.keys(s?.categories ?? {})))] as IdleCause[];
  const rows = streams.map((s) => {
    const span = (s.last_ns ?? 0) - (s.first_ns ?? 0);
    const parts = cats.map((c) => ({
      label: valueLabel(c),
      value: Math.max(0, s.categories?.[c]?.ns ?? 0),
      color: kIdleColors[c] ?? '--c-other',
      title: `${valueLabel(c)}: ${fmtDuration(s.categories?.[c]?.ns ?? 0)} in ${s.categories?.[c]?.count ?? 0} gaps`,
    }));
    const idle = s.idle_ns ?? 0;
    return h(
      'div',
      { class: 'bd-row' },
      h('div', { class: 'bd-label' }, `GPU ${s.device} stream ${s.stream}`),
      stackedBar(parts, span > 0 ? span : undefined),
      h(
        'div',
        {
          class: 'bd-right',
          title:
            span > 0
              ? `Idle ${fmtDuration(idle)} of the stream's ${fmtDuration(span)} (${fmtPct((100 * idle) / span)})`
              : null,
        },
        `${fmtDuration(idle)} idle`
      )
    );
  });
  const gaps = streams
    .flatMap((s) =>
      (Array.isArray(s.longest_gaps) ? s.longest_gaps : []).map((g) => ({
        stream: `GPU ${s.device} stream ${s.stream}`,
        category: g.category,
        duration_ns: g.duration_ns,
        begin_ns: g.begin_ns,
        end_ns: g.end_ns,
      }))
    )
    .sort((a, b) => b.duration_ns - a.duration_ns);
  const table = new DataTable(gaps, kIdleGapColumns, links, 'Longest idle gaps', 'idle_gaps');
  const threshold =
    typeof f.idle?.kernel_wait_threshold_ns === 'number'
      ? ` Kernel wait = gaps under ${fmtDuration(f.idle.kernel_wait_threshold_ns)} between back-to-back ops;` +
        ' host wait = the op was not even launched yet.'
      : '';
  return h(
    'section',
    { class: 'panel', 'data-section': 'idle' },
    h('h2', null, 'Stream idle gaps by cause (per stream)'),
    h(
      'p',
      { class: 'muted small', 'data-note': 'stream-gaps' },
      "Bars are each stream's span from its first op to its last, with that stream's own gaps (HTA's idle time): " +
        'a stream waits while other streams may run, so these gaps add up to more than the GPU idle time ' +
        '(the Idle causes card: the time no stream of the GPU runs).' +
        threshold
    ),
    h('div', { class: 'bd idle-bars' }, ...rows),
    legend(cats.map((c) => ({ label: valueLabel(c), color: kIdleColors[c] ?? '--c-other' }))),
    table.root
  );
}
