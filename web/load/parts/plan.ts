// Importing a large plain file in parts (core/import/import_parts.h), each part in its own worker
// and wasm heap: the trace worker imports the first, part workers (worker.ts) the others, and
// each later part comes back as bytes (a header and its columns, core/import/part_codec.cc; the
// page streams the columns, stream.ts) that the trace worker's session absorbs in order. A
// part the core refuses (a cut that was not between two events) or that failed is read again by the
// trace worker: a wrong guess costs time, never a different model.
import { ColumnWriter } from './stream';
import type { CoreModule, CoreSession } from '../../core/bindings';

// On 2 cores parts were faster from 96 MB on (the smallest file measured); below that, chosen:
// their fixed costs (the plan, copying a part out and in) are small next to 64 MB of parsing.
export const kPartsMinBytes = 64 << 20;
// The first part's share against each later one's. The trace worker's part is read by its feed
// worker while each part worker reads its own, so per byte the trace worker imports faster: with
// equal shares it waited for the later part, with 1.4 (58% of the file in two parts) neither
// waits for long, with 1.7 the part worker waits. Measured on 2 cores (docs/performance.md,
// "Parts"); kept for more.
export const kFirstPartWeight = 1.4;
// Each share at least this (likewise chosen; tests and comparisons may ask for less).
export const kMinPartBytes = 32 << 20;
// Where a cut is looked for: a small window first (a Kineto event is well under 64 KB, and each
// read is one round trip to the browser's file reader, slower the bigger, and every part waits for
// it), then a wide one for traces of huge events.
export const kCutWindowBytes = 64 << 10;
const kWindowBytes = [kCutWindowBytes, 1 << 20];

export interface PartPlan {
  objectForm: boolean; // the document starts with '{' (else '['): later parts need it from the start
  starts: number[]; // ascending file offsets of the later parts
}

// Copies `bytes` into the heap for f(address, length).
function inHeap<T>(mod: CoreModule, bytes: ArrayBuffer | Uint8Array, f: (address: number, n: number) => T): T {
  const p = Number(mod._malloc(Math.max(1, bytes.byteLength)));
  try {
    mod.HEAPU8.set(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes), p);
    return f(p, bytes.byteLength);
  } finally {
    mod._free(p);
  }
}

// The offset of the first likely event start in `window`, a file's bytes from offset `at` on (the
// core's likely_event_start), 0 for none.
export function eventStartIn(mod: CoreModule, window: ArrayBuffer | Uint8Array, at: number): number {
  return Number(inHeap(mod, window, (p, len) => mod.likelyEventStart(p, len, at)));
}

// Whether a file whose first bytes are `head` is in the object form (starts with '{').
export function objectFormOf(mod: CoreModule, head: ArrayBuffer | Uint8Array): boolean {
  return !!inHeap(mod, head, (p, len) => mod.startsAsObject(p, len));
}

// The file offset of the first likely event start at or after `at`, 0 for none.
async function eventStartFrom(mod: CoreModule, blob: Blob, at: number): Promise<number> {
  for (const bytes of kWindowBytes) {
    const s = eventStartIn(mod, await blob.slice(at, at + bytes).arrayBuffer(), at);
    if (s > 0 || at + bytes >= blob.size) return s;
  }
  return 0;
}

// Cuts for up to `parts` parts, the first of kFirstPartWeight shares and each later one of one,
// each where an event likely starts; null when there is none to make. `head`: the file's first
// bytes (at least its first non-blank one), when the caller has read them already. The reads are
// made at once, not one after another: they delay the start of every part.
export async function planParts(
  mod: CoreModule,
  blob: Blob,
  parts: number,
  minPartBytes = kMinPartBytes,
  head?: ArrayBuffer
): Promise<PartPlan | null> {
  const n = Math.min(parts, Math.floor(blob.size / Math.max(1, minPartBytes)));
  if (n < 2) return null;
  const shares = kFirstPartWeight + n - 1;
  const cuts = Array.from({ length: n - 1 }, (_, k) => Math.floor((blob.size * (kFirstPartWeight + k)) / shares));
  const [first, ...found] = await Promise.all([
    head ?? blob.slice(0, 64).arrayBuffer(),
    ...cuts.map((at) => eventStartFrom(mod, blob, at)),
  ]);
  const starts: number[] = [];
  for (const s of found) {
    if (s > 0 && s < blob.size && (starts.length === 0 || s > starts[starts.length - 1])) starts.push(s);
  }
  if (starts.length === 0) return null;
  return { objectForm: objectFormOf(mod, first), starts };
}

// A later part out of its worker's heap: copies, to transfer.
export interface PartBytes {
  header: Uint8Array;
  columns: Uint8Array[];
}

// A part copied out whole, after its input ended (the node bench, bench/parts_bench.mjs, and the
// tests; the page streams it instead, stream.ts). The views are copied before any other call
// into wasm.
export function exportPart(session: CoreSession): PartBytes {
  const header = session.partHeader().slice();
  const columns = session.partColumns().map((v) => v.slice());
  return { header, columns };
}

// Starts absorbing a part into `session`, whose input ends where the part began: the column
// addresses its bytes go to, or null when it is refused (the session holds no pending part then).
// Each address is asked for before HEAPU8 is read: loadPart may grow the heap, which detaches the
// HEAPU8 of before (`mod.HEAPU8.set(x, session.address())` would write through the old one).
export function beginAbsorb(
  mod: CoreModule,
  session: CoreSession,
  header: Uint8Array,
  sizes: number[]
): number[] | null {
  const headerAt = Number(session.partBuffer(header.length));
  mod.HEAPU8.set(header, headerAt);
  const expected = session.loadPart(header.length);
  if (!expected) return null;
  if (expected.length !== sizes.length || expected.some((n, i) => n !== sizes[i])) {
    session.dropPart();
    return null;
  }
  return sizes.map((n, i) => (n === 0 ? 0 : Number(session.partColumnAddress(i))));
}

// Appends a part copied out whole (exportPart) to `session`; false when it is refused.
export function absorbPart(mod: CoreModule, session: CoreSession, part: PartBytes): boolean {
  const sizes = part.columns.map((c) => c.length);
  const at = beginAbsorb(mod, session, part.header, sizes);
  if (!at) return false;
  for (let i = 0; i < sizes.length; i++) if (sizes[i] > 0) mod.HEAPU8.set(part.columns[i], at[i]);
  return session.absorbPart();
}

// A part waiting in its worker's heap (client.ts): its header, its columns' sizes, and
// receive(write), which streams the columns' bytes to write() in order and resolves to whether all
// of them came.
export interface StreamedPart {
  header: Uint8Array;
  sizes: number[];
  receive(write: (chunk: Uint8Array) => boolean): Promise<boolean>;
}

// Appends a streamed part to `session` (stream.ts); false when it is refused or its stream
// broke off (the session then holds no part of it).
export async function absorbStreamed(mod: CoreModule, session: CoreSession, part: StreamedPart): Promise<boolean> {
  const at = beginAbsorb(mod, session, part.header, part.sizes);
  if (!at) return false;
  const writer = new ColumnWriter(part.sizes, at);
  const ok = await part.receive((chunk) => writer.write(mod.HEAPU8, chunk));
  if (!ok || !writer.done) {
    session.dropPart();
    return false;
  }
  return session.absorbPart();
}
