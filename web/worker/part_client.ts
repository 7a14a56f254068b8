// The trace worker's side of part_worker.ts: one nested worker per later part of a parts import
// (parts.ts). `result` resolves to the part's bytes, or to null when the worker failed (it could not
// start, read, or get memory): the trace worker then reads that part itself.
import type { PartBytes, PartPlan } from './parts';
import { WorkersAhead } from './workers_ahead';
import { heapAheadBudget } from './heap_ahead';

type Reply =
  | { kind: 'progress'; raw: number; events: number }
  | { kind: 'done'; part: PartBytes; raw: number; events: number; timing: PartTiming }
  | { kind: 'failed'; message: string };

// Seconds from the part worker's start message to: its module loaded, its part imported, exported.
export interface PartTiming { loaded: number; imported: number; exported: number }

// Part workers started ahead by the spare trace worker's warm-up (as the feed worker is,
// feed_client.ts): each loads the core and runs the warm-up import while the page is idle, so a
// part neither waits for a worker and its module (~60 ms) nor starts in V8's baseline tier.
const ahead = new WorkersAhead('part.js', { kind: 'warm' });

// Each also faults in its share of this much heap after its warm-up (heap_ahead.ts): the parts of a
// file together need about what the trace worker alone would, so they share one budget.
const kPartsHeapAheadBytes = 128 << 20;

export function startPartWorkersAhead(n: number): void {
  ahead.start(n, { kind: 'warm', heapAheadBytes: n > 0 ? Math.floor(heapAheadBudget(kPartsHeapAheadBytes) / n) : 0 });
}

// The page's hold (hold.ts) for their warm-up and heap fault-in as well.
export function holdPartWorkersAhead(ms: number): void {
  ahead.post({ kind: 'hold', ms });
}

// An open that does not use them (or not all) lets them go.
export function dropPartWorkersAhead(): void {
  ahead.drop();
}

export class LaterPart {
  raw = 0;     // file bytes read so far
  events = 0;  // events imported so far
  timing: PartTiming | null = null;
  readonly result: Promise<PartBytes | null>;
  private readonly worker: Worker;
  readonly ahead: boolean;  // started (and warmed) ahead
  private settle: (part: PartBytes | null) => void = () => {};

  constructor(blob: Blob, readonly begin: number, readonly end: number, objectForm: boolean, last: boolean) {
    ({ worker: this.worker, ahead: this.ahead } = ahead.take());
    this.result = new Promise<PartBytes | null>((resolve) => {
      const settle = this.settle = (part: PartBytes | null) => {
        this.worker.terminate();  // its heap goes at once
        resolve(part);
      };
      this.worker.onmessage = (ev: MessageEvent<Reply>) => {
        const m = ev.data;
        if (m.kind === 'failed') return settle(null);
        this.raw = m.raw;
        this.events = m.events;
        if (m.kind === 'done') {
          this.timing = m.timing;
          settle(m.part);
        }
      };
      this.worker.onerror = (ev) => { ev.preventDefault(); settle(null); };
    });
    this.worker.postMessage({ kind: 'start', blob, begin, end, objectForm, last });
  }

  cancel(): void {
    this.settle(null);
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
