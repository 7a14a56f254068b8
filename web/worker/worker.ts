// The trace worker: one per opened file. Loads the wasm core, streams the file into a Session in
// batches of a few MB (many short wasm calls get V8's optimised tier, which V8 swaps in between
// calls), reports progress, and answers summary and timeline requests. Every request gets exactly one reply; an
// exception while handling it becomes an `error` reply with a readable message.
import type { ErrorCode, OpenRequest, OpenResult, Progress, Request, SummaryPart, SummaryReply, TimelineContext } from './protocol';
import { isGzipMagic } from '../load/input/byte_source';
import { handleTimelineRequest, transferablesOf } from './timeline_handlers';
import { DecodeHelper } from '../load/decode/client';
import { dropFeedWorkerAhead, startFeedWorkerAhead } from '../load/feed/client';
import { ImportPump, openInput } from '../load/trace/import_pump';
import { kMaxGzipBytes, kMaxPlainBytes, minPartBytes, partsFor, wantsDecodeWorker, wantsParts } from '../load/trace/open_plan';
import { loadModule, ModuleLoadError } from '../core/module';
import { heapAheadPages, stopWarmUp, warmedUp, warmSummaryJson, warmUp } from '../load/warm/warm_up';
import { heapAheadBudget, heapAheadTarget } from '../load/warm/heap_ahead';
import { absorbStreamed, planParts, type PartPlan } from '../load/parts/plan';
import { dropPartWorkersAhead, holdPartWorkersAhead, type LaterPart, startLaterParts, startPartWorkersAhead } from '../load/parts/client';
import { holdFor } from '../load/warm/hold';
import { cancelledFailure, isOutOfMemory, outOfMemory, WorkerFailure } from '../load/failure';
import type { CoreModule, CoreSession } from '../core/bindings';

const post = (msg: unknown, transfer: Transferable[] = []) => (self as unknown as Worker).postMessage(msg, transfer);

let mod: CoreModule | null = null;
let session: CoreSession | null = null;
let source: TimelineContext['source'] = { gzip: false };
let cancelled = false;
let opened = false;  // the session finished importing without a fatal error
let summaryKept: { htaCompat: boolean; json: string } | null = null;  // the last one made
let later: LaterPart[] = [];  // the open's part workers, if it is in parts (a cancel stops them)

// The summary document of the opened session; the last one made is kept (the session never changes
// after the open), so the one made ahead (OpenRequest.summaryNext) answers the page's request.
// `onPart`: given each group of sections as soon as it is final (SummaryPart).
function summaryReply(htaCompat: boolean, onPart?: (json: string) => void): SummaryReply {
  const { mod, session } = openedCore();
  const precomputed = summaryKept?.htaCompat === htaCompat;
  if (!precomputed) {
    const json = onPart ? session.summaryJsonWithParts(htaCompat, (part: string) => onPart(part)) : session.summaryJson(htaCompat);
    summaryKept = { htaCompat, json: String(json) };
  }
  return { json: summaryKept!.json, precomputed, heapUsedBytes: Number(mod.heapBreak()) };
}

// The module and session of the open file (requests that need them come after an open).
function openedCore(): { mod: CoreModule; session: CoreSession } {
  if (!mod || !session) throw new WorkerFailure('no_file', 'No file is open.');
  return { mod, session };
}

async function loadCore(): Promise<CoreModule> {
  try {
    return await loadModule();
  } catch (e) {
    if (e instanceof ModuleLoadError) throw new WorkerFailure('internal', e.message);
    throw e;
  }
}

// Progress of the open `req` (started at t0, of `size` bytes if known) as a message to the page:
// `src` counts the bytes read so far (the later parts' with this worker's), `input` the bytes the
// importer has seen (decompressed).
type ProgressSource = { rawBytes(): number; totalBytes: number | null; gzip: boolean };
function postProgress(req: OpenRequest, t0: number, size: number | null, phase: Progress['phase'], src: ProgressSource | null, input: number): void {
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
}

// Cuts a plain `blob` into parts and starts their part workers. `plan` is null when it stays whole
// (gzip, no cut found, no worker could start); `gzip` is what its first bytes say (undefined: they
// could not be read, and opening it reports that). Finding the cuts needs the core `m`.
async function startParts(m: CoreModule, blob: Blob, mode: OpenRequest['workers']): Promise<{ plan: PartPlan | null; gzip?: boolean }> {
  const head = await blob.slice(0, 64).arrayBuffer().catch(() => null);
  if (!head) return { plan: null };
  const gzip = isGzipMagic(new Uint8Array(head));
  const plan = gzip ? null : await planParts(m, blob, partsFor(mode), minPartBytes(mode), head).catch(() => null);
  later = plan ? startLaterParts(blob, plan) ?? [] : [];
  return { plan: later.length > 0 ? plan : null, gzip };
}

// Absorbs the later parts in order into the session; a part that was refused or failed is read
// again here from where it began (refetched(n) counts those bytes). Returns how many parts were
// absorbed and their bytes.
async function absorbLaterParts(m: CoreModule, req: OpenRequest, pump: ImportPump, refetched: (n: number) => void): Promise<{ parts: number; bytes: number }> {
  const absorbed = { parts: 0, bytes: 0 };
  const { session } = openedCore();
  for (let k = 0; k < later.length && !session.failed(); k++) {
    const part = await later[k].result;
    if (cancelled) throw cancelledFailure();
    if (part && await absorbStreamed(m, session, part)) {
      absorbed.parts++;
      absorbed.bytes += later[k].end - later[k].begin;
      later[k].events = 0;  // counted by the session now
      continue;
    }
    if (cancelled) throw cancelledFailure();  // (a cancel also breaks off a stream)
    const again = await openInput({ blob: req.blob!.slice(later[k].begin, later[k].end), workers: 'single' });
    later[k].raw = 0;
    await pump.pump(again, refetched);
  }
  return absorbed;
}

async function open(req: OpenRequest): Promise<OpenResult> {
  if (session) throw new WorkerFailure('internal', 'This worker already holds a file.');
  cancelled = false;
  later = [];
  const t0 = performance.now();
  const size = req.blob?.size ?? req.buffer?.byteLength ?? null;
  postProgress(req, t0, size, 'loading', null, 0);
  const mode = req.workers ?? 'auto';
  // A large plain file is imported in parts by part workers beside this one (../load/parts/plan.ts; ../load/trace/open_plan.ts
  // says when). Finding the cuts needs the core, so the module is loaded before the file is opened
  // (a spare worker has it already); otherwise the file starts to be read (and for gzip the size
  // hint found) while the wasm module compiles.
  const inParts = req.blob !== undefined && wantsParts(mode, req.blob.size);
  let opening = inParts ? null : openInput(req);
  opening?.catch(() => {});  // handled by the await below; not an unhandled rejection meanwhile
  // A warm-up still running (a spare worker) stops at its next step while the file opens.
  await stopWarmUp();
  const warm = warmedUp();
  let m: CoreModule;
  try {
    m = await loadCore();
  } catch (e) {
    void opening?.then((s) => s.input.cancel(), () => {});
    throw e;
  }
  mod = m;
  const { plan, gzip } = inParts ? await startParts(m, req.blob!, mode) : { plan: null, gzip: undefined };
  if (inParts) opening = openInput({ ...req, gzip, blob: plan ? req.blob!.slice(0, plan.starts[0]) : req.blob });
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
  let helper: DecodeHelper | null = null;
  if (!plan && wantsDecodeWorker(mode, expected)) {
    try { helper = new DecodeHelper(m, session, mode === 'all'); } catch { helper = null; }  // no nested workers here: decode in this one
  }
  // Progress counts the later parts' bytes and events with this worker's.
  let refetched = 0;  // bytes of refused parts, read again here
  const laterRaw = () => later.reduce((n, p) => n + p.raw, 0);
  const progressSource = { rawBytes: () => src.rawBytes() + laterRaw() + refetched, totalBytes: plan ? size : src.totalBytes, gzip: src.gzip };
  const progress = (phase: Progress['phase']) => postProgress(req, t0, size, phase, progressSource, pump.input + laterRaw());
  const pump = new ImportPump(m, session, helper, t0, () => cancelled, () => progress('reading'));
  let finishSeconds = 0;
  let partsSeconds = 0;
  let ownPartSeconds = 0;
  let absorbed = { parts: 0, bytes: 0 };  // (in progress, the part workers' own counts stand for them)
  try {
    await pump.pump(src);
    if (plan) {
      const tp = performance.now();
      ownPartSeconds = (tp - t0) / 1000;
      progress('reading');  // this worker's part is in
      absorbed = await absorbLaterParts(m, req, pump, (n) => { refetched += n; });
      partsSeconds = (performance.now() - tp) / 1000;
    }
    if (helper) {
      session.endInput();
      await helper.drain();
      helper.close();  // not needed for finish(): its thread and heap go now
    }
    progress('finishing');
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
    if (isOutOfMemory(mod, e)) {
      throw new WorkerFailure('out_of_memory', outOfMemory(`after ${(pump.input / 1e6).toFixed(0)} MB of ${req.name}`));
    }
    throw e;
  }
  later.forEach((p) => p.cancel());  // those not waited for (the session failed first)
  if (session.failed()) throw new WorkerFailure('not_trace', String(session.error()));
  source = { blob: plan ? req.blob : src.keep(), gzip: src.gzip };
  opened = true;
  return {
    name: req.name, fileBytes: size ?? src.rawBytes(), inputBytes: pump.input + absorbed.bytes, events: session.eventsSoFar(), gzip: src.gzip,
    seconds: (performance.now() - t0) / 1000, finishSeconds, waitSeconds: pump.waitSeconds, firstInputSeconds: pump.firstInputSeconds,
    prefaultPages: pump.prefaultPages, heapAheadPages: heapAheadPages(), modelBytes: session.modelBytes(), heapBytes: m.HEAPU8.length, warnings: pump.warnings,
    reader: src.reader, readerStartedAhead: src.readerStartedAhead, readBuffers: src.readBuffers(), readerTiming: src.readerTiming(), decodeWorker: helper !== null, localBatches: helper?.localBatches ?? null, warm,
    parts: plan ? plan.starts.length + 1 : 1, absorbedParts: absorbed.parts, partsSeconds, ownPartSeconds, partTimings: later.map((p) => p.timing),
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
      await warmUp(loadCore, heapAheadBudget(heapAheadTarget(req.heapAheadBytes)));
      return { payload: { warmed: warmedUp(), summaryJson: warmSummaryJson() } };
    case 'hold':
      holdFor(req.ms);
      holdPartWorkersAhead(req.ms);
      return { payload: {} };
    case 'summary': {
      if (!opened) throw new WorkerFailure('no_file', 'No file is open.');
      return { payload: { ...summaryReply(!!req.htaCompat) } };
    }
    case 'tracks': case 'window': case 'event': case 'search': case 'aggregate': {
      if (!opened) throw new WorkerFailure('no_file', 'No file is open.');
      const core = openedCore();
      const out = await handleTimelineRequest({ ...core, source }, req);
      // Never transfer the wasm heap itself (that would detach it): only copies made for the reply.
      const transfer = transferablesOf(out).filter((b) => b !== core.mod.HEAPU8.buffer);
      return { payload: { ...out }, transfer };
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
      const htaCompat = !!req.summaryNext.htaCompat;
      const onPart = (json: string) => post({ kind: 'summaryPart', id: req.id, htaCompat, json } satisfies SummaryPart);
      try { summaryReply(htaCompat, onPart); } catch { /* the summary request will */ }
    }
  } catch (e) {
    const oom = !(e instanceof WorkerFailure) && isOutOfMemory(mod, e);
    const code: ErrorCode = e instanceof WorkerFailure ? e.code : oom ? 'out_of_memory' : 'internal';
    const message = e instanceof WorkerFailure ? e.message
      : oom ? outOfMemory(`for the ${String(req?.kind)} request`) : `Internal error: ${String((e as Error)?.message ?? e)}`;
    post({ id: req?.id ?? 0, kind: 'error', code, message });
  }
};
