// Importing a large plain file in parts (core/import/import_parts.h), each part in its own worker
// and wasm heap: the trace worker imports the first, part workers (part_worker.ts) the others, and
// each later part comes back as bytes (a header and its columns, core/import/part_codec.cc) that the
// trace worker's session absorbs in order. A part the core refuses (a cut that was not between two
// events) or that failed is read again by the trace worker: a wrong guess costs time, never a
// different model.

// On 2 cores parts were faster from 96 MB on (bench/HISTORY.md, session 10); below that, chosen:
// their fixed costs (the plan, copying a part out and in) are small next to 64 MB of parsing
// (~50 ms of ~1.5 s per GB).
export const kPartsMinBytes = 64 << 20;
// The first part's share against each later one's. The trace worker's part is read by its feed
// worker while each part worker reads its own, so per byte the trace worker imports ~1.35x
// faster: with equal shares it waited 0.1-0.2 s for the later part at 1 GB on 2 cores, with 1.4
// (58% of the file in two parts) neither waits for long (1.7: the part worker waits). Measured
// on 2 cores (bench/HISTORY.md, session 10); kept for more.
export const kFirstPartWeight = 1.4;
// Each share at least this (likewise chosen; tests and comparisons may ask for less).
export const kMinPartBytes = 32 << 20;
const kWindowBytes = 1 << 20;

export interface PartPlan {
  objectForm: boolean;  // the document starts with '{' (else '['): later parts need it from the start
  starts: number[];     // ascending file offsets of the later parts
}

// Copies `bytes` into the heap for f(address, length).
function inHeap<T>(mod: any, bytes: ArrayBuffer, f: (address: number, n: number) => T): T {
  const p = Number(mod._malloc(Math.max(1, bytes.byteLength)));
  try {
    mod.HEAPU8.set(new Uint8Array(bytes), p);
    return f(p, bytes.byteLength);
  } finally {
    mod._free(p);
  }
}

// Cuts for up to `parts` parts, the first of kFirstPartWeight shares and each later one of one,
// each where an event likely starts (the core's likely_event_start over a window of the file);
// null when there is none to make.
export async function planParts(mod: any, blob: Blob, parts: number, minPartBytes = kMinPartBytes): Promise<PartPlan | null> {
  const n = Math.min(parts, Math.floor(blob.size / Math.max(1, minPartBytes)));
  if (n < 2) return null;
  const head = await blob.slice(0, 64).arrayBuffer();
  const starts: number[] = [];
  const shares = kFirstPartWeight + n - 1;
  for (let k = 1; k < n; k++) {
    const at = Math.floor(blob.size * (kFirstPartWeight + k - 1) / shares);
    const window = await blob.slice(at, at + kWindowBytes).arrayBuffer();
    const s = Number(inHeap(mod, window, (p, len) => mod.likelyEventStart(p, len, at)));
    if (s > 0 && s < blob.size && (starts.length === 0 || s > starts[starts.length - 1])) starts.push(s);
  }
  if (starts.length === 0) return null;
  return { objectForm: !!inHeap(mod, head, (p, len) => mod.startsAsObject(p, len)), starts };
}

// A later part out of its worker's heap: copies, to transfer.
export interface PartBytes { header: Uint8Array; columns: Uint8Array[] }

// In the part worker, after its input ended. The views are copied before any other call into wasm.
export function exportPart(session: any): PartBytes {
  const header = (session.partHeader() as Uint8Array).slice();
  const columns = (session.partColumns() as Uint8Array[]).map((v) => v.slice());
  return { header, columns };
}

// Appends a part to `session`, whose input ends where the part began; false when it is refused.
// Each address is asked for before HEAPU8 is read: the call may grow the heap, which detaches the
// HEAPU8 of before (`mod.HEAPU8.set(x, session.address())` would write through the old one).
export function absorbPart(mod: any, session: any, part: PartBytes): boolean {
  const headerAt = Number(session.partBuffer(part.header.length));
  mod.HEAPU8.set(part.header, headerAt);
  const sizes = session.loadPart(part.header.length) as number[] | null;
  if (!sizes) return false;
  if (sizes.length !== part.columns.length || sizes.some((n, i) => n !== part.columns[i].length)) {
    session.dropPart();
    return false;
  }
  for (let i = 0; i < sizes.length; i++) {
    if (sizes[i] === 0) continue;
    const at = Number(session.partColumnAddress(i));
    mod.HEAPU8.set(part.columns[i], at);
  }
  return session.absorbPart();
}
