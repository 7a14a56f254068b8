// The `f=` keys of a view link: per opened trace, in file order, its size and name, so that whoever
// opens the link without the trace is told which file to open (with the content hash of `h=`).
//
//   f=<bytes>*<name>   one per file; an empty `f=` when the file is not known (a saved summary)
//
// The size comes first (digits only), so a name may hold any printable character, '*' too. Links
// made before these keys existed carry only `h=`; those still read (view_state.ts), and a page
// that predates them ignores `f=` (unknown keys are).
export interface TraceFile {
  name: string;
  bytes: number;
}

export const kMaxFileName = 256;
const kEntryRe = /^(\d{1,16})\*(.+)$/s;
const hasControl = (s: string) => /[\u0000-\u001f\u007f]/.test(s);

function readEntry(v: string): TraceFile | null | undefined {
  if (v === '') return null; // a file without a trace behind it
  const m = kEntryRe.exec(v);
  if (!m) return undefined;
  const bytes = Number(m[1]);
  const name = m[2];
  if (!Number.isSafeInteger(bytes) || name.length > kMaxFileName || hasControl(name)) return undefined;
  return { name, bytes };
}

// The files of `f=` entries; undefined when any entry is malformed (reported as the key 'f').
export function readTraceFiles(values: string[], max: number): (TraceFile | null)[] | undefined {
  if (!values.length || values.length > max) return undefined;
  const out = values.map(readEntry);
  return out.every((x): x is TraceFile | null => x !== undefined) && out.some((x) => x !== null) ? out : undefined;
}

// Appends one `f=` per file; nothing when no file is known. Names too long or holding control
// characters are written as unknown, so what is written reads back identically.
export function writeTraceFiles(files: unknown, params: URLSearchParams, max: number): void {
  const list = Array.isArray(files) ? files.slice(0, max) : [];
  const entries = list.map((f: Partial<TraceFile> | null) =>
    f &&
    typeof f.name === 'string' &&
    f.name.length > 0 &&
    f.name.length <= kMaxFileName &&
    !hasControl(f.name) &&
    Number.isSafeInteger(f.bytes) &&
    f.bytes! >= 0
      ? `${f.bytes}*${f.name}`
      : ''
  );
  if (entries.some((e) => e)) for (const e of entries) params.append('f', e);
}
