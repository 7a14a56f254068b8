// One trace worker started before it is needed: while the page is idle it loads the wasm core and
// runs its warm-up (web/load/warm/warm_up.ts), so the next file opened gets a worker whose finish()
// and summary run in V8's optimised tier from the start, and the module is already compiled
// (docs/performance.md, "Spare worker and warm-up"). V8 shares the compiled module between the
// page's workers, so files opened with it benefit too.
// Prepared when the page has nothing to load, taken by the next file, prepared again once every
// file has settled (never while files load: on few cores it would take CPU from them). With a trace
// on screen, only once the user has left the page alone for a moment, and input during the warm-up
// holds it (web/load/warm/hold.ts): a warm-up that started while the user zoomed the file just loaded
// took a core from the page's frames (docs/performance.md, "Hold and user_quiet"). With nothing on
// screen yet there is nothing to take it from, and the first file should find its spare warm. The
// warm-up's summary comes back with its reply: the page builds its dashboard off the page, so that
// the first real one runs warm code too (dashboard/warm_dashboard.ts).
import { WorkerClient } from './trace_client';
import { afterQuiet, onUserInput } from './user_quiet';
import type { WorkersMode } from '../trace/open_plan';
import { without } from '../switches';

const kQuietMs = 1000; // no input for this long before a spare starts
const kHoldMs = 1000; // each input holds the warm-up this long...
const kHoldEveryMs = 250; // ...and is sent at most this often

let spare: WorkerClient | null = null;
let onWarmed: (summaryJson: string) => void = () => {};
let scheduled = false;
let stopHolding = () => {};

// The spare worker if there is a live one (warming or warm), else a new worker.
export function takeWorker(): WorkerClient {
  const w = spare;
  spare = null;
  stopHolding();
  return w && w.alive ? w : new WorkerClient();
}

// Until its warm-up ends (or it is taken), user input holds the spare's background work.
function holdOnInput(client: WorkerClient): () => void {
  let sent = -Infinity;
  return onUserInput(() => {
    const now = performance.now();
    if (now - sent < kHoldEveryMs || !client.alive) return;
    sent = now;
    client.request('hold', { ms: kHoldMs }).catch(() => {});
  });
}

// `f` gets the summary JSON of each spare's warm-up (its synthetic trace's) once it ran to its end.
export function onSpareWarmed(f: (summaryJson: string) => void): void {
  onWarmed = f;
}

// Starts a spare worker when the browser is next idle (if `idle()` still holds then), unless there
// is one. `workers`: the mode the next open will ask for (its part workers are started ahead as
// well). `yieldToUser` (a trace is on screen): only after kQuietMs without input, and held by input.
export function prepareSpareWorker(idle: () => boolean, workers: WorkersMode, yieldToUser = false): void {
  if (spare || scheduled || without('spare')) return;
  scheduled = true;
  const start = () => {
    scheduled = false;
    if (spare || !idle()) return;
    const client = new WorkerClient();
    spare = client;
    const unhold = yieldToUser && !without('hold') ? holdOnInput(client) : () => {};
    stopHolding = unhold;
    client
      .request('warm', { workers })
      .then(
        (reply) => {
          if (typeof reply.summaryJson === 'string') onWarmed(reply.summaryJson);
        },
        () => {
          // It only saves time: the next file gets a fresh worker. One already taken is the file's.
          if (spare !== client) return;
          spare = null;
          client.terminate();
        }
      )
      .finally(unhold);
  };
  const whenIdle = () => {
    if ('requestIdleCallback' in window) requestIdleCallback(start, { timeout: 2000 });
    else setTimeout(start, 200);
  };
  if (yieldToUser) afterQuiet(kQuietMs, whenIdle);
  else whenIdle();
}
