// Which side of a comparison each opened file is on (the baseline or the candidate), as the page
// keeps it and as a link writes it: `cmp=` one letter per file in the summary document's order, `b`
// for the baseline and `c` for the candidate (`cmp=bbc`: two baseline ranks, one candidate). A side
// may hold several files (the ranks of one run); both sides hold one at least.
import type { FileSummary, SummaryDocument } from '../summary_document';

export type Side = 'base' | 'cand';

export const kMaxCompareFiles = 64;
const kSidesRe = /^[bc]{2,64}$/;

export function encodeSides(sides: readonly Side[]): string | null {
  return validSides(sides) ? sides.map((s) => (s === 'base' ? 'b' : 'c')).join('') : null;
}

// The sides of a `cmp=` value; null when malformed or when a side is empty.
export function decodeSides(v: string | null | undefined): Side[] | null {
  if (typeof v !== 'string' || !kSidesRe.test(v)) return null;
  const sides = [...v].map((c): Side => (c === 'b' ? 'base' : 'cand'));
  return validSides(sides) ? sides : null;
}

export function validSides(sides: unknown): sides is Side[] {
  return (
    Array.isArray(sides) &&
    sides.length >= 2 &&
    sides.length <= kMaxCompareFiles &&
    sides.every((s) => s === 'base' || s === 'cand') &&
    sides.includes('base') &&
    sides.includes('cand')
  );
}

export const sideName = (s: Side): string => (s === 'base' ? 'baseline' : 'candidate');

// A side's label in the diff from what it was opened as (OpenedFile.origin): its file's, folder's or
// saved summary's name, as `tracewise diff PATH` labels it; a side of several separate files lists them.
export function sideLabel(names: readonly string[]): string {
  if (names.length <= 3) return names.join(', ') || 'no file';
  return `${names.slice(0, 2).join(', ')} and ${names.length - 2} more`;
}

// Each side's summary document (`{schema, files}`, what `tracewise summarize` writes for that side's
// files), the diff's input; null unless both sides have a summary.
export function sideDocuments(
  files: ReadonlyArray<{ side: Side | null; summary: FileSummary | null; schema: string }>
): { base: SummaryDocument; cand: SummaryDocument } | null {
  const doc = (side: Side): SummaryDocument | null => {
    const of = files.filter((f) => f.side === side && f.summary);
    return of.length ? { schema: of[0].schema, files: of.map((f) => f.summary!) } : null;
  };
  const base = doc('base');
  const cand = doc('cand');
  return base && cand ? { base, cand } : null;
}

// A link's sides for the files opened for it: by name when the link names its files and each opened
// file is one of them (dropped in any order), else by position; null when they do not fit.
export function sidesForOpened(
  sides: readonly Side[],
  linkNames: ReadonlyArray<string | null> | undefined,
  opened: ReadonlyArray<string | null>
): Side[] | null {
  if (sides.length !== opened.length) return null;
  const named = linkNames && linkNames.length === sides.length ? linkNames : null;
  const unused = named ? named.map((n, i) => ({ n, side: sides[i] })) : [];
  const byName = opened.map((name) => {
    const i = unused.findIndex((u) => u.n !== null && u.n === name);
    return i < 0 ? null : unused.splice(i, 1)[0].side;
  });
  const out = byName.every((s): s is Side => s !== null) ? byName : [...sides];
  return validSides(out) ? out : null;
}
