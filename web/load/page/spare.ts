// One trace worker started before it is needed: while the page is idle it loads the wasm core and
// runs its warm-up (web/load/warm/warm_up.ts), so the next file opened gets a worker whose finish()
// and summary run in V8's optimised tier from the start, and the module is already compiled
// (docs/performance.md, "Spare worker and warm-up"). V8 shares the compiled module between the
// page's workers, so files opened with it benefit too.
// Prepared when the page has nothing to load, taken by the next file, prepared again once every
// file has settled (never while files load: on few cores it would take CPU from them). With a trace
// on screen, only once the user has left the page alone for a moment (user_quiet.ts): a warm-up
// started while the user zooms the file just loaded takes a core from the page's frames. With
// nothing on screen yet there is nothing to take it from, and the first file should find its spare
// warm.
import { WorkerClient } from './trace_client';
import { afterQuiet, whenIdle } from './user_quiet';
import type { WorkersMode } from '../trace/open_plan';
import { without } from '../switches';

const kQuietMs = 1000; // no input for this long before a spare starts

let spare: WorkerClient | null = null;
let scheduled = false;

// The spare worker if there is a live one (warming or warm), else a new worker.
export function takeWorker(): WorkerClient {
  const w = spare;
  spare = null;
  return w && w.alive ? w : new WorkerClient();
}

// Starts a spare worker when the browser is next idle (if `idle()` still holds then), unless there
// is one. `workers`: the mode the next open will ask for (its part workers are started ahead as
// well). `yieldToUser` (a trace is on screen): only after kQuietMs without input.
export function prepareSpareWorker(idle: () => boolean, workers: WorkersMode, yieldToUser = false): void {
  if (spare || scheduled || without('spare')) return;
  scheduled = true;
  const start = () => {
    scheduled = false;
    if (spare || !idle()) return;
    const client = new WorkerClient();
    spare = client;
    client.request('warm', { workers }).catch(() => {
      // It only saves time: the next file gets a fresh worker. One already taken is the file's.
      if (spare !== client) return;
      spare = null;
      client.terminate();
    });
  };
  if (yieldToUser) afterQuiet(kQuietMs, () => whenIdle(start));
  else whenIdle(start);
}
