// One trace worker started before it is needed: while the page is idle it loads the wasm core and
// runs its warm-up (web/worker/warm_up.ts), so the next file opened gets a worker whose finish()
// and summary run in V8's optimised tier from the start, and the module is already compiled (a 1 GB
// load 0.4-0.5 s shorter, a 256 MB one 0.3 s; bench/HISTORY.md "Session 4"). V8
// shares the compiled module between the page's workers, so files opened with it benefit too.
// Prepared when the page has nothing to load, taken by the next file, prepared again once every
// file has settled (never while files load: on few cores it would take CPU from them).
import { WorkerClient } from './worker_client';

let spare: WorkerClient | null = null;

// The spare worker if there is a live one (warming or warm), else a new worker.
export function takeWorker(): WorkerClient {
  const w = spare;
  spare = null;
  return w && w.alive ? w : new WorkerClient();
}

// Starts a spare worker when the browser is next idle (and `idle()` still holds then), unless
// there is one.
// `workers`: the mode the next open will ask for (its part workers are started ahead as well).
export function prepareSpareWorker(idle: () => boolean, workers?: string): void {
  if (spare) return;
  const start = () => {
    if (spare || !idle()) return;
    const client = new WorkerClient();
    spare = client;
    client.request('warm', workers ? { workers } : {}).catch(() => {
      // It only saves time: the next file gets a fresh worker. One already taken is the file's.
      if (spare !== client) return;
      spare = null;
      client.terminate();
    });
  };
  if ('requestIdleCallback' in window) requestIdleCallback(start, { timeout: 2000 });
  else setTimeout(start, 200);
}
