// The page's side of one trace worker: request(kind, payload) -> Promise of the reply, with
// progress messages routed to a callback; heapBytes is the largest wasm heap its replies reported.
import type {
  ErrorCode,
  HeapReport,
  Progress,
  Reply,
  TraceKind,
  TracePayloads,
  TraceReplies,
} from '../../worker/protocol';

export class WorkerError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string
  ) {
    super(message);
  }
}

export class WorkerClient {
  private readonly worker: Worker;
  private nextId = 1;
  // Each settles with the `ok` reply of its request's kind (TraceReplies), kept by id.
  private readonly pending = new Map<
    number,
    { resolve: (v: TraceReplies[TraceKind] & HeapReport) => void; reject: (e: Error) => void }
  >();
  private dead = false;
  // The worker's wasm heap at its largest so far, as its `ok` replies reported it after each request
  // (the open's, the summary's, the timeline's...): the heap never shrinks. 0 before any reply.
  private peakHeapBytes = 0;
  onProgress: (p: Progress) => void = () => {};

  constructor() {
    this.worker = new Worker(new URL('worker.js', document.baseURI), { type: 'module' });
    this.worker.onmessage = (ev: MessageEvent<Reply>) => this.receive(ev.data);
    this.worker.onerror = (ev) => {
      ev.preventDefault();
      this.failAll(new WorkerError('internal', `The analyzer stopped: ${ev.message || 'worker error'}`));
    };
  }

  request<K extends TraceKind>(
    kind: K,
    payload: TracePayloads[K],
    transfer: Transferable[] = []
  ): Promise<TraceReplies[K] & HeapReport> {
    if (this.dead) return Promise.reject(new WorkerError('cancelled', 'This file was closed.'));
    const id = this.nextId++;
    return new Promise<TraceReplies[K] & HeapReport>((resolve, reject) => {
      // The worker answers a request of kind K with K's reply (web/worker/worker.ts).
      this.pending.set(id, { resolve: resolve as (v: TraceReplies[TraceKind] & HeapReport) => void, reject });
      this.worker.postMessage({ ...payload, id, kind }, transfer);
    });
  }

  get heapBytes(): number {
    return this.peakHeapBytes;
  }

  get alive(): boolean {
    return !this.dead;
  }

  terminate(): void {
    if (this.dead) return;
    this.dead = true;
    this.worker.terminate();
    this.failAll(new WorkerError('cancelled', 'Loading was cancelled.'));
  }

  private receive(msg: Reply): void {
    if (msg.kind === 'progress') {
      this.onProgress(msg);
      return;
    }
    if (msg.kind === 'ok') this.peakHeapBytes = Math.max(this.peakHeapBytes, msg.heapBytes);
    const p = this.pending.get(msg.id);
    if (!p) return;
    this.pending.delete(msg.id);
    if (msg.kind === 'error') p.reject(new WorkerError(msg.code, msg.message));
    else p.resolve(msg);
  }

  private failAll(e: Error): void {
    for (const p of this.pending.values()) p.reject(e);
    this.pending.clear();
  }
}
