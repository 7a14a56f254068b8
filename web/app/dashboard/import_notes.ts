// The import's problem counts (summary `import.problems`), in plain words. Kineto starts and stops
// recording in the middle of the program, so flow arrows and begin/end pairs cut by the edges of
// the profiling window are normal in almost every trace: they are told apart from repairs of the
// file itself, so that the usual case does not read as an alarm.
import { h } from '../dom';
import { fmtCount } from '../format';
import type { FileSummary } from '../summary_document';

// What each count means. `edge`: expected at the edges of a profiling window.
const kKnown: Record<string, { text: string; edge?: boolean }> = {
  flow_without_start: {
    text: 'flow arrows whose start was not recorded (before the profiling window began)',
    edge: true,
  },
  flow_without_end: { text: 'flow arrows whose end was not recorded (after the profiling window ended)', edge: true },
  unclosed_begin: { text: 'begin (B) events without their end, cut by the end of the trace', edge: true },
  unmatched_end: { text: 'end (E) events without their begin, cut by the start of the trace', edge: true },
  unclosed_async_begin: { text: 'async begins without their end', edge: true },
  unmatched_async_end: { text: 'async ends without their begin', edge: true },
  flow_unbound: { text: 'flow points that no slice encloses (not drawn)' },
  flow_endpoint_skipped: {
    text: 'flow events beyond 2 million (thread, flow name) pairs or 1 TiB into the file (not loaded)',
  },
  truncated_event: { text: 'event cut off where the file ends (not loaded)' },
  invalid_utf8: { text: 'events with invalid UTF-8 text (repaired with "?")' },
  overlapping_slices: { text: 'slices that overlap another on their thread without nesting (drawn a row lower)' },
  negative_dur: { text: 'events with a negative duration (skipped)' },
  integer_beyond_int64: { text: 'integers too large for 64 bits (kept as text)' },
};

export function importNotes(f: FileSummary): HTMLElement | null {
  const problems = f.import?.problems;
  if (!problems || typeof problems !== 'object' || Object.keys(problems).length === 0) return null;
  const entries = Object.entries(problems as Record<string, number>);
  const rows = entries.map(([k, n]) =>
    h(
      'li',
      null,
      h('strong', null, fmtCount(n)),
      ` ${kKnown[k]?.text ?? k.replace(/_/g, ' ')}`,
      f.import?.problem_first_offsets?.[k] !== undefined
        ? h('span', { class: 'muted' }, ` (first at byte ${fmtCount(f.import.problem_first_offsets[k])})`)
        : null
    )
  );
  const edgeOnly = entries.every(([k]) => kKnown[k]?.edge);
  const title = edgeOnly
    ? 'Import notes: events cut by the edges of the profiling window (usual in profiler traces)'
    : `Import notes: ${entries.length} kind${entries.length === 1 ? '' : 's'} of event skipped or repaired`;
  return h(
    'details',
    {
      class: `panel notes${edgeOnly ? ' notes-edge' : ''}`,
      'data-section': 'import',
      'data-edge-only': String(edgeOnly),
    },
    h('summary', null, title),
    h('ul', null, ...rows)
  );
}
