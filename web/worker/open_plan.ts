// Which helpers an open uses beside the trace worker, by the request's `workers` mode, the input and
// the machine's cores: part workers (parts.ts) or a decode worker (decode_client.ts). The rules in
// one place, for the open and for a spare worker that starts part workers ahead.
import type { OpenRequest } from './protocol';
import { kPartsMinBytes } from './parts';

// The wasm heap ends at 4 GB and the model needs roughly a third of the input size: refuse plain
// files that cannot fit before reading gigabytes of them.
export const kMaxPlainBytes = 10 * 2 ** 30;
export const kMaxGzipBytes = 1.5 * 2 ** 30;

// From this much input on, and with 4+ cores, events are decoded by a decode worker beside this one
// (decode_client.ts): below it, starting that worker's core costs more than it saves. It takes
// ~37% of this thread's import work away (wasm in node, 256 MB Kineto: 795 -> 500 ms here, 382 ms
// there), but with the feed worker that makes three busy threads: on 2 cores it was slower
// (bench/HISTORY.md, sessions 3 and 8), so it is only used where each can have a core.
const kDecodeWorkerMinBytes = 32 << 20;
const kDecodeWorkerMinCores = 4;
// Parts (parts.ts): from this many cores, at most this many parts (each a worker and a wasm heap).
// Both chosen: there is no machine with more than 2 cores to measure them on (bench/README.md).
// On 2 cores the reader, the browser's I/O and the parsers already keep both busy, so parts only
// broke even there (1 GB 2.319 s without, 2.296 with; 256 MB 0.618 / 0.612; bench/HISTORY.md,
// session 9) and cost heap.
const kPartsMinCores = 4;
const kMaxParts = 4;

const cores = () => navigator.hardwareConcurrency ?? 1;

// How many parts a large plain file is cut into (1: none) with this open's mode: asked for
// ('parts': tests, comparisons) at least two, of any size from 1 MB; else from kPartsMinCores.
export function partsFor(mode: OpenRequest['workers']): number {
  if (mode === 'parts') return Math.max(2, Math.min(kMaxParts, cores() - 1));
  return (mode ?? 'auto') === 'auto' && cores() >= kPartsMinCores ? Math.min(kMaxParts, cores() - 1) : 1;
}

// Whether a Blob of `size` bytes is to be cut into parts (if it is plain JSON: the caller checks).
export function wantsParts(mode: OpenRequest['workers'], size: number): boolean {
  return size <= kMaxPlainBytes && partsFor(mode) > 1 && (mode === 'parts' || size >= kPartsMinBytes);
}

// The smallest part with this mode (undefined: parts.ts's own).
export const minPartBytes = (mode: OpenRequest['workers']) => (mode === 'parts' ? 1 << 20 : undefined);

// Whether an input of `expected` bytes (0: unknown) imported in one piece gets a decode worker.
export function wantsDecodeWorker(mode: OpenRequest['workers'], expected: number): boolean {
  const auto = (mode === 'auto' || mode === 'no-parts') && expected >= kDecodeWorkerMinBytes && cores() >= kDecodeWorkerMinCores;
  return mode === 'all' || mode === 'decode' || auto;
}
