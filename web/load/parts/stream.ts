// A later part's columns streamed from its part worker's heap into the trace worker's, through a
// few reused buffers, instead of copied out into new ArrayBuffers (plan.ts exportPart). Each new
// ArrayBuffer is memory never touched before, each of its 4 KB pages a page fault on first touch:
// copying a large part out that way kept the trace worker waiting for it where faults are slow.
// The buffers are allocated and touched ahead, while the part worker warms up.
//
// The bytes are the columns one after the other (the order of session.partColumns() and of
// loadPart()'s sizes); ColumnReader cuts them into buffers, ColumnWriter puts them back at the
// absorbing session's column addresses.
import { touchedBuffer } from '../input/blob_stream';

export const kStreamBufferBytes = 4 << 20;
export const kStreamBuffers = 2;

// Buffers for the stream, each page written once so that its first touch is not in the stream.
export function touchedBuffers(n = kStreamBuffers, bytes = kStreamBufferBytes): ArrayBuffer[] {
  return Array.from({ length: n }, () => touchedBuffer(bytes));
}

// The sending side: the columns (views into the part worker's heap, which must not grow meanwhile).
export class ColumnReader {
  private col = 0;
  private off = 0;
  private remaining: number;

  constructor(private readonly columns: Uint8Array[]) {
    this.remaining = columns.reduce((n, c) => n + c.length, 0);
  }

  get left(): number {
    return this.remaining;
  }

  // Copies the next bytes into `into`; returns how many (0 once all were read).
  fill(into: Uint8Array): number {
    let n = 0;
    while (n < into.length && this.col < this.columns.length) {
      const c = this.columns[this.col];
      const take = Math.min(into.length - n, c.length - this.off);
      into.set(c.subarray(this.off, this.off + take), n);
      n += take;
      this.off += take;
      if (this.off === c.length) {
        this.col++;
        this.off = 0;
      }
    }
    this.remaining -= n;
    return n;
  }
}

// The sending side's flow: once the receiver asks, each free buffer is filled with the next bytes
// and posted; the receiver gives each back to be filled again.
export class ChunkSender {
  private buffers: ArrayBuffer[] = [];
  private reader: ColumnReader | null = null;
  private asked = false;
  private inFlight = 0;
  private finished: () => void = () => {};

  constructor(private readonly post: (buffer: ArrayBuffer, length: number) => void) {}

  // Makes the buffers (touched) unless they exist: ahead, while the worker is idle.
  prepare(): void {
    if (!this.buffers.length && !this.inFlight) this.buffers = touchedBuffers();
  }

  // Streams `columns` (views that must stay valid until it resolves); resolves once every byte was
  // sent and every buffer came back.
  send(columns: Uint8Array[]): Promise<void> {
    return new Promise<void>((resolve) => {
      this.reader = new ColumnReader(columns);
      this.finished = resolve;
      this.pump();
    });
  }

  // The receiver is ready for the bytes.
  ask(): void {
    this.prepare(); // (made now if the worker was not started ahead)
    this.asked = true;
    this.pump();
  }

  // A buffer back from the receiver.
  giveBack(buffer: ArrayBuffer): void {
    this.inFlight--;
    this.buffers.push(buffer);
    this.pump();
  }

  private pump(): void {
    const r = this.reader;
    if (!r || !this.asked) return;
    while (this.buffers.length && r.left > 0) {
      const buffer = this.buffers.pop()!;
      const length = r.fill(new Uint8Array(buffer));
      this.inFlight++;
      this.post(buffer, length);
    }
    if (r.left === 0 && this.inFlight === 0) {
      this.reader = null;
      this.finished();
    }
  }
}

// The receiving side: column `i` of sizes[i] bytes goes to heap address addresses[i].
export class ColumnWriter {
  private col = 0;
  private off = 0;
  private remaining: number;

  constructor(
    private readonly sizes: number[],
    private readonly addresses: number[]
  ) {
    this.remaining = sizes.reduce((n, s) => n + s, 0);
  }

  get done(): boolean {
    return this.remaining === 0;
  }

  // Writes the next bytes of the stream through `heap` (the module's current HEAPU8); false when
  // they are more than the columns hold.
  write(heap: Uint8Array, chunk: Uint8Array): boolean {
    if (chunk.length > this.remaining) return false;
    let pos = 0;
    while (pos < chunk.length) {
      while (this.off === this.sizes[this.col]) {
        this.col++;
        this.off = 0;
      } // (empty columns)
      const take = Math.min(chunk.length - pos, this.sizes[this.col] - this.off);
      heap.set(chunk.subarray(pos, pos + take), this.addresses[this.col] + this.off);
      pos += take;
      this.off += take;
    }
    this.remaining -= chunk.length;
    return true;
  }
}
