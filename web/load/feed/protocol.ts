import type { GzipDamage } from '../input/gzip_damage';

// The messages between a trace worker and its feed worker (feed.js, ./worker.ts).
// A plain file is read into batch buffers the trace worker gives back once copied (`recycle`); the
// last buffer of a batch carries its acknowledgement. Anything else is acknowledged with `ack`.

// The feed worker's own read of the trace worker's input, in epoch milliseconds
// (performance.timeOrigin + performance.now(), comparable with the page's Date.now()): when it began
// and when it had handed over its last batch (the file read to its end, and for gzip inflated), and
// how long of that it waited for credits (the importer behind). Against the moment the page turns
// ready, `endedAt` splits a load into the read and the tail after the last byte (bench/browser_bench.mjs).
// `inflater`: what inflated gzip (the core's own, or the browser's DecompressionStream); null: plain.
// `heapBytes`: the feed worker's own wasm heap when it ended (the core's inflater's; its peak, the
// heap never shrinks); null: it loaded no core (a plain file, DecompressionStream).
export interface ReaderTiming {
  startedAt: number;
  endedAt: number;
  creditWaitSeconds: number;
  inflater: 'core' | 'DecompressionStream' | null;
  heapBytes: number | null;
}

export type FeedRequest =
  | { kind: 'warm' } // started ahead: make the batch buffers now
  | { kind: 'start'; blob: Blob; gzip: boolean }
  | { kind: 'ack' } // a batch was read: one more may come
  | { kind: 'recycle'; buffer: ArrayBuffer; ack: boolean } // a batch buffer back, to read into again
  | { kind: 'cancel' };

export type FeedReply =
  | { kind: 'data'; chunks: Uint8Array[]; raw: number; recycle: boolean } // recycle: the chunks are pool buffers
  // damage: what was wrong with gzip data that still inflated (../input/gzip_damage.ts).
  | { kind: 'done'; raw: number; buffers: number | null; timing: ReaderTiming; damage: GzipDamage[] }
  // After every byte read before it. input: the file could not be read (else gzip data was bad).
  | { kind: 'error'; input: boolean; message: string; raw: number };
