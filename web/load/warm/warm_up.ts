// The warm-up of a spare trace worker (started by the page while it is idle, web/load/page/spare.ts):
// a synthetic trace (warm_trace.ts) goes through import, finish(), the summary and the timeline's
// first windows, so V8 has optimised code ready for the file that comes next. V8 starts every wasm
// function in its baseline tier and swaps in optimised code only between calls, so work done in one
// long call - finish(), each analysis of the summary, a window query, once per file - would
// otherwise run entirely in baseline code (docs/performance.md, "Spare worker and warm-up").
//
// An `open` arriving meanwhile stops the warm-up at its next step (a piece of the synthetic trace,
// a chunk of it pushed, finish, the summary, the timeline) and waits for it, so a file is never
// delayed by more than one step (the longest is the summary in baseline code); the trace worker runs
// kTraceWorkerRounds rounds.
import { HeapPusher } from '../input/heap_pusher';
import { warmTracePieces } from './warm_trace';
import { absorbPart, eventStartIn, exportPart, kCutWindowBytes, objectFormOf } from '../parts/plan';
import type { CoreModule, CoreSession } from '../../core/bindings';

const kChunkBytes = 1 << 20;
// How many times the synthetic trace goes through the warm-up's steps. Chromium's V8 tiers a wasm
// function up only after it has run a while: after one round, more of finish()'s and the summary's
// sorts were still being optimised during the first load (so they ran in baseline code there) than
// after three, and that optimising took CPU from the load. Later rounds run optimised code, so they
// cost less than the first.
// The rounds are the spare trace worker's: every worker of the page shares one compiled module (one
// module address in --trace-wasm-compilation-times for all of them), so optimised code made in one
// serves all, and a part worker's single round is for its own JavaScript and heap.
export const kTraceWorkerRounds = 3;

let running: Promise<void> | null = null;
let stop = false;
let done = false;

// Each step in its own task (an `open` gets in between).
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

// Pushes `bytes` into `session` a chunk per task; false once stopped.
async function pushInSteps(mod: CoreModule, session: CoreSession, bytes: Uint8Array): Promise<boolean> {
  const pusher = new HeapPusher(mod, session);
  for (let pos = 0; pos < bytes.length; pos += kChunkBytes) {
    await nextTask(); // lets an `open` message in
    if (stop) return false;
    pusher.write(bytes.subarray(pos, Math.min(bytes.length, pos + kChunkBytes)));
  }
  pusher.flush();
  return true;
}

// The synthetic trace, made a piece per task; null once stopped. Before the page's JavaScript is
// optimised, making it whole is slow, and a file opened right after the page (the sample button
// clicked at once) would wait for all of it.
async function makeTrace(): Promise<Uint8Array | null> {
  const pieces: string[] = [];
  const make = warmTracePieces();
  for (;;) {
    await nextTask(); // lets an `open` message in, also one that came while the module loaded
    if (stop) return null;
    const next = make.next();
    if (next.done) break;
    pieces.push(next.value);
  }
  return new TextEncoder().encode(pieces.join(''));
}

async function run(mod: CoreModule, rounds: number): Promise<void> {
  const bytes = await makeTrace();
  if (!bytes) return;
  // In two parts, as a large plain file is imported (../parts/plan.ts): the later part's import, its bytes
  // going across and the absorb run here too. V8 tiers a function up once it has run enough, and
  // a call keeps the code it began in: without this, the first file in parts absorbed its part in
  // baseline code while the optimising compiler took CPU from the load's cores for it.
  const mid = bytes.length >> 1;
  const cut = eventStartIn(mod, bytes.subarray(mid, mid + kCutWindowBytes), mid);
  for (let round = 0; round < rounds; round++) {
    const session = new mod.Session('warm-up');
    const later = cut > 0 ? new mod.Session('warm-up part') : null;
    try {
      if (!(await pushInSteps(mod, session, bytes.subarray(0, cut || bytes.length)))) return;
      if (later) {
        later.beginLaterPart(cut, objectFormOf(mod, bytes.subarray(0, 64)));
        if (!(await pushInSteps(mod, later, bytes.subarray(cut)))) return;
        later.endInput();
        absorbPart(mod, session, exportPart(later));
      }
      await nextTask();
      if (stop) return;
      session.finish();
      await nextTask();
      if (stop) return;
      session.summaryJson(false); // as a file's summary is made (web/worker/worker.ts)
      await nextTask();
      if (stop) return;
      warmTimeline(session);
      done = true;
    } finally {
      later?.delete();
      session.delete();
    }
  }
}

// The timeline's index and the windows of a zoom in and out over every lane, as the timeline tab
// asks for them (web/worker/timeline_handlers.ts): the first window queries of a large file run
// long enough per call that, in baseline code, the first zooms wait for them.
function warmTimeline(session: CoreSession): void {
  const head = JSON.parse(session.timelineTrackHead()) as { endNs?: unknown };
  const lanes = session.timelineTrackColumns().trackGroup?.length ?? 0;
  const end = Number(head.endNs);
  if (!lanes || !(end > 0)) return;
  const all = Array.from({ length: lanes }, (_, i) => i);
  for (const [from, to] of [
    [0, end],
    [end / 4, end / 2],
    [end / 3, end / 3 + end / 64],
    [0, end],
  ])
    session.timelineWindow(all, from, to, 1600, false);
}

// Starts the warm-up once; resolves when it has finished or stopped.
// rounds: see kTraceWorkerRounds.
export function warmUp(loadModule: () => Promise<CoreModule>, rounds = kTraceWorkerRounds): Promise<void> {
  running ??= loadModule().then((mod) => run(mod, rounds));
  return running;
}

// Stops a running warm-up and waits for it; errors in it are ignored (it only saves time).
export async function stopWarmUp(): Promise<void> {
  stop = true;
  await running?.catch(() => {});
}

// Whether the warm-up ran to its end.
export function warmedUp(): boolean {
  return done;
}
