// Background work held back while the user is busy. A spare worker's warm-up and heap fault-in
// (warm_up.ts, heap_ahead.ts) only save time for a file that may come later; on a machine with two
// cores they took one from the page while the user zoomed the timeline of the file just loaded
// (p95 frame 33 ms instead of 16.7; bench/HISTORY.md, session 13). The page sends `hold` while the
// user interacts (web/app/spare_worker.ts); each step of that work waits here until the hold ends.
// An `open` (or a part's `start`) releases the hold: it is the work the waiting was for.

let until = 0;
const waiting = new Set<() => void>();

// Holds background steps for `ms` from now (extends a hold, never shortens it).
export function holdFor(ms: number): void {
  until = Math.max(until, performance.now() + Math.max(0, ms));
}

// Ends any hold now: a waiting step goes on at once.
export function release(): void {
  until = 0;
  for (const wake of [...waiting]) wake();
}

// Resolves once no hold is in force (at once when none is).
export async function whileHeld(): Promise<void> {
  for (let left = until - performance.now(); left > 0; left = until - performance.now()) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, left);
      function done() { clearTimeout(timer); waiting.delete(done); resolve(); }
      waiting.add(done);
    });
  }
}
