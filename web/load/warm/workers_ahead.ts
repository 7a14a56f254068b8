// Nested workers of one script started before they are needed (by the spare trace worker's
// warm-up), so that an open does not wait for a worker and its script to start. A worker whose
// script fails to load is remembered as failed: taking skips it and starts a fresh one instead,
// which fails the same way where the caller handles it.
// Req, Rep: the messages the workers take and send (their protocol.ts).
import type { TypedWorker } from '../port';
export class WorkersAhead<Req, Rep> {
  private ahead: Array<{ worker: TypedWorker<Req, Rep>; failed: boolean }> = [];

  // script: the worker's file next to this one's; hello: posted to each started ahead.
  constructor(
    private readonly script: string,
    private readonly hello?: Req
  ) {}

  // Starts workers until `n` are ahead (none where this browser has no nested workers).
  start(n: number): void {
    if (typeof Worker === 'undefined') return;
    try {
      while (this.ahead.length < n) {
        const a = { worker: this.create(), failed: false };
        a.worker.onerror = (ev) => {
          ev.preventDefault();
          a.failed = true;
        };
        if (this.hello !== undefined) a.worker.postMessage(this.hello);
        this.ahead.push(a);
      }
    } catch {
      this.drop();
    }
  }

  // An open that does not use them (or not all) lets them go.
  drop(): void {
    this.ahead.forEach((a) => a.worker.terminate());
    this.ahead = [];
  }

  // One started ahead that has not failed, else a new one (which may throw).
  take(): { worker: TypedWorker<Req, Rep>; ahead: boolean } {
    for (let a = this.ahead.shift(); a; a = this.ahead.shift()) {
      if (!a.failed) return { worker: a.worker, ahead: true };
      a.worker.terminate();
    }
    return { worker: this.create(), ahead: false };
  }

  private create(): TypedWorker<Req, Rep> {
    return new Worker(new URL(this.script, self.location.href), { type: 'module' }) as TypedWorker<Req, Rep>;
  }
}
