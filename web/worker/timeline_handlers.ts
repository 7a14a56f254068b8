// Timeline requests inside the worker: the bridge between the page's TimelineView and the wasm core
// (core/timeline via wasm/bindings.cc).
//
// API (used by the worker, web/worker/*):
//   handleTimelineRequest(ctx, req): Promise<payload>
//     ctx = { mod, session, source: { blob?: Blob, gzip: boolean } }  (mod = Emscripten module,
//           session = the finished Embind Session, blob = the file as opened, for re-reading events)
//     req = { kind: 'tracks' | 'window' | 'event' | 'search' | 'aggregate', ...fields }
//     The payload is a plain object that may hold typed arrays; pass transferablesOf(payload) as the
//     postMessage transfer list to avoid a copy (optional: structured clone also works).
//   Errors are thrown as Error with a readable message (the worker turns them into error replies).
//
// Times crossing this boundary are float64 nanoseconds RELATIVE to the trace origin (the trace's
// first timestamp, `originNs` in the tracks reply, a decimal string), so they stay exact in JS.

export interface TimelineSource { blob?: Blob; gzip: boolean }
export interface TimelineContext { mod: any; session: any; source: TimelineSource }
export interface TimelineRequest { kind: string; [key: string]: any }

export async function handleTimelineRequest(ctx: TimelineContext, req: TimelineRequest): Promise<any> {
  void ctx;
  throw new Error(`timeline request '${req.kind}' is not implemented yet`);
}

// Every distinct ArrayBuffer under `payload` (typed arrays one level deep or nested in objects/arrays).
export function transferablesOf(payload: unknown): Transferable[] {
  const out = new Set<ArrayBuffer>();
  const walk = (v: unknown, depth: number): void => {
    if (depth > 4 || v === null || typeof v !== 'object') return;
    if (ArrayBuffer.isView(v)) { if (v.buffer instanceof ArrayBuffer) out.add(v.buffer); return; }
    if (v instanceof ArrayBuffer) { out.add(v); return; }
    for (const x of Array.isArray(v) ? v : Object.values(v as object)) walk(x, depth + 1);
  };
  walk(payload, 0);
  return [...out];
}
