// The part worker: a nested worker of the trace worker that imports one later part of a large plain
// file (parts.ts) in its own wasm heap, reading it itself (BYOB into reused buffers, as the feed
// worker does), then hands the part over as bytes and ends.
// Started ahead (part_client.ts), it first gets {kind:'warm'}: it loads the core and runs the
// warm-up import (warm_up.ts), which a 'start' stops at its next step.
// Messages: in  {kind:'warm', heapAheadBytes} | {kind:'hold', ms} (hold.ts) | {kind:'start', blob, begin, end, objectForm, last} | {kind:'cancel'}
//           out {kind:'progress', raw, events} | {kind:'done', part, raw, events, timing} | {kind:'failed', message}
//           (timing: seconds from the start message to the module loaded, the part imported, and exported)
import { blobStream, BufferPool } from './blob_stream';
import { HeapPusher } from './heap_pusher';
import { exportPart } from './parts';
import { loadModule } from './wasm_module';
import { stopWarmUp, warmUp } from './warm_up';
import { holdFor } from './hold';

interface Start { kind: 'start'; blob: Blob; begin: number; end: number; objectForm: boolean; last: boolean }

const scope = self as unknown as Worker;
const kBatchBytes = 2 << 20;
const kProgressEveryMs = 100;
let cancelled = false;

async function run(m: Start): Promise<void> {
  const t0 = performance.now();
  await stopWarmUp();
  const mod = await loadModule();
  const loaded = performance.now();
  const session = new mod.Session('part');
  try {
    session.setSizeHint(m.end - m.begin);
    session.beginLaterPart(m.begin, m.objectForm);
    const pool = new BufferPool(kBatchBytes, 2);
    let raw = 0;
    let last = 0;
    const fail = (e: unknown) => new Error(`could not read the file (${String((e as Error)?.name ?? e)})`);
    const reader = blobStream(m.blob.slice(m.begin, m.end), fail, (n) => { raw += n; }, pool).getReader();
    const pusher = new HeapPusher(mod, session);
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (cancelled) { await reader.cancel().catch(() => {}); return; }
      pusher.write(value);
      pool.give(value.buffer as ArrayBuffer);  // copied: read into it again
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
    const part = exportPart(session);
    const seconds = (t: number) => (t - t0) / 1000;
    const timing = { loaded: seconds(loaded), imported: seconds(imported), exported: seconds(performance.now()) };
    scope.postMessage({ kind: 'done', part, raw, events, timing }, [part.header.buffer, ...part.columns.map((c) => c.buffer)]);
  } finally {
    session.delete();
  }
}

scope.onmessage = (ev: MessageEvent<Start | { kind: 'cancel' } | { kind: 'warm'; heapAheadBytes?: number } | { kind: 'hold'; ms: number }>) => {
  const m = ev.data;
  if (m.kind === 'warm') {
    void warmUp(loadModule, m.heapAheadBytes ?? 0).catch(() => {});  // it only saves time
  } else if (m.kind === 'hold') {
    holdFor(m.ms);
  } else if (m.kind === 'start') {
    run(m).catch((e) => scope.postMessage({ kind: 'failed', message: String((e as Error)?.message ?? e) }));
  } else if (m.kind === 'cancel') {
    cancelled = true;
  }
};
