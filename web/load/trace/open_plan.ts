// Which helpers an open uses beside the trace worker, by the request's `workers` mode, the input and
// the machine's cores: part workers (../parts/plan.ts) or a decode worker (../decode/client.ts). The rules in
// one place, for the open and for a spare worker that starts part workers ahead.
import type { OpenRequest } from '../../worker/protocol';
import { kPartsMinBytes } from '../parts/plan';

// The wasm heap ends at 4 GB and the model needs roughly a third of the input size: refuse plain
// files that cannot fit before reading gigabytes of them.
export const kMaxPlainBytes = 10 * 2 ** 30;
export const kMaxGzipBytes = 1.5 * 2 ** 30;

// From this much input on, and with 4+ cores, events are decoded by a decode worker beside this one
// (../decode/client.ts): below it, starting that worker's core costs more than it saves. It takes
// about a third of this thread's import work away, but with the feed worker that makes three busy
// threads: on 2 cores it was slower, so it is only used where each can have a core
// (docs/performance.md, "Decode worker").
const kDecodeWorkerMinBytes = 32 << 20;
const kDecodeWorkerMinCores = 4;
// Parts (../parts/plan.ts): from this many cores, at most this many parts (each a worker and a wasm heap).
// On 2 cores, two parts with the first one larger (../parts/plan.ts, kFirstPartWeight) load a large plain
// file faster than one piece, for more memory while they run: each part worker's own heap, until
// its part is absorbed (docs/performance.md, "Parts"). From 3 cores one part per core but one
// (left to the reader); at most 4: chosen, not measured (no machine with more cores was at hand).
const kPartsMinCores = 2;
const kMaxParts = 4;

const cores = () => navigator.hardwareConcurrency ?? 1;

// How many parts a large plain file is cut into (1: none) with this open's mode: asked for
// ('parts': tests, comparisons) at least two, of any size from 1 MB; else from kPartsMinCores.
export function partsFor(mode: OpenRequest['workers']): number {
  const n = Math.max(2, Math.min(kMaxParts, cores() - 1));
  if (mode === 'parts') return n;
  return (mode ?? 'auto') === 'auto' && cores() >= kPartsMinCores ? n : 1;
}

// Whether a Blob of `size` bytes is to be cut into parts (if it is plain JSON: the caller checks).
export function wantsParts(mode: OpenRequest['workers'], size: number): boolean {
  return size <= kMaxPlainBytes && partsFor(mode) > 1 && (mode === 'parts' || size >= kPartsMinBytes);
}

// The smallest part with this mode (undefined: ../parts/plan.ts's own).
export const minPartBytes = (mode: OpenRequest['workers']) => (mode === 'parts' ? 1 << 20 : undefined);

// Whether an input of `expected` bytes (0: unknown) imported in one piece gets a decode worker.
export function wantsDecodeWorker(mode: OpenRequest['workers'], expected: number): boolean {
  const auto = (mode === 'auto' || mode === 'no-parts') && expected >= kDecodeWorkerMinBytes && cores() >= kDecodeWorkerMinCores;
  return mode === 'all' || mode === 'decode' || auto;
}
