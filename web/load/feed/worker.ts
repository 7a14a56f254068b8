// The feed worker: a nested worker of the trace worker that reads a local file (Blob.stream()) and,
// for gzip, inflates it, then hands the bytes over in batches of a few MB, transferring the
// browser's own buffers (no copy). Reading, and inflating gzip, cost the browser CPU of the same
// order as the parse: on the parser's thread they would take turns; here they overlap on another
// core (docs/performance.md, "Feed worker"). Flow control by credits: at most kCredits batches are
// unacknowledged, so a fast reader never queues gigabytes in the parser. A plain file is read into
// batch buffers that the trace worker hands back once it has copied them (`recycle`; see
// ../input/blob_stream.ts for the gain; a browser without byte streams hands out its own chunks instead).
// gzip is inflated by the core's own inflater (core/inflate in wasm: ../input/core_gunzip.ts), or by
// DecompressionStream in a site built without 'inflate' or when the core cannot load.
// Messages: ./protocol.ts.
import type { CoreModule } from '../../core/bindings';
import { loadModule } from '../../core/module';
import { blobStream, BufferPool, kBatchBytes, kFirstBatchBytes } from '../input/blob_stream';
import { coreGunzip } from '../input/core_gunzip';
import { gunzip, InputFailure } from '../input/gunzip';
import { without } from '../switches';
import type { FeedReply, FeedRequest } from './protocol';
import { workerScope } from '../port';

const kCredits = 4;

const scope = workerScope<FeedRequest, FeedReply>();
// The batch buffers of a plain file's read and of the core's inflater (DecompressionStream and
// browsers without byte streams never take one, so a buffer made means the chunks sent are the pool's).
const pool = new BufferPool(kBatchBytes, kCredits + 2);
let credits = kCredits;
let wake: (() => void) | null = null;
let cancelled = false;
let raw = 0;
// When the read began and the time spent waiting for credits (the importer behind): `timing` of `done`.
let startedAt = 0;
let creditWaitMs = 0;
const now = () => performance.timeOrigin + performance.now();

// The core, for its inflater: loaded at the start of a gzip file (the module is compiled once for the
// page's workers; loading it ahead, for every file, made plain loads slower). null: DecompressionStream.
let core: Promise<CoreModule | null> | null = null;
const coreForGzip = (): Promise<CoreModule | null> =>
  without('inflate') ? Promise.resolve(null) : (core ??= loadModule().catch(() => null));

function own(chunk: Uint8Array): Uint8Array {
  // Transfer only a buffer the chunk covers whole; anything else is copied out.
  return chunk.byteOffset === 0 && chunk.byteLength === chunk.buffer.byteLength ? chunk : chunk.slice();
}

async function send(batch: Uint8Array[]): Promise<void> {
  if (credits === 0 && !cancelled) {
    const t = now();
    while (credits === 0 && !cancelled)
      await new Promise<void>((ok) => {
        wake = ok;
      });
    creditWaitMs += now() - t;
  }
  if (cancelled || batch.length === 0) return;
  credits--;
  const chunks = batch.map(own);
  const recycle = pool.allocated > 0;
  scope.postMessage(
    { kind: 'data', chunks, raw, recycle },
    chunks.map((c) => c.buffer as ArrayBuffer)
  );
}

async function run(blob: Blob, gzip: boolean): Promise<void> {
  startedAt = now();
  const count = (n: number) => {
    raw += n;
  };
  const mod = gzip ? await coreForGzip() : null;
  const inflated = !gzip ? null : mod ? coreGunzip(mod, blob.stream(), count, pool) : gunzip(blob.stream(), count);
  const reader =
    inflated?.reader ?? blobStream(blob, (e) => new InputFailure(e), count, pool, kFirstBatchBytes).getReader();
  let batch: Uint8Array[] = [];
  let size = 0;
  let want = kFirstBatchBytes; // a small first batch, gzip's too: the importer begins sooner (../input/blob_stream.ts)
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || cancelled) break;
      batch.push(value);
      size += value.length;
      if (size >= want) {
        want = kBatchBytes;
        await send(batch);
        batch = [];
        size = 0;
      }
    }
    await send(batch);
    if (!cancelled) {
      const inflater = !gzip ? null : mod ? 'core' : 'DecompressionStream';
      const heapBytes = mod ? mod.HEAPU8.length : null;
      const timing = {
        startedAt,
        endedAt: now(),
        creditWaitSeconds: creditWaitMs / 1000,
        inflater,
        heapBytes,
      } as const;
      const buffers = pool.allocated > 0 ? pool.allocated : null;
      scope.postMessage({ kind: 'done', raw, buffers, timing, damage: inflated?.damage ?? [] });
    }
  } catch (e) {
    await send(batch);
    const input = e instanceof InputFailure;
    const cause = input ? (e as InputFailure).reason : e;
    scope.postMessage({ kind: 'error', input, raw, message: String((cause as Error)?.name ?? cause) });
  }
}

scope.onmessage = (ev) => {
  const m = ev.data;
  // Ahead, the buffers a plain file's read (or the core's inflater) fills in turn: a few MB held
  // until the open, for page faults not taken while it loads.
  if (m.kind === 'warm') void pool.fillAhead(kCredits + 2);
  else if (m.kind === 'start') void run(m.blob, m.gzip);
  else if (m.kind === 'ack') credits++;
  else if (m.kind === 'recycle') {
    pool.give(m.buffer);
    if (m.ack) credits++; // the batch's last buffer back: its acknowledgement too
  } else if (m.kind === 'cancel') cancelled = true;
  if (wake) {
    const w = wake;
    wake = null;
    w();
  }
};
