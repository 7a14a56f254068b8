// While the trace worker waits for its reader, the model's reserved memory is written ahead
// (Session.prefault, core/model/prefault.h): every wasm heap page's first write is a page fault
// the OS serves by zero-filling it, ~84 k of them in a 1 GB import, taken inside the import
// otherwise (node, 1 GB: touching them all up front takes ~90 ms and saves ~110-290 ms of the
// import after it). A few MB per step, then the input is looked at again.
import { postedTask } from '../posted_task';

const kPagesPerStep = 512;  // 2 MB: ~1 ms

// Resolves once `available()` (a read would not wait) or nothing is left to touch; returns the
// pages touched.
export async function prefaultWhileWaiting(session: { prefault(maxPages: number): number }, available: () => boolean): Promise<number> {
  let pages = 0;
  while (!available()) {
    const n = Number(session.prefault(kPagesPerStep));
    if (n === 0) break;
    pages += n;
    await postedTask();  // lets the reader's next message in
  }
  return pages;
}
