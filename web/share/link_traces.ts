// The traces a link was made on, in words for its reader: a link to a view of a local file opens
// on a page without that file, which would be a blank start page; the page says which file to open
// (its name, size and content hash, whatever the link carries), and when the file opened has
// another hash, which one was expected and which one was opened.
import { fmtBytes, fmtCount } from '../app/format';
import type { TraceRef } from './summary_link';
import type { ViewState } from './view_state';

// What a link says of one trace; a link made before names and sizes travelled has the hash only.
export interface LinkTrace {
  name: string | null;
  bytes: number | null;
  hash: string | null;
}

// Per file of a view link: its `f=` name and size beside its `h=` hash.
export function viewTraces(v: ViewState): LinkTrace[] {
  const n = Math.max(v.hashes?.length ?? 0, v.files?.length ?? 0);
  return Array.from({ length: n }, (_, i) => ({
    name: v.files?.[i]?.name ?? null,
    bytes: v.files?.[i]?.bytes ?? null,
    hash: v.hashes?.[i] ?? null,
  })).filter((t) => t.name !== null || t.hash !== null);
}

export const summaryTraces = (traces: (TraceRef | null)[]): LinkTrace[] =>
  traces.filter((t): t is TraceRef => t !== null);

// "train.json (3.1 MB, 3,132,978 bytes; content hash 1863…)": the exact size and the whole hash,
// so the reader can tell two versions of one file apart.
export function describeTrace(t: LinkTrace): string {
  const size = t.bytes === null ? null : `${fmtBytes(t.bytes)}, ${fmtCount(t.bytes)} bytes`;
  const hash = t.hash === null ? null : `content hash ${t.hash}`;
  const about = [size, hash].filter((x) => x !== null).join('; ');
  return `${t.name ?? 'a trace'}${about ? ` (${about})` : ''}`;
}

const list = (traces: LinkTrace[]) => traces.map(describeTrace).join(', ');

// For a view link opened without its trace.
export function openTheseText(traces: LinkTrace[]): string {
  if (!traces.length) return 'This link shows a view of a trace: open that trace here to see it.';
  const one = traces.length === 1;
  return (
    `This link shows a view of ${list(traces)}. Open ${one ? 'that file' : 'those files'} here ` +
    `(drop ${one ? 'it' : 'them'} on the page, or "Open traces…") to see the view.`
  );
}

// For traces opened for a link whose hashes they do not have.
export function differentText(what: string, expected: LinkTrace[], opened: LinkTrace[]): string {
  const made = expected.length ? ` Made from: ${list(expected)}.` : '';
  return `The opened trace is not the one the ${what} was made from.${made} Opened: ${list(opened)}. Showing the opened trace.`;
}
