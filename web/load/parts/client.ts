// The trace worker's side of worker.ts: one nested worker per later part of a parts import
// (plan.ts). `result` resolves once the part is imported, to the part ready to be streamed in
// (stream.ts), or to null when the worker failed (it could not start, read, or get memory): the
// trace worker then reads that part itself.
import type { PartPlan, StreamedPart } from './plan';
import { WorkersAhead } from '../warm/workers_ahead';
import type { PartReply, PartRequest, PartTiming } from './protocol';
import type { TypedWorker } from '../port';

// Part workers started ahead by the spare trace worker's warm-up (as the feed worker is,
// ../feed/client.ts): each loads the core and runs the warm-up import while the page is idle, so a
// part neither waits for a worker and its module nor starts in V8's baseline tier.
const ahead = new WorkersAhead<PartRequest, PartReply>('part.js', { kind: 'warm' });

export function startPartWorkersAhead(n: number): void {
  ahead.start(n);
}

// An open that does not use them (or not all) lets them go.
export function dropPartWorkersAhead(): void {
  ahead.drop();
}

export class LaterPart {
  raw = 0; // file bytes read so far
  events = 0; // events imported so far
  timing: PartTiming | null = null;
  heapBytes: number | null = null; // the worker's wasm heap once it had imported its part (its peak)
  readonly result: Promise<StreamedPart | null>;
  private readonly worker: TypedWorker<PartRequest, PartReply>;
  readonly ahead: boolean; // started (and warmed) ahead
  private ended = false;
  private settle: (part: StreamedPart | null) => void = () => {};
  private write: ((chunk: Uint8Array) => boolean) | null = null;
  private received: (ok: boolean) => void = () => {};

  constructor(
    blob: Blob,
    readonly begin: number,
    readonly end: number,
    objectForm: boolean,
    last: boolean
  ) {
    ({ worker: this.worker, ahead: this.ahead } = ahead.take());
    this.result = new Promise<StreamedPart | null>((resolve) => {
      this.settle = resolve;
    });
    this.worker.onmessage = (ev) => {
      const m = ev.data;
      if (m.kind === 'failed') return this.stop();
      if (m.kind === 'chunk') {
        if (!this.write?.(new Uint8Array(m.buffer, 0, m.length))) return this.stop();
        this.worker.postMessage({ kind: 'more', buffer: m.buffer }, [m.buffer]);
        return;
      }
      if (m.kind === 'done') {
        this.timing = m.timing;
        return this.stop(true);
      }
      this.raw = m.raw;
      this.events = m.events;
      if (m.kind === 'imported') {
        this.heapBytes = m.heapBytes;
        this.settle({ header: m.header, sizes: m.sizes, receive: (write) => this.receive(write) });
      }
    };
    this.worker.onerror = (ev) => {
      ev.preventDefault();
      this.stop();
    };
    this.worker.postMessage({ kind: 'start', blob, begin, end, objectForm, last });
  }

  // Streams the imported part's columns to write(), in order; true once all came.
  private receive(write: (chunk: Uint8Array) => boolean): Promise<boolean> {
    if (this.ended) return Promise.resolve(false);
    this.write = write;
    const done = new Promise<boolean>((resolve) => {
      this.received = resolve;
    });
    this.worker.postMessage({ kind: 'send' });
    return done;
  }

  // Ends the worker (its heap goes at once): after its part came (ok), or on a failure or cancel,
  // which settle whatever waits for it with nothing.
  private stop(ok = false): void {
    if (this.ended) return;
    this.ended = true;
    this.worker.terminate();
    this.settle(null);
    this.received(ok);
  }

  cancel(): void {
    this.stop();
  }
}

// One part worker per later part, or null when this browser cannot start a worker from a worker.
export function startLaterParts(blob: Blob, plan: PartPlan): LaterPart[] | null {
  if (typeof Worker === 'undefined') return null;
  const parts: LaterPart[] = [];
  try {
    plan.starts.forEach((begin, k) => {
      const end = k + 1 < plan.starts.length ? plan.starts[k + 1] : blob.size;
      parts.push(new LaterPart(blob, begin, end, plan.objectForm, k + 1 === plan.starts.length));
    });
  } catch {
    parts.forEach((p) => p.cancel());
    return null;
  }
  return parts;
}
