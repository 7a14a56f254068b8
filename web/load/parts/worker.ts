// The part worker: a nested worker of the trace worker that imports one later part of a large plain
// file (plan.ts) in its own wasm heap, reading it itself (BYOB into reused buffers, as the feed
// worker does), then streams the part's columns to the trace worker when it asks (stream.ts)
// and is ended by it.
// Started ahead (client.ts), it first gets {kind:'warm'}: it loads the core and runs the
// warm-up import (../warm/warm_up.ts), which a 'start' stops at its next step; it also makes the stream's
// buffers then.
// Messages: ./protocol.ts.
import { blobStream, BufferPool, kBatchBytes, kFirstBatchBytes } from '../input/blob_stream';
import { HeapPusher } from '../input/heap_pusher';
import { ChunkSender } from './stream';
import { loadModule } from '../../core/module';
import { stopWarmUp, warmUp } from '../warm/warm_up';
import type { PartReply, PartRequest, PartStart } from './protocol';
import { workerScope } from '../port';

const scope = workerScope<PartRequest, PartReply>();
const kProgressEveryMs = 100;
let cancelled = false;

async function run(m: PartStart): Promise<void> {
  const t0 = performance.now();
  await stopWarmUp();
  const mod = await loadModule();
  const loaded = performance.now();
  const session = new mod.Session('part');
  try {
    session.setSizeHint(m.end - m.begin);
    session.beginLaterPart(m.begin, m.objectForm);
    let raw = 0;
    let last = 0;
    const fail = (e: unknown) => new Error(`could not read the file (${String((e as Error)?.name ?? e)})`);
    const reader = blobStream(
      m.blob.slice(m.begin, m.end),
      fail,
      (n) => {
        raw += n;
      },
      readPool,
      kFirstBatchBytes
    ).getReader();
    const pusher = new HeapPusher(mod, session);
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (cancelled) {
        await reader.cancel().catch(() => {});
        return;
      }
      pusher.write(value);
      readPool.give(value.buffer as ArrayBuffer); // copied: read into it again
      const now = performance.now();
      if (now - last > kProgressEveryMs) {
        last = now;
        scope.postMessage({ kind: 'progress', raw, events: session.eventsSoFar() });
      }
    }
    pusher.flush();
    if (m.last) session.endInput();
    const events = session.eventsSoFar();
    const imported = performance.now();
    // The header is copied; the columns stay views into the heap, which no call into wasm grows
    // until they are streamed.
    const header = session.partHeader().slice();
    const views = session.partColumns();
    const heapBytes = mod.HEAPU8.length;
    scope.postMessage({ kind: 'imported', header, sizes: views.map((c) => c.length), raw, events, heapBytes }, [
      header.buffer,
    ]);
    await sender.send(views);
    const seconds = (t: number) => (t - t0) / 1000;
    scope.postMessage({
      kind: 'done',
      timing: { loaded: seconds(loaded), imported: seconds(imported), exported: seconds(performance.now()) },
    });
  } finally {
    session.delete();
  }
}

// The buffers the part is read into in turn, and the stream of its columns (stream.ts): both
// made ahead, at the warm-up, so that their pages are not faulted in during a load.
const readPool = new BufferPool(kBatchBytes, 2);
const sender = new ChunkSender((buffer, length) => scope.postMessage({ kind: 'chunk', buffer, length }, [buffer]));

scope.onmessage = (ev) => {
  const m = ev.data;
  if (m.kind === 'warm') {
    sender.prepare();
    void readPool.fillAhead(2);
    void warmUp(loadModule, 1).catch(() => {}); // it only saves time (one round: ../warm/warm_up.ts)
  } else if (m.kind === 'send') {
    sender.ask();
  } else if (m.kind === 'more') {
    sender.giveBack(m.buffer);
  } else if (m.kind === 'start') {
    run(m).catch((e) => scope.postMessage({ kind: 'failed', message: String((e as Error)?.message ?? e) }));
  } else if (m.kind === 'cancel') {
    cancelled = true;
  }
};
