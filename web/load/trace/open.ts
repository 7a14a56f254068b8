// The trace worker's open of one file: reads it (beside a feed worker, in parts with part workers,
// or alone, as ./open_plan.ts decides) into a new Session, reports progress,
// and finishes the model. Failures are WorkerFailures with the protocol's codes.
import type { OpenRequest, OpenResult, Progress, TimelineContext } from '../../worker/protocol';
import type { CoreModule, CoreSession } from '../../core/bindings';
import { loadModule, ModuleLoadError } from '../../core/module';
import { isGzipMagic } from '../input/byte_source';
import { dropFeedWorkerAhead } from '../feed/client';
import { absorbStreamed, planParts, type PartPlan } from '../parts/plan';
import { dropPartWorkersAhead, type LaterPart, startLaterParts } from '../parts/client';
import { stopWarmUp, warmedUp } from '../warm/warm_up';
import { cancelledFailure, isOutOfMemory, outOfMemory, WorkerFailure } from '../failure';
import { ImportPump, openInput } from './import_pump';
import { kMaxGzipBytes, kMaxPlainBytes, minPartBytes, partsFor, wantsParts } from './open_plan';

// What an open leaves for the requests after it: the finished session, and the source its events'
// bytes can be read again from (timeline details).
export interface OpenedTrace extends TimelineContext {
  result: OpenResult;
}

// One open per worker; a cancel stops the open's reads and its part workers.
let started = false;
let cancelled = false;
let later: LaterPart[] = [];

// Whether this worker has begun its open (a spare's late `warm` then does nothing).
export const openStarted = (): boolean => started;

export function cancelOpen(): void {
  cancelled = true;
  later.forEach((p) => p.cancel());
}

// The core, its load failure in the protocol's words.
export async function loadCore(): Promise<CoreModule> {
  try {
    return await loadModule();
  } catch (e) {
    if (e instanceof ModuleLoadError) throw new WorkerFailure('internal', e.message);
    throw e;
  }
}

// Progress as a message to the page: `src` counts the file bytes read so far (the later parts'
// with this worker's), `input` the bytes the importer has seen (decompressed).
type ProgressSource = { rawBytes(): number; totalBytes: number | null; gzip: boolean };
function progressOf(
  req: OpenRequest,
  t0: number,
  size: number | null,
  phase: Progress['phase'],
  src: ProgressSource | null,
  input: number,
  events: number
): Progress {
  const secs = (performance.now() - t0) / 1000;
  const bytesRead = src?.rawBytes() ?? 0;
  const total = src?.totalBytes ?? size;
  const rate = secs > 0 ? bytesRead / secs : 0;
  return {
    kind: 'progress',
    id: req.id,
    phase,
    bytesRead,
    totalBytes: total,
    inputBytes: input,
    events: events + later.reduce((n, p) => n + p.events, 0),
    mbPerSec: rate / 1e6,
    gzip: src?.gzip ?? false,
    inputMbPerSec: secs > 0 ? input / secs / 1e6 : 0,
    secondsLeft: total && rate > 0 && bytesRead > 0 ? Math.max(0, (total - bytesRead) / rate) : null,
  };
}

// Cuts a plain `blob` into parts and starts their part workers. `plan` is null when it stays whole
// (gzip, no cut found, no worker could start); `gzip` is what its first bytes say (undefined: they
// could not be read, and opening it reports that). Finding the cuts needs the core `m`.
async function startParts(
  m: CoreModule,
  blob: Blob,
  req: OpenRequest
): Promise<{ plan: PartPlan | null; gzip?: boolean }> {
  const head = await blob
    .slice(0, 64)
    .arrayBuffer()
    .catch(() => null);
  if (!head) return { plan: null };
  const gzip = isGzipMagic(new Uint8Array(head));
  const mode = req.workers ?? 'auto';
  const n = partsFor(mode, !!req.othersLoading);
  const plan = gzip ? null : await planParts(m, blob, n, minPartBytes(mode), head).catch(() => null);
  later = plan ? (startLaterParts(blob, plan) ?? []) : [];
  return { plan: later.length > 0 ? plan : null, gzip };
}

// Absorbs the later parts in order into the session; a part that was refused or failed is read
// again here from where it began (refetched(n) counts those bytes). Returns how many parts were
// absorbed and their bytes.
async function absorbLaterParts(
  m: CoreModule,
  session: CoreSession,
  blob: Blob,
  pump: ImportPump,
  refetched: (n: number) => void
): Promise<{ parts: number; bytes: number }> {
  const absorbed = { parts: 0, bytes: 0 };
  for (let k = 0; k < later.length && !session.failed(); k++) {
    const part = await later[k].result;
    if (cancelled) throw cancelledFailure();
    if (part && (await absorbStreamed(m, session, part))) {
      absorbed.parts++;
      absorbed.bytes += later[k].end - later[k].begin;
      later[k].events = 0; // counted by the session now
      continue;
    }
    if (cancelled) throw cancelledFailure(); // (a cancel also breaks off a stream)
    const again = await openInput({ blob: blob.slice(later[k].begin, later[k].end), workers: 'single' });
    later[k].raw = 0;
    await pump.pump(again, refetched);
  }
  return absorbed;
}

export async function openTrace(req: OpenRequest, post: (p: Progress) => void): Promise<OpenedTrace> {
  if (started) throw new WorkerFailure('internal', 'This worker already holds a file.');
  started = true;
  cancelled = false;
  later = [];
  const t0 = performance.now();
  const size = req.blob?.size ?? req.buffer?.byteLength ?? null;
  post(progressOf(req, t0, size, 'loading', null, 0, 0));
  const mode = req.workers ?? 'auto';
  const othersLoading = !!req.othersLoading;
  // A large plain file is imported in parts by part workers beside this one (../parts/plan.ts;
  // ./open_plan.ts says when). Finding the cuts needs the core, so the module is loaded before the
  // file is opened (a spare worker has it already); otherwise the file starts to be read (and for
  // gzip the size hint found) while the wasm module compiles.
  const inParts = req.blob !== undefined && wantsParts(mode, othersLoading, req.blob.size);
  let opening = inParts ? null : openInput(req);
  opening?.catch(() => {}); // handled by the await below; not an unhandled rejection meanwhile
  // A warm-up still running (a spare worker) stops at its next step while the file opens.
  await stopWarmUp();
  const warm = warmedUp();
  let m: CoreModule;
  try {
    m = await loadCore();
  } catch (e) {
    void opening?.then(
      (s) => s.input.cancel(),
      () => {}
    );
    throw e;
  }
  const { plan, gzip } = inParts ? await startParts(m, req.blob!, req) : { plan: null, gzip: undefined };
  if (inParts) opening = openInput({ ...req, gzip, blob: plan ? req.blob!.slice(0, plan.starts[0]) : req.blob });
  const src = await opening!;
  dropFeedWorkerAhead(); // taken by the source when it reads with one
  dropPartWorkersAhead(); // those not taken by the parts
  const limit = src.gzip ? kMaxGzipBytes : kMaxPlainBytes;
  if (src.totalBytes !== null && src.totalBytes > limit) {
    // (never a first part: those are smaller)
    await src.input.cancel().catch(() => {});
    throw new WorkerFailure(
      'too_large',
      `${req.name} is too large for the browser (${(src.totalBytes / 2 ** 30).toFixed(1)} GiB; ` +
        `the limit is about ${(limit / 2 ** 30).toFixed(1)} GiB${src.gzip ? ' compressed' : ''}). Use the command-line tool: tracewise summarize FILE.`
    );
  }
  const session = new m.Session(req.name);
  const guess = m.gzipSizeGuess.bind(m);
  const expected = plan ? size! : await src.sizeHint(guess);
  session.setSizeHint(expected); // with parts: the whole file's, so absorbing them copies no column
  // Progress counts the later parts' bytes and events with this worker's.
  let refetched = 0; // bytes of refused parts, read again here
  const laterRaw = () => later.reduce((n, p) => n + p.raw, 0);
  const progressSource = {
    rawBytes: () => src.rawBytes() + laterRaw() + refetched,
    totalBytes: plan ? size : src.totalBytes,
    gzip: src.gzip,
  };
  const progress = (phase: Progress['phase']) =>
    post(progressOf(req, t0, size, phase, progressSource, pump.input + laterRaw(), session.eventsSoFar()));
  const pump = new ImportPump(
    m,
    session,
    t0,
    () => cancelled,
    () => progress('reading')
  );
  let finishSeconds = 0;
  let partsSeconds = 0;
  let ownPartSeconds = 0;
  let absorbed = { parts: 0, bytes: 0 }; // (in progress, the part workers' own counts stand for them)
  try {
    // A gzip's size is known only modulo 4 GiB: once the ratio shows, the hint is made right, before
    // the tables' first projection (kMinSeen in core/import/growth_plan.h).
    let refined = plan !== null || !src.gzip;
    await pump.pump(src, () => {
      if (refined || pump.input < m.gzipRefineHintAt) return;
      refined = true;
      const better = src.refineSizeHint(guess, pump.input);
      if (better > 0) session.setSizeHint(better);
    });
    if (plan) {
      const tp = performance.now();
      ownPartSeconds = (tp - t0) / 1000;
      progress('reading'); // this worker's part is in
      absorbed = await absorbLaterParts(m, session, req.blob!, pump, (n) => {
        refetched += n;
      });
      partsSeconds = (performance.now() - tp) / 1000;
    }
    progress('finishing');
    // The size as given, like the CLI's (a download's size is what arrived).
    session.setFileBytes(size ?? src.rawBytes());
    const tf = performance.now();
    session.finish();
    finishSeconds = (performance.now() - tf) / 1000;
  } catch (e) {
    later.forEach((p) => p.cancel());
    await src.input.cancel().catch(() => {});
    if (e instanceof WorkerFailure) throw e;
    if (isOutOfMemory(m, e)) {
      throw new WorkerFailure('out_of_memory', outOfMemory(`after ${(pump.input / 1e6).toFixed(0)} MB of ${req.name}`));
    }
    throw e;
  }
  later.forEach((p) => p.cancel()); // those not waited for (the session failed first)
  if (session.failed()) throw new WorkerFailure('not_trace', String(session.error()));
  const result: OpenResult = {
    name: req.name,
    fileBytes: size ?? src.rawBytes(),
    inputBytes: pump.input + absorbed.bytes,
    events: session.eventsSoFar(),
    gzip: src.gzip,
    seconds: (performance.now() - t0) / 1000,
    finishSeconds,
    waitSeconds: pump.waitSeconds,
    firstInputSeconds: pump.firstInputSeconds,
    modelBytes: session.modelBytes(),
    heapBytes: m.HEAPU8.length,
    warnings: pump.warnings,
    reader: src.reader,
    readerStartedAhead: src.readerStartedAhead,
    readBuffers: src.readBuffers(),
    readerTiming: src.readerTiming(),
    warm,
    parts: plan ? plan.starts.length + 1 : 1,
    absorbedParts: absorbed.parts,
    partsSeconds,
    ownPartSeconds,
    partTimings: later.map((p) => p.timing),
    partHeapBytes: later.map((p) => p.heapBytes),
    partsAhead: later.filter((p) => p.ahead).length,
  };
  return { mod: m, session, source: { blob: plan ? req.blob : src.keep(), gzip: src.gzip }, result };
}
