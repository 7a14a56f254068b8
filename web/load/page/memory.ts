// How much memory the page's trace workers may hold together, and what one file is expected to take:
// the page opens many files (one per rank) at once, and each worker's wasm heap holds its file's model
// (docs/performance.md, "Many files: loads bounded by memory, models released"). web/app/files.ts
// starts a load only while the loads running and the models held fit the budget (one load always
// runs), and releases the least recently used models to make room.
import type { OpenResult } from '../../worker/protocol';

const MB = 1 << 20;

// A trace worker's memory beside its wasm heap: its JS heap and the module's instance. Measured with
// bench/job_page.mjs against the heap at the end of the open, so it also holds what the summary adds
// to the heap, which heldBytes now counts in the heap itself: it errs high (the numbers are in
// docs/performance.md, "Many files at once").
export const kWorkerBytes = 12 * MB;
// The heap through the summary, a fixed part and per input byte, fitted to wasm_bench.mjs and `make
// bench` (docs/performance.md).
const kHeapBase = 28 * MB;
const kHeapPerByte = 0.36;
// gzip: an inflated size when the trailer cannot say (Kineto traces inflate 8-15x).
const kGzipRatio = 12;

// The budget: `?memory=MB` in the page's address (tests, benchmarks), else an eighth of the device's
// memory as the browser reports it (navigator.deviceMemory: at most 8 in Chromium, absent elsewhere:
// 4 assumed), between 256 MB and 1 GB. The models are a cache (the job needs only each file's summary
// and rank record), so they do not get more because the machine has it.
export function modelBudgetBytes(): number {
  const asked = Number(new URLSearchParams(location.search).get('memory'));
  if (Number.isFinite(asked) && asked > 0) return asked * MB;
  const gb = (navigator as Navigator & { deviceMemory?: number }).deviceMemory ?? 4;
  return Math.min(1024 * MB, Math.max(256 * MB, (gb * 1024 * MB) / 8));
}

// The memory a load of `inputBytes` (uncompressed) is expected to take until its summary is made.
export function expectedLoadBytes(inputBytes: number): number {
  return kWorkerBytes + kHeapBase + kHeapPerByte * inputBytes;
}

// What a loaded file's worker holds: its wasm heap at its largest so far, and the rest. The open
// reported the heap at its end (`result`); the summary and later requests grow it further, and
// `reportedHeapBytes` is the largest their replies reported (TraceLoad.heapBytes; the heap never
// shrinks). No result: the file is not loaded yet.
export function heldBytes(result: OpenResult | null, reportedHeapBytes = 0): number {
  return result ? Math.max(result.heapBytes, reportedHeapBytes) + kWorkerBytes : expectedLoadBytes(0);
}

// The bytes the importer will see: a plain file's size, a gzip file's inflated size from its trailer
// (ISIZE, the size mod 2^32 of the last member: trusted only when it is larger than the file), else
// kGzipRatio times the file.
export async function inputBytesOf(blob: Blob): Promise<number> {
  if (blob.size < 18) return blob.size;
  try {
    const head = new Uint8Array(await blob.slice(0, 2).arrayBuffer());
    if (head[0] !== 0x1f || head[1] !== 0x8b) return blob.size;
    const tail = new DataView(await blob.slice(blob.size - 4).arrayBuffer());
    const isize = tail.getUint32(0, true);
    return isize > blob.size ? isize : blob.size * kGzipRatio;
  } catch {
    return blob.size;
  }
}
