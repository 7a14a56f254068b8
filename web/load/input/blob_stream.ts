// A Blob's bytes as one stream (Blob.stream()): it reads ahead through one pipe and costs far less
// CPU than a loop of Blob.slice() reads. Where the browser offers it as a byte stream, its bytes
// are read (BYOB) into batch buffers taken from a BufferPool, handed out whole (the last one may be
// shorter) and given back by the consumer once copied: the default reader makes every ~64 KB chunk
// a new buffer to allocate, fault in and collect (docs/performance.md, "Reused read buffers"). A
// read failure (file moved or changed) errors the stream with `fail(cause)`; `onChunk` sees each
// read's size.
import { postedTask } from '../../posted_task';

// A buffer with each page written once: a new buffer's pages are faulted in by their first write
// (512 per 2 MB). Made while a worker is idle, they are not faulted in while a file loads.
export function touchedBuffer(bytes: number): ArrayBuffer {
  const b = new ArrayBuffer(bytes);
  const v = new Uint8Array(b);
  for (let i = 0; i < bytes; i += 4096) v[i] = 0;
  return b;
}

// Reused batch buffers, all of one size. Buffers of another size are not kept.
export class BufferPool {
  private free: ArrayBuffer[] = [];
  private ahead: ArrayBuffer[] = []; // made (touched) before the first take
  allocated = 0; // buffers taken new (reported in the open reply: they are few when they come back)
  constructor(
    readonly bytes: number,
    private readonly keep = 8
  ) {}
  get madeAhead(): number {
    return this.ahead.length;
  } // made ahead, not taken yet
  take(): ArrayBuffer {
    const b = this.free.pop();
    if (b) return b;
    this.allocated++;
    return this.ahead.pop() ?? new ArrayBuffer(this.bytes);
  }
  give(buffer: ArrayBuffer): void {
    if (buffer.byteLength === this.bytes && this.free.length < this.keep) this.free.push(buffer);
  }
  // Makes up to `n` buffers ahead (touchedBuffer), one per task so that a message waits for one at
  // most; stops once a buffer was taken (reading began: the rest come as needed).
  async fillAhead(n: number): Promise<void> {
    while (this.allocated === 0 && this.ahead.length < Math.min(n, this.keep)) {
      this.ahead.push(touchedBuffer(this.bytes));
      await postedTask();
    }
  }
}

function byobReader(blob: Blob): ReadableStreamBYOBReader | null {
  try {
    return blob.stream().getReader({ mode: 'byob' });
  } catch {
    return null; // not a byte stream in this browser
  }
}

// The size of a read batch (the pools' buffers) for every reader of a local file: the feed worker,
// the part workers and the in-worker fallback of byte_source.ts (a 2 MB BYOB buffer reused in turn
// was the cheapest read of those compared; docs/performance.md).
export const kBatchBytes = 2 << 20;

// The first batch's size for readers that start on their first bytes (the feed and part workers):
// see batchStream.
export const kFirstBatchBytes = 256 << 10;

// `firstBytes` (with a pool): the first batch is that small, in a buffer of its own, so that its
// reader can begin while the browser's reading gets going (see batchStream).
export function blobStream(
  blob: Blob,
  fail: (cause: unknown) => Error,
  onChunk?: (n: number) => void,
  pool?: BufferPool,
  firstBytes = 0
): ReadableStream<Uint8Array> {
  const byob = pool ? byobReader(blob) : null;
  if (pool && byob) return batchStream(byob, pool, fail, onChunk, firstBytes);
  const r = blob.stream().getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(c) {
        let res: ReadableStreamReadResult<Uint8Array>;
        try {
          res = await r.read();
        } catch (e) {
          throw fail(e);
        }
        if (res.done) {
          c.close();
          return;
        }
        onChunk?.(res.value.length);
        c.enqueue(res.value);
      },
      cancel(reason) {
        return r.cancel(reason);
      },
    },
    { highWaterMark: 0 }
  );
}

// As a read begins the browser's reads come slowly (small reads, far apart), so a whole first
// batch would keep the importer waiting. A small first batch lets it start on the first bytes.
function batchStream(
  r: ReadableStreamBYOBReader,
  pool: BufferPool,
  fail: (cause: unknown) => Error,
  onChunk: ((n: number) => void) | undefined,
  firstBytes: number
): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      async pull(c) {
        let buffer = firstBytes > 0 ? new ArrayBuffer(firstBytes) : pool.take();
        firstBytes = 0;
        let filled = 0;
        let done = false;
        while (filled < buffer.byteLength) {
          let res: ReadableStreamReadResult<Uint8Array<ArrayBuffer>>;
          try {
            res = await r.read(new Uint8Array(buffer, filled));
          } catch (e) {
            throw fail(e);
          }
          // The read took the buffer over (transferred it); its bytes come back in the result's view.
          if (!res.value) {
            done = true;
            filled = 0;
            break;
          } // cancelled: the bytes went with the buffer
          buffer = res.value.buffer;
          if (res.done) {
            done = true;
            break;
          }
          filled += res.value.length;
          onChunk?.(res.value.length);
        }
        if (filled > 0) c.enqueue(new Uint8Array(buffer, 0, filled));
        else if (buffer.byteLength > 0) pool.give(buffer); // not detached by a cancelled read
        if (done) c.close();
      },
      cancel(reason) {
        return r.cancel(reason);
      },
    },
    { highWaterMark: 0 }
  );
}
