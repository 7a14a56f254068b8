// The trace worker: one per opened file. Loads the wasm core, streams the file into a Session in
// batches of a few MB (many short wasm calls get V8's optimised tier; see DESIGN.md), reports
// progress, and answers summary and timeline requests. Every request gets exactly one reply; an
// exception while handling it becomes an `error` reply with a readable message.
import type { ErrorCode, OpenRequest, OpenResult, Progress, Request, TimelineContext } from './protocol';
import { openSource, SourceError } from './byte_source';
import { handleTimelineRequest, transferablesOf } from './timeline_handlers';

const kBatchBytes = 4 << 20;
// The wasm heap ends at 4 GB and the model needs roughly a third of the input size: refuse plain
// files that cannot fit before reading gigabytes of them.
const kMaxPlainBytes = 10 * 2 ** 30;
const kMaxGzipBytes = 1.5 * 2 ** 30;
const kProgressEveryMs = 100;

const post = (msg: unknown, transfer: Transferable[] = []) => (self as unknown as Worker).postMessage(msg, transfer);

class WorkerFailure extends Error {
  constructor(readonly code: ErrorCode, message: string) { super(message); }
}

let modPromise: Promise<any> | null = null;
let mod: any = null;
let session: any = null;
let source: TimelineContext['source'] = { gzip: false };
let cancelled = false;
let opened = false;  // the session finished importing without a fatal error

async function loadModule(): Promise<any> {
  modPromise ??= (async () => {
    const base = self.location.href;
    const wasm = await fetch(new URL('tracewise.wasm', base).href);
    if (!wasm.ok) throw new WorkerFailure('internal', `Could not load the analyzer (tracewise.wasm: ${wasm.status}).`);
    const factoryUrl = new URL('tracewise.mjs', base).href;
    const { default: create } = await import(factoryUrl);
    // A module worker is neither "web" nor "worker" to Emscripten 3.1.6: hand it the bytes.
    return create({ wasmBinary: await wasm.arrayBuffer() });
  })();
  return modPromise;
}

// The heap's ceiling (-sMAXIMUM_MEMORY=4GB). Without C++ exceptions a failed allocation ends in a
// bare abort(), so an abort with the heap near its ceiling is taken as running out of memory.
const kHeapCeiling = 4 * 2 ** 30;

function isOutOfMemory(e: unknown): boolean {
  const text = String((e as Error)?.message ?? e);
  if (e instanceof RangeError || /OOM|out of memory|enlarge memory|allocation failed|bad_alloc/i.test(text)) return true;
  const heap = Number(mod?.HEAPU8?.length ?? 0);
  return /Aborted/.test(text) && heap >= 0.75 * kHeapCeiling;
}

// Copies decompressed chunks into the session's staging buffer and pushes full batches.
class HeapPusher {
  private addr = 0;
  private fill = 0;
  constructor(private readonly m: any, private readonly s: any) {}
  write(chunk: Uint8Array): void {
    let off = 0;
    while (off < chunk.length) {
      if (this.fill === 0) this.addr = Number(this.s.stagingBuffer(kBatchBytes));
      const n = Math.min(kBatchBytes - this.fill, chunk.length - off);
      this.m.HEAPU8.set(chunk.subarray(off, off + n), this.addr + this.fill);  // HEAPU8 is re-read: the heap may grow
      this.fill += n;
      off += n;
      if (this.fill === kBatchBytes) this.flush();
    }
  }
  flush(): void {
    if (this.fill === 0) return;
    const n = this.fill;
    this.fill = 0;
    this.s.pushStaged(n);
  }
}

async function open(req: OpenRequest): Promise<OpenResult> {
  if (session) throw new WorkerFailure('internal', 'This worker already holds a file.');
  cancelled = false;
  const t0 = performance.now();
  const size = req.blob?.size ?? req.buffer?.byteLength ?? null;
  const progress = (phase: Progress['phase'], src: { rawBytes(): number; totalBytes: number | null } | null, input: number) => {
    const secs = (performance.now() - t0) / 1000;
    const bytesRead = src?.rawBytes() ?? 0;
    const total = src?.totalBytes ?? size;
    const rate = secs > 0 ? bytesRead / secs : 0;
    const msg: Progress = {
      kind: 'progress', id: req.id, phase, bytesRead, totalBytes: total, inputBytes: input,
      events: session ? session.eventsSoFar() : 0, mbPerSec: rate / 1e6,
      secondsLeft: total && rate > 0 && bytesRead > 0 ? Math.max(0, (total - bytesRead) / rate) : null,
    };
    post(msg);
  };
  progress('loading', null, 0);
  // The first slice is read (and for gzip the size hint found) while the wasm module compiles.
  const opening = openSource(req).catch((e) => {
    if (e instanceof SourceError) throw new WorkerFailure(e.code, e.message);
    throw e;
  });
  opening.catch(() => {});  // handled by the await below; not an unhandled rejection meanwhile
  let m: any;
  try {
    m = await loadModule();
  } catch (e) {
    void opening.then((s) => s.input.cancel(), () => {});
    throw e;
  }
  mod = m;
  const src = await opening;
  const limit = src.gzip ? kMaxGzipBytes : kMaxPlainBytes;
  if (src.totalBytes !== null && src.totalBytes > limit) {
    await src.input.cancel().catch(() => {});
    throw new WorkerFailure('too_large', `${req.name} is too large for the browser (${(src.totalBytes / 2 ** 30).toFixed(1)} GiB; ` +
      `the limit is about ${(limit / 2 ** 30).toFixed(1)} GiB${src.gzip ? ' compressed' : ''}). Use the command-line tool: tracewise summarize FILE.`);
  }
  session = new m.Session(req.name);
  session.setSizeHint(await src.sizeHint());
  const pusher = new HeapPusher(m, session);
  const warnings: string[] = [];
  let input = 0;
  let last = 0;
  try {
    for (;;) {
      let r: ReadableStreamReadResult<Uint8Array>;
      try {
        r = await src.input.read();
      } catch (e) {
        if (e instanceof SourceError) throw new WorkerFailure(e.code, e.message);
        if (src.gzip && !cancelled) {
          // DecompressionStream rejects truncated or corrupt data at the point it notices: keep what came before.
          warnings.push('The gzip data ends early or is corrupt; what was decompressed before that point is loaded.');
          break;
        }
        throw e;
      }
      if (cancelled) throw new WorkerFailure('cancelled', 'Loading was cancelled.');
      if (r.done) break;
      pusher.write(r.value);
      input += r.value.length;
      if (session.failed()) break;  // not a trace: stop reading at once
      const now = performance.now();
      if (now - last > kProgressEveryMs) { last = now; progress('reading', src, input); }
    }
    pusher.flush();
    progress('finishing', src, input);
    // The size as given, like the CLI's (a download's size is what arrived).
    session.setFileBytes(size ?? src.rawBytes());
    session.finish();
  } catch (e) {
    await src.input.cancel().catch(() => {});
    if (e instanceof WorkerFailure) throw e;
    if (isOutOfMemory(e)) {
      throw new WorkerFailure('out_of_memory', `Out of memory after ${(input / 1e6).toFixed(0)} MB of ${req.name}: ` +
        'the browser would not give the analyzer more memory. Use the command-line tool (tracewise summarize FILE) for this trace.');
    }
    throw e;
  }
  if (session.failed()) throw new WorkerFailure('not_trace', String(session.error()));
  source = { blob: src.keep(), gzip: src.gzip };
  opened = true;
  return {
    name: req.name, fileBytes: size ?? src.rawBytes(), inputBytes: input, events: session.eventsSoFar(), gzip: src.gzip,
    seconds: (performance.now() - t0) / 1000, modelBytes: session.modelBytes(), heapBytes: m.HEAPU8.length, warnings,
    reader: src.reader,
  };
}

async function dispatch(req: Request): Promise<{ payload: Record<string, unknown>; transfer?: Transferable[] }> {
  switch (req.kind) {
    case 'open':
      return { payload: { result: await open(req) } };
    case 'cancel':
      cancelled = true;
      return { payload: {} };
    case 'summary': {
      if (!opened) throw new WorkerFailure('no_file', 'No file is open.');
      return { payload: { json: String(session.summaryJson(!!req.htaCompat)) } };
    }
    case 'tracks': case 'window': case 'event': case 'search': case 'aggregate': {
      if (!opened) throw new WorkerFailure('no_file', 'No file is open.');
      const out = (await handleTimelineRequest({ mod, session, source }, req)) ?? {};
      // Never transfer the wasm heap itself (that would detach it): only copies made for the reply.
      const transfer = transferablesOf(out).filter((b) => b !== mod.HEAPU8.buffer);
      return { payload: typeof out === 'object' ? out : { value: out }, transfer };
    }
    default:
      throw new WorkerFailure('internal', `Unknown request kind "${String((req as { kind: unknown }).kind)}".`);
  }
}

self.onmessage = async (ev: MessageEvent<Request>) => {
  const req = ev.data;
  try {
    const { payload, transfer } = await dispatch(req);
    post({ ...payload, id: req.id, kind: 'ok' }, transfer ?? []);
  } catch (e) {
    const code: ErrorCode = e instanceof WorkerFailure ? e.code : isOutOfMemory(e) ? 'out_of_memory' : 'internal';
    const message = e instanceof WorkerFailure ? e.message : `Internal error: ${String((e as Error)?.message ?? e)}`;
    post({ id: req?.id ?? 0, kind: 'error', code, message });
  }
};
