// How the trace worker fails a request: a WorkerFailure carries the protocol's error code and a
// message in plain words; anything else thrown is mapped to one (running out of memory, or
// internal) where the reply is made (worker.ts).
import type { ErrorCode } from '../worker/protocol';
import type { CoreModule } from '../core/bindings';

export class WorkerFailure extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string
  ) {
    super(message);
  }
}

export const cancelledFailure = () => new WorkerFailure('cancelled', 'Loading was cancelled.');

// The heap's ceiling (-sMAXIMUM_MEMORY=4GB). Without C++ exceptions a failed allocation ends in a
// bare abort(); the core marks the module first (wasm/bindings.cc). Without the mark (an allocation
// outside C++'s new), an abort with the heap near its ceiling is taken as running out of memory.
const kHeapCeiling = 4 * 2 ** 30;

// The page shows it after "Out of memory: ".
export const outOfMemory = (when: string) =>
  `The browser would not give the analyzer more memory ${when}. ` +
  'Use the command-line tool (tracewise summarize FILE) for this trace.';

// Whether `e`, thrown by a call into the module `mod` (null: not loaded), means it ran out of memory.
export function isOutOfMemory(mod: CoreModule | null, e: unknown): boolean {
  if (mod?.outOfMemory === true) return true; // a failed allocation said so (wasm/bindings.cc)
  const text = String((e as Error)?.message ?? e);
  if (e instanceof RangeError || /OOM|out of memory|enlarge memory|allocation failed|bad_alloc/i.test(text))
    return true;
  const heap = Number(mod?.HEAPU8?.length ?? 0);
  return /Aborted/.test(text) && heap >= 0.75 * kHeapCeiling;
}
