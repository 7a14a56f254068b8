// The trace worker's side of worker.ts: the bytes of a file (decompressed when gzip) as batches
// of chunks (../input/chunk_reader.ts), fed by a nested worker. Each batch is acknowledged, which lets the
// reader send another: when it is read, or for a batch of the reader's reused buffers, when its
// last chunk is given back. A read failure makes the read after the last batch throw
// `onInputError(name)`'s error; corrupt or truncated gzip data a plain Error.
import type { ChunkReader } from '../input/chunk_reader';
import type { FeedReply, FeedRequest, ReaderTiming } from './protocol';
import type { GzipDamage } from '../input/gzip_damage';
import { WorkersAhead } from '../warm/workers_ahead';
import type { TypedWorker } from '../port';

// The feed worker's replies, and its own failure (its script, a crash).
type Reply = FeedReply | { kind: 'broken'; message: string; raw: number };

// A feed worker started ahead by the spare trace worker's warm-up, so that an open does not wait
// for one to start (a started one answers at once).
const ahead = new WorkersAhead<FeedRequest, FeedReply>('feed.js', { kind: 'warm' });

export function startFeedWorkerAhead(): void {
  ahead.start(1);
}

// An open that reads without it (a download, or one thread asked for) lets it go.
export function dropFeedWorkerAhead(): void {
  ahead.drop();
}

// Resolves to null when this browser cannot start a worker from a worker, or the feed worker fails
// before its first reply (e.g. feed.js cannot be loaded): the caller then reads in its own thread.
export async function feedFromWorker(
  blob: Blob,
  gzip: boolean,
  onInputError: (name: string) => Error
): Promise<{
  input: ChunkReader;
  rawBytes: () => number;
  startedAhead: boolean;
  release: (chunk: Uint8Array) => void;
  readBuffers: () => number | null;
  timing: () => ReaderTiming | null;
  damage: () => GzipDamage[];
} | null> {
  let w: TypedWorker<FeedRequest, FeedReply>;
  let startedAhead = false;
  try {
    if (typeof Worker === 'undefined') return null;
    ({ worker: w, ahead: startedAhead } = ahead.take());
  } catch {
    return null;
  }
  const queue: Reply[] = [];
  let waiting: (() => void) | null = null;
  let raw = 0;
  let recycle = false; // the feed worker reuses the buffers it sends (a plain file's batches)
  let buffers: number | null = null; // batch buffers the feed worker made, once it is done
  let timing: ReaderTiming | null = null; // its read's timing, once it is done
  let damage: GzipDamage[] = []; // what was wrong with the gzip data, once it is done
  const ackWith = new Set<Uint8Array>(); // chunks whose release acknowledges their batch
  w.onmessage = (ev) => {
    queue.push(ev.data);
    if (waiting) {
      const f = waiting;
      waiting = null;
      f();
    }
  };
  w.onerror = (ev) => {
    ev.preventDefault();
    queue.push({ kind: 'broken', message: ev.message || 'the file reader worker failed', raw });
    if (waiting) {
      const f = waiting;
      waiting = null;
      f();
    }
  };
  w.postMessage({ kind: 'start', blob, gzip });
  while (queue.length === 0)
    await new Promise<void>((ok) => {
      waiting = ok;
    });
  if (queue[0].kind === 'broken') {
    w.terminate();
    return null;
  }
  let ended = false;
  let end: Error | null = null; // what a read after the last batch throws (null: the input ended well)
  const input: ChunkReader = {
    async read() {
      while (!ended && queue.length === 0)
        await new Promise<void>((ok) => {
          waiting = ok;
        });
      if (ended) {
        if (end) throw end;
        return null;
      }
      const m = queue.shift()!;
      raw = m.raw;
      if (m.kind === 'data') {
        recycle = m.recycle;
        // A batch of the feed worker's own buffers is acknowledged when its last chunk goes back
        // (release): one message per batch instead of two.
        if (recycle && m.chunks.length > 0) ackWith.add(m.chunks[m.chunks.length - 1]);
        else w.postMessage({ kind: 'ack' });
        unreleased = m.chunks.length;
        return m.chunks;
      }
      w.terminate();
      ended = true;
      if (m.kind === 'done') {
        buffers = m.buffers;
        timing = m.timing;
        damage = m.damage;
      } else if (m.kind === 'error') end = m.input ? onInputError(m.message) : new Error(`gzip: ${m.message}`);
      else end = new Error(`The file reader worker failed: ${m.message}`);
      return input.read();
    },
    async cancel() {
      if (ended) return;
      ended = true;
      w.postMessage({ kind: 'cancel' });
      w.terminate();
      if (waiting) {
        const f = waiting;
        waiting = null;
        f();
      }
    },
  };
  // The chunks are this worker's alone (transferred in): once copied, a plain file's batch goes back
  // to the feed worker to be read into again. Any other chunk (the inflater's) is transferred into a
  // port whose other end is closed, which frees its memory at once instead of at this worker's next
  // GC. The feed worker's next chunks then reuse memory still in the cache (docs/performance.md,
  // "Inflater chunks").
  const sink = new MessageChannel();
  sink.port2.close();
  // The inflater's chunks of a batch are freed together once its last one is given back (the
  // importer gives back every chunk it reads, also when the file turns out not to be a trace; a
  // cancelled load's last batch is left to the GC with this worker's input): one message for ~32
  // buffers costs less than one each. Not in read(): the importer counts the time a read takes as
  // time spent waiting for the reader.
  let pending: ArrayBuffer[] = [];
  let unreleased = 0; // chunks of the last batch read not given back yet
  const release = (chunk: Uint8Array) => {
    const last = --unreleased <= 0;
    const ack = ackWith.delete(chunk);
    const whole = chunk.byteOffset === 0 && chunk.byteLength === chunk.buffer.byteLength;
    const buffer = chunk.buffer as ArrayBuffer;
    if (recycle && whole && !ended) {
      w.postMessage({ kind: 'recycle', buffer, ack }, [buffer]);
      return;
    }
    if (ack && !ended) w.postMessage({ kind: 'ack' });
    if (whole) pending.push(buffer);
    if (last && pending.length > 0) {
      sink.port1.postMessage(null, pending);
      pending = [];
    }
  };
  return {
    input,
    rawBytes: () => raw,
    startedAhead,
    release,
    readBuffers: () => buffers,
    timing: () => timing,
    damage: () => damage,
  };
}
