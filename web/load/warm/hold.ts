// Background work held back while the user is busy. A spare worker's warm-up and heap fault-in
// (warm_up.ts, heap_ahead.ts) only save time for a file that may come later; on a machine with two
// cores they took one from the page while the user zoomed the timeline of the file just loaded, and
// frames were missed (docs/performance.md, "Hold and user_quiet"). The page sends `hold` while the
// user interacts (web/load/page/spare.ts); each step of that work waits here until the hold ends.
// An `open` (or a part's `start`) releases the hold: it is the work the waiting was for.

// The time and timers a hold runs on: the worker's own, or a test's.
export interface HoldClock {
  now(): number;
  setTimeout(wake: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

const workerClock: HoldClock = {
  now: () => performance.now(),
  setTimeout: (wake, ms) => setTimeout(wake, ms),
  clearTimeout: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
};

export class Hold {
  private until = 0;
  private readonly waiting = new Set<() => void>();

  constructor(private readonly clock: HoldClock = workerClock) {}

  // Holds background steps for `ms` from now (extends a hold, never shortens it).
  holdFor(ms: number): void {
    this.until = Math.max(this.until, this.clock.now() + Math.max(0, ms));
  }

  // Ends any hold now: a waiting step goes on at once.
  release(): void {
    this.until = 0;
    for (const wake of [...this.waiting]) wake();
  }

  // Resolves once no hold is in force (at once when none is).
  async whileHeld(): Promise<void> {
    for (let left = this.until - this.clock.now(); left > 0; left = this.until - this.clock.now()) {
      await new Promise<void>((resolve) => {
        const done = () => {
          this.clock.clearTimeout(timer);
          this.waiting.delete(done);
          resolve();
        };
        const timer = this.clock.setTimeout(done, left);
        this.waiting.add(done);
      });
    }
  }
}

// The worker's one hold.
const hold = new Hold();
export const holdFor = (ms: number): void => hold.holdFor(ms);
export const release = (): void => hold.release();
export const whileHeld = (): Promise<void> => hold.whileHeld();
