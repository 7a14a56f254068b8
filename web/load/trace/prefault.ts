// While the trace worker waits for its reader, the model's reserved memory is written ahead
// (Session.prefault, core/model/prefault.h): every wasm heap page's first write is a page fault
// the OS serves by zero-filling it, tens of thousands in a large import, taken inside the import
// otherwise; touched up front they cost less than they save (docs/performance.md, "Work ahead
// while waiting"). A few MB per step, then the input is looked at again.
import { postedTask } from '../../posted_task';
import { without } from '../switches';

const kPagesPerStep = 512; // 2 MB: 512 faults, a few ms, so that a message waits for one step at most

// Calls touch(maxPages) in steps of kPagesPerStep, each in its own task, until it touches nothing or
// stop(); returns the pages touched.
export async function touchInSteps(touch: (maxPages: number) => number, stop: () => boolean): Promise<number> {
  let pages = 0;
  while (!stop()) {
    const n = Number(touch(kPagesPerStep));
    if (n === 0) break;
    pages += n;
    await postedTask(); // lets the next message in (the reader's)
  }
  return pages;
}

// Resolves once `available()` (a read would not wait) or nothing is left to do; returns the pages
// touched. Sorting the flow points ahead (Session.presortStep, core/model/flow_presort.h) comes
// first, while the points just read are still in cache: it takes that sort out of finish(), the
// serial tail after the last byte. Each step, a sort's or a prefault's, is a task of its own.
export async function workAheadWhileWaiting(
  session: { prefault(maxPages: number): number; presortStep(): boolean },
  available: () => boolean
): Promise<number> {
  if (without('prefault')) return 0;
  while (!available() && session.presortStep()) await postedTask();
  return touchInSteps((n) => session.prefault(n), available);
}
