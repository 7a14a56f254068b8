// What a drop opens: the dropped files, and the traces inside dropped folders (a job's folder of
// one trace per rank). A folder is read through the File and Directory Entries API
// (DataTransferItem.webkitGetAsEntry), down to kMaxDepth folders below the dropped one and at most
// kMaxFiles traces, its .json / .json.gz files in natural order of their paths (rank-2 before
// rank-10). Entries are typed by the little this reads of them, so tests/web/dropped_files.test.mjs
// runs it on stand-ins in node.

export interface EntryLike {
  isFile: boolean;
  isDirectory: boolean;
  name: string;
  file?(ok: (f: File) => void, err?: (e: unknown) => void): void;
  createReader?(): { readEntries(ok: (entries: EntryLike[]) => void, err?: (e: unknown) => void): void };
}

// A dropped item: its entry when the browser gives one (null for synthetic drops), else its file.
export interface DroppedItem {
  entry: EntryLike | null;
  file: File | null;
}

export const kMaxDepth = 3;
export const kMaxFiles = 1024;
const kTrace = /\.json(\.gz)?$/i;

export const isTraceName = (name: string): boolean => kTrace.test(name) && !name.startsWith('.');

const natural = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

function readAll(dir: EntryLike): Promise<EntryLike[]> {
  const reader = dir.createReader!();
  const out: EntryLike[] = [];
  // readEntries returns a batch at a time (Chromium: 100) and an empty batch at the end.
  return new Promise((ok, fail) => {
    const next = () =>
      reader.readEntries((batch) => {
        if (!batch.length) return ok(out);
        out.push(...batch);
        next();
      }, fail);
    next();
  });
}

const fileOf = (e: EntryLike): Promise<File> => new Promise((ok, fail) => e.file!(ok, fail));

// The traces under `dir`, as [path below the dropped folder's parent, entry].
async function tracesIn(dir: EntryLike, path: string, depth: number, out: Array<[string, EntryLike]>): Promise<void> {
  const entries = await readAll(dir);
  entries.sort((a, b) => natural.compare(a.name, b.name));
  for (const e of entries) {
    if (out.length >= kMaxFiles) return;
    if (e.isFile && isTraceName(e.name)) out.push([`${path}/${e.name}`, e]);
    else if (e.isDirectory && depth < kMaxDepth && !e.name.startsWith('.'))
      await tracesIn(e, `${path}/${e.name}`, depth + 1, out);
  }
}

// The files to open, each named by its path below the dropped folder ("job/rank-0.json") or by its
// own name when dropped as a file. Files dropped as such are opened whatever their name (the
// importer says what it makes of them); inside folders only traces are taken.
export async function droppedFiles(items: DroppedItem[]): Promise<Array<{ name: string; blob: File }>> {
  const out: Array<{ name: string; blob: File }> = [];
  for (const { entry, file } of items) {
    if (entry?.isDirectory) {
      const found: Array<[string, EntryLike]> = [];
      await tracesIn(entry, entry.name, 1, found);
      for (const [name, e] of found) out.push({ name, blob: await fileOf(e) });
    } else if (file) out.push({ name: file.name, blob: file });
    else if (entry?.isFile) out.push({ name: entry.name, blob: await fileOf(entry) });
  }
  return out;
}

// The items of a drop, read while the event lasts (its DataTransfer is emptied after).
export function dropItems(dt: DataTransfer | null): DroppedItem[] {
  if (!dt) return [];
  const items = [...dt.items].filter((i) => i.kind === 'file');
  if (!items.length) return [...dt.files].map((file) => ({ entry: null, file }));
  return items.map((i) => ({ entry: (i.webkitGetAsEntry?.() as EntryLike | null) ?? null, file: i.getAsFile() }));
}
