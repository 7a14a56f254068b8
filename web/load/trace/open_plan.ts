// Which helpers an open uses beside the trace worker, by the request's `workers` mode, whether other
// files load at the same time, the input and the machine's cores: part workers (../parts/plan.ts).
// The rules in one place, for the open and for a spare worker that starts part workers ahead.
import { kPartsMinBytes } from '../parts/plan';
import { without } from '../switches';

// The wasm heap ends at 4 GB and the model needs roughly a third of the input size: refuse plain
// files that cannot fit before reading gigabytes of them.
export const kMaxPlainBytes = 10 * 2 ** 30;
export const kMaxGzipBytes = 1.5 * 2 ** 30;

// Parts (../parts/plan.ts): from this many cores, at most this many parts (each a worker and a wasm heap).
// On 2 cores, two parts with the first one larger (../parts/plan.ts, kFirstPartWeight) load a large plain
// file faster than one piece, for more memory while they run: each part worker's own heap, until
// its part is absorbed (docs/performance.md, "Parts"). From 3 cores one part per core but one
// (left to the reader); at most 4: chosen, not measured (no machine with more cores was at hand).
const kPartsMinCores = 2;
const kMaxParts = 4;

const cores = () => navigator.hardwareConcurrency ?? 1;

// The page's choice of helpers (OpenRequest.workers; ?workers= in the page's URL overrides 'auto'):
// 'auto': by size and cores, as below; 'single': no nested worker at all (the path of browsers
// without nested workers, and the baseline of comparisons); 'all': parts whatever the size and
// cores (tests, comparisons): a plain file in 2+ parts from 1 MB each.
export type WorkersMode = 'auto' | 'single' | 'all';
export const kWorkersModes: readonly WorkersMode[] = ['auto', 'single', 'all'];

// How many parts a large plain file is cut into (1: none). `othersLoading`: other files load at the
// same time, which keep the cores busy already (one worker each).
export function partsFor(mode: WorkersMode, othersLoading: boolean): number {
  const n = Math.max(2, Math.min(kMaxParts, cores() - 1));
  if (mode === 'all') return n;
  return mode === 'auto' && !othersLoading && cores() >= kPartsMinCores && !without('parts') ? n : 1;
}

// Whether a Blob of `size` bytes is to be cut into parts (if it is plain JSON: the caller checks).
export function wantsParts(mode: WorkersMode, othersLoading: boolean, size: number): boolean {
  return size <= kMaxPlainBytes && partsFor(mode, othersLoading) > 1 && (mode === 'all' || size >= kPartsMinBytes);
}

// The smallest part with this mode (undefined: ../parts/plan.ts's own).
export const minPartBytes = (mode: WorkersMode) => (mode === 'all' ? 1 << 20 : undefined);
