// The trace worker's side of worker.ts. The importer keeps complete batches (deferred
// decoding); this hands the oldest ones not yet handed out to the decode worker while it has
// room, and gives their records back to the importer in order. A batch the worker never took is
// decoded in the trace worker itself, so a slow, busy or failed decode worker only costs time.
// The model is the same either way (tests/core/import_deferred_test.cc).
import type { CoreModule, CoreSession } from '../../core/bindings';
import type { DecodeReply, DecodeRequest } from './protocol';
import type { TypedWorker } from '../port';

// Kept batches beyond this many are decoded here, oldest first (each batch is ~2 MB of events).
const kMaxKept = 12;

// What DecodeHelper needs of the decode worker (a Worker in the page; bench/decode_pipeline_bench.mjs
// passes node's worker_threads behind the same shape).
export type DecodePort = TypedWorker<DecodeRequest, DecodeReply>;

export class DecodeHelper {
  private slots = 0;
  // Batches are numbered in the importer's order. Those before `applied` are applied; those from
  // `applied` to `next` were handed out; a batch decoded here without being handed out moves both.
  private next = 0;
  private applied = 0;
  private readonly arrived = new Map<number, Uint8Array>();
  private wake: (() => void) | null = null;
  private failed = false;
  localBatches = 0; // decoded in the trace worker (for the open reply)

  // The default port throws when this browser cannot start a worker from a worker. `strict`: every
  // batch goes to the decode worker (this one waits for it) unless it fails; for tests and comparisons.
  constructor(
    private readonly mod: CoreModule,
    private readonly session: CoreSession,
    private readonly strict = false,
    private readonly worker: DecodePort = new Worker(new URL('decode.js', self.location.href), {
      type: 'module',
    }) as DecodePort
  ) {
    this.worker.onmessage = (ev) => {
      const m = ev.data;
      if (m.kind === 'ready') this.slots += m.slots;
      else if (m.kind === 'records') {
        this.arrived.set(m.seq, m.records);
        this.slots++;
      } else this.fail();
      this.poke();
    };
    this.worker.onerror = (ev) => {
      ev.preventDefault?.();
      this.fail();
    };
    session.setDeferredDecode(true);
  }

  private fail(): void {
    this.failed = true;
    this.poke();
  }
  private poke(): void {
    if (this.wake) {
      const w = this.wake;
      this.wake = null;
      w();
    }
  }

  // After each push: hands out new batches while the worker has room, applies the records that
  // came back, and decodes the oldest here while too many are kept.
  async step(): Promise<void> {
    this.handOut();
    this.applyArrived();
    while (Number(this.session.deferredBatches()) > kMaxKept) await this.applyOldest();
  }

  // After the last push (and session.endInput()): every kept batch is applied.
  async drain(): Promise<void> {
    for (;;) {
      this.handOut();
      this.applyArrived();
      if (Number(this.session.deferredBatches()) === 0) return;
      await this.applyOldest();
    }
  }

  close(): void {
    this.worker.terminate();
  }

  private handOut(): void {
    while (!this.failed && this.slots > 0) {
      const b = this.session.nextOutgoing();
      if (b === null) return;
      const data: Uint8Array = b.data.slice();
      const refs: Uint32Array = b.refs.slice();
      this.slots--;
      this.next = Math.max(this.next, this.applied);
      this.worker.postMessage({ kind: 'batch', seq: this.next++, data, refs }, [data.buffer, refs.buffer]);
    }
  }

  private applyArrived(): void {
    for (let r = this.arrived.get(this.applied); r !== undefined; r = this.arrived.get(this.applied)) this.apply(r);
  }

  private apply(records: Uint8Array): void {
    this.arrived.delete(this.applied);
    const addr = Number(this.session.recordsBuffer(records.length));
    this.mod.HEAPU8.set(records, addr); // HEAPU8 re-read: the heap may have grown
    this.session.applyRecords(records.length);
    this.applied++;
  }

  // The oldest kept batch: if the worker has it, its records (waited for); if not, decoded here.
  private async applyOldest(): Promise<void> {
    while (this.strict && !this.failed && this.applied >= this.next) {
      this.handOut();
      if (this.applied >= this.next)
        await new Promise<void>((ok) => {
          this.wake = ok;
        });
    }
    if (this.applied < this.next) {
      while (!this.arrived.has(this.applied) && !this.failed)
        await new Promise<void>((ok) => {
          this.wake = ok;
        });
      const r = this.arrived.get(this.applied);
      if (r !== undefined) {
        this.apply(r);
        return;
      }
    }
    this.session.applyLocal();
    this.applied++;
    this.localBatches++;
  }
}
