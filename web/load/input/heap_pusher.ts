// Copies bytes into a Session's staging buffer and pushes them in batches of a few MB (many short
// wasm calls get V8's optimised tier, which V8 swaps in between calls): the trace worker's import
// and its warm-up.
import type { CoreModule, CoreSession } from '../../core/bindings';
const kBatchBytes = 4 << 20;

export class HeapPusher {
  private addr = 0;
  private fill = 0;
  constructor(
    private readonly m: CoreModule,
    private readonly s: CoreSession
  ) {}
  // Whether a batch was pushed (only a push can fail the session).
  write(chunk: Uint8Array): boolean {
    let pushed = false;
    let off = 0;
    while (off < chunk.length) {
      if (this.fill === 0) this.addr = Number(this.s.stagingBuffer(kBatchBytes));
      const n = Math.min(kBatchBytes - this.fill, chunk.length - off);
      this.m.HEAPU8.set(chunk.subarray(off, off + n), this.addr + this.fill); // HEAPU8 is re-read: the heap may grow
      this.fill += n;
      off += n;
      if (this.fill === kBatchBytes) {
        this.flush();
        pushed = true;
      }
    }
    return pushed;
  }
  // Pushes what is staged (the last, partial batch).
  flush(): void {
    if (this.fill === 0) return;
    const n = this.fill;
    this.fill = 0;
    this.s.pushStaged(n);
  }
}
