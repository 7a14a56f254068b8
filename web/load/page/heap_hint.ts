// How much heap the next spare worker faults in ahead (web/load/warm/heap_ahead.ts): as much as the
// largest of the last few files opened in this browser needed. Someone who opens 1 GB traces (the
// ranks of one job, one after another) gets the heap such a file needs faulted in while the page
// is idle, instead of paying for it inside the load (docs/performance.md, "Heap faulted in ahead");
// someone who opens small ones does not hold that memory. Kept in localStorage (the heap sizes only,
// nothing of the traces); where storage is unavailable (a sandboxed frame, private modes that refuse
// it), the worker's default applies.
const kKey = 'tracewise.recentHeapMB';
const kRemembered = 4;

function recent(): number[] {
  try {
    const v = JSON.parse(localStorage.getItem(kKey) ?? '[]');
    return Array.isArray(v) ? v.filter((x): x is number => typeof x === 'number' && Number.isFinite(x) && x > 0) : [];
  } catch {
    return [];
  }
}

// After a file opened: the heap its worker needed (SummaryReply.heapUsedBytes: the allocator's break,
// not the heap's size, which counts memory faulted in ahead and would keep a large hint forever).
export function rememberHeap(bytes: number): void {
  if (!(bytes > 0)) return;
  try {
    localStorage.setItem(kKey, JSON.stringify([...recent(), Math.ceil(bytes / 2 ** 20)].slice(-kRemembered)));
  } catch {
    /* not remembered: the default applies */
  }
}

// The heap (bytes) to fault in ahead for the next file; 0 when nothing is known. The worker bounds it.
export function heapAheadHint(): number {
  return Math.max(0, ...recent()) * 2 ** 20;
}
