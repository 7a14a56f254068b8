// While the trace worker waits for its reader, the model's reserved memory is written ahead
// (Session.prefault, core/model/prefault.h): every wasm heap page's first write is a page fault
// the OS serves by zero-filling it, ~84 k of them in a 1 GB import, taken inside the import
// otherwise (node, 1 GB: touching them all up front takes ~90 ms and saves ~110-290 ms of the
// import after it). A few MB per step, then the input is looked at again.
const kPagesPerStep = 512;  // 2 MB: ~1 ms

// Resolves once `available()` (a read would not wait) or nothing is left to touch; returns the
// pages touched.
export async function prefaultWhileWaiting(session: { prefault(maxPages: number): number }, available: () => boolean): Promise<number> {
  let pages = 0;
  while (!available()) {
    const n = Number(session.prefault(kPagesPerStep));
    if (n === 0) break;
    pages += n;
    await nextTask();  // lets the reader's next message in
  }
  return pages;
}

// A new task without setTimeout's >= 4 ms clamp for nested timeouts.
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => { ch.port1.close(); resolve(); };
    ch.port2.postMessage(null);
  });
}
