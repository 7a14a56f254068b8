// After its warm-up, a spare trace worker (idle, before any file) faults in the heap the next file
// will grow into. Every wasm heap page costs a page fault on its first write, and an import grows
// the heap to about a third of the file's size, all of it faulted inside the load. Done here, the
// faults cost idle time instead; the price is the memory held while the page waits for a file
// (docs/performance.md, "Heap faulted in ahead").
// In ../trace/prefault.ts's steps, so that an `open` arriving meanwhile waits at most one step.
import { touchInSteps } from '../trace/prefault';

// The trace worker's by default: what a 256 MB trace needs, and the first third of a 1 GB one; more
// would hold memory that most traces never use. The page may ask for more, as much as recent files
// needed (web/load/page/heap_hint.ts), up to kMaxHeapAheadBytes (a 1 GB trace's ~320 MB, and some).
// Part workers get a share of their own budget (../parts/client.ts).
export const kHeapAheadBytes = 128 << 20;
export const kMaxHeapAheadBytes = 512 << 20;

// The trace worker's target for a page's request: the default, or more up to the maximum.
export function heapAheadTarget(asked?: number): number {
  const n = typeof asked === 'number' && Number.isFinite(asked) ? asked : 0;
  return Math.min(kMaxHeapAheadBytes, Math.max(kHeapAheadBytes, n));
}

// `bytes`, unless the device says it has little memory (navigator.deviceMemory, in GB, where the
// browser tells; Chrome reports at most 8): none under 4 GB, where the held memory costs more than
// the faults it saves, and no more than the default under 8 GB.
export function heapAheadBudget(bytes: number): number {
  const gb = (globalThis.navigator as { deviceMemory?: number } | undefined)?.deviceMemory;
  if (typeof gb !== 'number') return bytes;
  return gb < 4 ? 0 : gb < 8 ? Math.min(bytes, kHeapAheadBytes) : bytes;
}

// Touches pages until the heap holds `bytes` or `stopped()`; returns the pages touched.
export function prefaultHeapAhead(
  mod: { prefaultHeapAhead(target: number, maxPages: number): number },
  bytes: number,
  stopped: () => boolean
): Promise<number> {
  return touchInSteps((n) => mod.prefaultHeapAhead(bytes, n), stopped);
}
