// The trace worker: one per opened file. Loads the wasm core, streams the file into a Session in
// batches of a few MB (many short wasm calls get V8's optimised tier; see DESIGN.md), reports
// progress, and answers summary and timeline requests. Every request gets exactly one reply; an
// exception while handling it becomes an `error` reply with a readable message.
import type { ErrorCode, OpenRequest, OpenResult, Progress, Request, SummaryReply, TimelineContext } from './protocol';
import { type ByteSource, magicIsGzip, openSource, SourceError } from './byte_source';
import { handleTimelineRequest, transferablesOf } from './timeline_handlers';
import { DecodeHelper } from './decode_client';
import { HeapPusher } from './heap_pusher';
import { dropFeedWorkerAhead, startFeedWorkerAhead } from './feed_client';
import { prefaultWhileWaiting } from './prefault';
import { loadModule, ModuleLoadError } from './wasm_module';
import { stopWarmUp, warmedUp, warmUp } from './warm_up';
import { absorbPart, kPartsMinBytes, planParts, type PartPlan } from './parts';
import { dropPartWorkersAhead, type LaterPart, startLaterParts, startPartWorkersAhead } from './part_client';

// The wasm heap ends at 4 GB and the model needs roughly a third of the input size: refuse plain
// files that cannot fit before reading gigabytes of them.
const kMaxPlainBytes = 10 * 2 ** 30;
const kMaxGzipBytes = 1.5 * 2 ** 30;
const kProgressEveryMs = 100;
// From this much input on, and with 4+ cores, events are decoded by a decode worker beside this one
// (decode_client.ts): below it, starting that worker's core costs more than it saves. It takes
// ~37% of this thread's import work away (wasm in node, 256 MB Kineto: 795 -> 500 ms here, 382 ms
// there), but with the feed worker that makes three busy threads: on 2 cores it was slower
// (bench/HISTORY.md, sessions 3 and 8), so it is only used where each can have a core.
const kDecodeWorkerMinBytes = 32 << 20;
// Parts (parts.ts): from this many cores, at most this many parts (each a worker and a wasm heap).
// Both chosen: there is no machine with more than 2 cores to measure them on (bench/README.md).
const kPartsMinCores = 4;
const kMaxParts = 4;
const kDecodeWorkerMinCores = 4;

const post = (msg: unknown, transfer: Transferable[] = []) => (self as unknown as Worker).postMessage(msg, transfer);

class WorkerFailure extends Error {
  constructor(readonly code: ErrorCode, message: string) { super(message); }
}

let mod: any = null;
let session: any = null;
let source: TimelineContext['source'] = { gzip: false };
let cancelled = false;
let opened = false;  // the session finished importing without a fatal error
let summaryKept: { htaCompat: boolean; json: string } | null = null;  // the last one made
let later: LaterPart[] = [];  // the open's part workers, if it is in parts (a cancel stops them)

// The summary document of the opened session; the last one made is kept (the session never changes
// after the open), so the one made ahead (OpenRequest.summaryNext) answers the page's request.
function summaryReply(htaCompat: boolean): SummaryReply {
  if (summaryKept?.htaCompat === htaCompat) return { json: summaryKept.json, precomputed: true };
  summaryKept = { htaCompat, json: String(session.summaryJson(htaCompat)) };
  return { json: summaryKept.json, precomputed: false };
}

async function loadCore(): Promise<any> {
  try {
    return await loadModule();
  } catch (e) {
    if (e instanceof ModuleLoadError) throw new WorkerFailure('internal', e.message);
    throw e;
  }
}

// The heap's ceiling (-sMAXIMUM_MEMORY=4GB). Without C++ exceptions a failed allocation ends in a
// bare abort(); the core marks the module first (wasm/bindings.cc). Without the mark (an allocation
// outside C++'s new), an abort with the heap near its ceiling is taken as running out of memory.
const kHeapCeiling = 4 * 2 ** 30;

// The page shows it after "Out of memory: ".
const outOfMemory = (when: string) => `The browser would not give the analyzer more memory ${when}. ` +
  'Use the command-line tool (tracewise summarize FILE) for this trace.';

function isOutOfMemory(e: unknown): boolean {
  if (mod?.outOfMemory === true) return true;  // a failed allocation said so (wasm/bindings.cc)
  const text = String((e as Error)?.message ?? e);
  if (e instanceof RangeError || /OOM|out of memory|enlarge memory|allocation failed|bad_alloc/i.test(text)) return true;
  const heap = Number(mod?.HEAPU8?.length ?? 0);
  return /Aborted/.test(text) && heap >= 0.75 * kHeapCeiling;
}

// How many parts a large plain file is cut into (1: none) with this open's mode: asked for
// ('parts': tests, comparisons) at least two, of any size from 1 MB; else from kPartsMinCores.
function partsFor(mode: OpenRequest['workers']): number {
  const cores = navigator.hardwareConcurrency ?? 1;
  if (mode === 'parts') return Math.max(2, Math.min(kMaxParts, cores - 1));
  return (mode ?? 'auto') === 'auto' && cores >= kPartsMinCores ? Math.min(kMaxParts, cores - 1) : 1;
}

async function open(req: OpenRequest): Promise<OpenResult> {
  if (session) throw new WorkerFailure('internal', 'This worker already holds a file.');
  cancelled = false;
  later = [];
  const t0 = performance.now();
  const size = req.blob?.size ?? req.buffer?.byteLength ?? null;
  const progress = (phase: Progress['phase'], src: { rawBytes(): number; totalBytes: number | null; gzip: boolean } | null, input: number) => {
    const secs = (performance.now() - t0) / 1000;
    const bytesRead = src?.rawBytes() ?? 0;
    const total = src?.totalBytes ?? size;
    const rate = secs > 0 ? bytesRead / secs : 0;
    const msg: Progress = {
      kind: 'progress', id: req.id, phase, bytesRead, totalBytes: total, inputBytes: input,
      events: (session ? session.eventsSoFar() : 0) + later.reduce((n, p) => n + p.events, 0), mbPerSec: rate / 1e6,
      gzip: src?.gzip ?? false, inputMbPerSec: secs > 0 ? input / secs / 1e6 : 0,
      secondsLeft: total && rate > 0 && bytesRead > 0 ? Math.max(0, (total - bytesRead) / rate) : null,
    };
    post(msg);
  };
  progress('loading', null, 0);
  const mode = req.workers ?? 'auto';
  const cores = navigator.hardwareConcurrency ?? 1;
  // A large plain file is imported in parts by part workers beside this one (parts.ts) where each of
  // them and the reader can have a core: on 2 cores the reader, the browser's I/O and the parsers
  // already keep both busy, so parts only broke even there (1 GB 2.319 s without, 2.296 with;
  // 256 MB 0.618 / 0.612; bench/HISTORY.md, session 9) and cost heap. Finding the cuts needs the
  // core, so the module is loaded before the file is opened (a spare worker has it already).
  const inParts = req.blob !== undefined && req.blob.size <= kMaxPlainBytes && partsFor(mode) > 1 &&
    (mode === 'parts' || req.blob.size >= kPartsMinBytes);
  const openFile = (r: OpenRequest) => openSource(r).catch((e) => {
    if (e instanceof SourceError) throw new WorkerFailure(e.code, e.message);
    throw e;
  });
  // The file starts to be read (and for gzip the size hint found) while the wasm module compiles.
  let opening = inParts ? null : openFile(req);
  opening?.catch(() => {});  // handled by the await below; not an unhandled rejection meanwhile
  // A warm-up still running (a spare worker) stops at its next step (at most ~0.1 s) while the file opens.
  await stopWarmUp();
  const warm = warmedUp();
  let m: any;
  try {
    m = await loadCore();
  } catch (e) {
    void opening?.then((s) => s.input.cancel(), () => {});
    throw e;
  }
  mod = m;
  let plan: PartPlan | null = null;
  if (inParts) {
    const blob = req.blob!;
    // (A file that cannot be read is not cut: openFile() below reports it.)
    const plain = !(await magicIsGzip(blob).catch(() => true));
    plan = plain ? await planParts(m, blob, partsFor(mode), mode === 'parts' ? 1 << 20 : undefined).catch(() => null) : null;
    later = plan ? startLaterParts(blob, plan) ?? [] : [];
    if (later.length === 0) plan = null;
    opening = openFile(plan ? { ...req, blob: blob.slice(0, plan.starts[0]) } : req);
  }
  const src = await opening!;
  dropFeedWorkerAhead();  // taken by the source when it reads with one
  dropPartWorkersAhead();  // those not taken by the parts
  const limit = src.gzip ? kMaxGzipBytes : kMaxPlainBytes;
  if (src.totalBytes !== null && src.totalBytes > limit) {  // (never a first part: those are smaller)
    await src.input.cancel().catch(() => {});
    throw new WorkerFailure('too_large', `${req.name} is too large for the browser (${(src.totalBytes / 2 ** 30).toFixed(1)} GiB; ` +
      `the limit is about ${(limit / 2 ** 30).toFixed(1)} GiB${src.gzip ? ' compressed' : ''}). Use the command-line tool: tracewise summarize FILE.`);
  }
  session = new m.Session(req.name);
  const expected = plan ? size! : await src.sizeHint();
  session.setSizeHint(expected);  // with parts: the whole file's, so absorbing them copies no column
  const pusher = new HeapPusher(m, session);
  let helper: DecodeHelper | null = null;
  const autoDecode = (mode === 'auto' || mode === 'no-parts') && expected >= kDecodeWorkerMinBytes && cores >= kDecodeWorkerMinCores;
  if (!plan && (mode === 'all' || mode === 'decode' || autoDecode)) {
    try { helper = new DecodeHelper(m, session, mode === 'all'); } catch { helper = null; }  // no nested workers here: decode in this one
  }
  // Progress counts the later parts' bytes and events with this worker's.
  const laterRaw = () => later.reduce((n, p) => n + p.raw, 0);
  const progressSource = { rawBytes: () => src.rawBytes() + laterRaw() + refetched, totalBytes: plan ? size : src.totalBytes, gzip: src.gzip };
  const warnings: string[] = [];
  let input = 0;
  let refetched = 0;  // bytes of refused parts, read again here
  let last = 0;
  let finishSeconds = 0;
  let waitSeconds = 0;
  let partsSeconds = 0;
  let ownPartSeconds = 0;
  let absorbed = 0;
  let absorbedBytes = 0;  // (in progress, the part workers' own counts stand for them)
  let firstInputSeconds = 0;
  let prefaultPages = 0;
  // Pushes a source's bytes into the session until it ends (or the session failed).
  const pump = async (from: ByteSource, counted: (n: number) => void) => {
    for (;;) {
      let r: ReadableStreamReadResult<Uint8Array>;
      const tw = performance.now();
      try {
        if (!from.available()) prefaultPages += await prefaultWhileWaiting(session, () => cancelled || from.available());
        r = await from.input.read();
        waitSeconds += (performance.now() - tw) / 1000;
      } catch (e) {
        if (e instanceof SourceError) throw new WorkerFailure(e.code, e.message);
        if (from.gzip && !cancelled) {
          // DecompressionStream rejects truncated or corrupt data at the point it notices: keep what came before.
          warnings.push('The gzip data ends early or is corrupt; what was decompressed before that point is loaded.');
          return;
        }
        throw e;
      }
      if (cancelled) throw new WorkerFailure('cancelled', 'Loading was cancelled.');
      if (r.done) return;
      if (input === 0) firstInputSeconds = (performance.now() - t0) / 1000;
      pusher.write(r.value);
      input += r.value.length;
      counted(r.value.length);
      from.release(r.value);  // copied: its memory can go back to the reader (feed_client.ts)
      if (helper) await helper.step();
      if (session.failed()) return;  // not a trace: stop reading at once
      const now = performance.now();
      if (now - last > kProgressEveryMs) {
        last = now;
        progress('reading', progressSource, input + laterRaw());
      }
    }
  };
  try {
    await pump(src, () => {});
    pusher.flush();
    if (plan) {
      // Each later part in order: absorbed, or (refused, failed) read again here from where it began.
      const tp = performance.now();
      ownPartSeconds = (tp - t0) / 1000;
      progress('reading', progressSource, input + laterRaw());  // this worker's part is in
      for (let k = 0; k < later.length && !session.failed(); k++) {
        const part = await later[k].result;
        if (cancelled) throw new WorkerFailure('cancelled', 'Loading was cancelled.');
        if (part && absorbPart(m, session, part)) {
          absorbed++;
          absorbedBytes += later[k].end - later[k].begin;
          later[k].events = 0;  // counted by the session now
          continue;
        }
        const again = await openFile({ blob: req.blob!.slice(later[k].begin, later[k].end), name: req.name, id: req.id, kind: 'open', workers: 'single' });
        later[k].raw = 0;
        await pump(again, (n) => { refetched += n; });
        pusher.flush();
      }
      partsSeconds = (performance.now() - tp) / 1000;
    }
    if (helper) {
      session.endInput();
      await helper.drain();
      helper.close();  // not needed for finish(): its thread and heap go now
    }
    progress('finishing', progressSource, input + laterRaw());
    // The size as given, like the CLI's (a download's size is what arrived).
    session.setFileBytes(size ?? src.rawBytes());
    const tf = performance.now();
    session.finish();
    finishSeconds = (performance.now() - tf) / 1000;
  } catch (e) {
    helper?.close();  // terminating twice is harmless
    later.forEach((p) => p.cancel());
    await src.input.cancel().catch(() => {});
    if (e instanceof WorkerFailure) throw e;
    if (isOutOfMemory(e)) {
      throw new WorkerFailure('out_of_memory', outOfMemory(`after ${(input / 1e6).toFixed(0)} MB of ${req.name}`));
    }
    throw e;
  }
  later.forEach((p) => p.cancel());  // those not waited for (the session failed first)
  if (session.failed()) throw new WorkerFailure('not_trace', String(session.error()));
  source = { blob: plan ? req.blob : src.keep(), gzip: src.gzip };
  opened = true;
  return {
    name: req.name, fileBytes: size ?? src.rawBytes(), inputBytes: input + absorbedBytes, events: session.eventsSoFar(), gzip: src.gzip,
    seconds: (performance.now() - t0) / 1000, finishSeconds, waitSeconds, firstInputSeconds, prefaultPages, modelBytes: session.modelBytes(), heapBytes: m.HEAPU8.length, warnings,
    reader: src.reader, readerStartedAhead: src.readerStartedAhead, readBuffers: src.readBuffers(), decodeWorker: helper !== null, localBatches: helper?.localBatches ?? null, warm,
    parts: plan ? plan.starts.length + 1 : 1, absorbedParts: absorbed, partsSeconds, ownPartSeconds, partTimings: later.map((p) => p.timing),
    partsAhead: later.filter((p) => p.ahead).length,
  };
}

async function dispatch(req: Request): Promise<{ payload: Record<string, unknown>; transfer?: Transferable[] }> {
  switch (req.kind) {
    case 'open':
      return { payload: { result: await open(req) } };
    case 'cancel':
      cancelled = true;
      later.forEach((p) => p.cancel());
      return { payload: {} };
    case 'warm':  // sent to a spare worker before any open
      if (session) return { payload: { warmed: false } };
      startFeedWorkerAhead();
      startPartWorkersAhead(partsFor(req.workers) - 1);
      await warmUp(loadCore);
      return { payload: { warmed: warmedUp() } };
    case 'summary': {
      if (!opened) throw new WorkerFailure('no_file', 'No file is open.');
      return { payload: { ...summaryReply(!!req.htaCompat) } };
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
    if (req.kind === 'open' && opened && req.summaryNext) {
      // Made while the page handles the reply; a failure here is reported by the summary request.
      try { summaryReply(!!req.summaryNext.htaCompat); } catch { /* the summary request will */ }
    }
  } catch (e) {
    const oom = !(e instanceof WorkerFailure) && isOutOfMemory(e);
    const code: ErrorCode = e instanceof WorkerFailure ? e.code : oom ? 'out_of_memory' : 'internal';
    const message = e instanceof WorkerFailure ? e.message
      : oom ? outOfMemory(`for the ${String(req?.kind)} request`) : `Internal error: ${String((e as Error)?.message ?? e)}`;
    post({ id: req?.id ?? 0, kind: 'error', code, message });
  }
};
