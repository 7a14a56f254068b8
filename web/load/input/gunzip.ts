// gzip inflated with DecompressionStream, every member of the file, losing nothing when the data
// turns out damaged: the stream is fed by hand, in writes cut where a member may end
// (./gzip_members.ts says where and why), and a fresh stream takes over after the end of each
// member. At the end an empty write waits for backpressure to clear, i.e. for every byte
// decompressed so far to have been read, before the close that notices a truncated file (with
// pipeThrough, the error at the final flush throws away the output still queued). Damage is not
// an error: the output ends (or goes on with the next member) and `damage` says what was wrong.
// Used in the trace worker (downloads) and in the feed worker (files).
import { afterFailure, kAheadBytes, planPieces, type Piece } from './gzip_members';
import type { GzipDamage } from './gzip_damage';

const kInflatePiece = 256 << 10;

// Marks a failure to read the compressed input (as opposed to corrupt gzip data) on its way
// through the decompressor, which errors its output with whatever the writer was aborted with.
export class InputFailure extends Error {
  constructor(readonly reason: unknown) {
    super(String((reason as Error)?.message ?? reason));
  }
}

// The decompressed bytes, one chunk a read, as a stream's default reader gives them.
export interface InflatedReader {
  read(): Promise<ReadableStreamReadResult<Uint8Array>>;
  cancel(): Promise<void>;
}

export interface Inflated {
  reader: InflatedReader;
  damage: GzipDamage[]; // complete once the reader said done
}

// From the feeding side to the reading side: each member's output stream in turn, then the end
// (or what stopped the feeding: the input's read failed, InputFailure, or anything unforeseen).
type Next =
  | { kind: 'member'; output: ReadableStreamDefaultReader<Uint8Array> }
  | { kind: 'end' }
  | { kind: 'failed'; error: unknown };

class Mailbox<T> {
  private items: T[] = [];
  private wake: (() => void) | null = null;
  put(item: T): void {
    this.items.push(item);
    this.wake?.();
    this.wake = null;
  }
  async take(): Promise<T> {
    while (this.items.length === 0)
      await new Promise<void>((ok) => {
        this.wake = ok;
      });
    return this.items.shift()!;
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}

export function gunzip(input: ReadableStream<Uint8Array>, onRaw?: (n: number) => void): Inflated {
  const damage: GzipDamage[] = [];
  const next = new Mailbox<Next>();
  const source = input.getReader();
  let cancelled = false;
  let writer: WritableStreamDefaultWriter<BufferSource>;
  const startMember = () => {
    const ds = new DecompressionStream('gzip');
    writer = ds.writable.getWriter();
    next.put({ kind: 'member', output: (ds.readable as ReadableStream<Uint8Array>).getReader() });
  };

  const readChunk = async (): Promise<Uint8Array | null> => {
    try {
      const { done, value } = await source.read();
      return done ? null : value;
    } catch (e) {
      throw new InputFailure(e);
    }
  };

  let member = 1;
  let memberStart = 0;
  let resumeAt = 0; // after a damaged trailer: the next member's first byte
  // Writes one piece of `chunk` (at `base` in the input); false once the inflation has stopped.
  const write = async (chunk: Uint8Array, base: number, p: Piece): Promise<boolean> => {
    const begin = Math.max(p.begin, resumeAt);
    if (begin >= p.end) return true;
    try {
      await writer.write(chunk.subarray(begin - base, p.end - base) as Uint8Array<ArrayBuffer>);
      return true;
    } catch {
      if (cancelled) return false;
      const after = afterFailure(p, memberStart);
      if (after.kind === 'stop') {
        damage.push(after.damage === 'trailer' ? { kind: 'trailer', member } : { kind: 'corrupt' });
        return false;
      }
      if (after.damaged) damage.push({ kind: 'trailer', member });
      member++;
      memberStart = resumeAt = after.at;
      startMember();
      // A probe that failed is the next member's first byte: it goes to the fresh stream.
      return after.at >= p.end || write(chunk, base, p);
    }
  };

  const feed = async (): Promise<void> => {
    startMember();
    let base = 0;
    let chunk = await readChunk();
    while (chunk) {
      let ahead = await readChunk();
      // A plan looks a few bytes past its chunk: tiny chunks are joined (rare, and short).
      while (ahead && ahead.length < kAheadBytes) {
        chunk = concat(chunk, ahead);
        ahead = await readChunk();
      }
      for (const p of planPieces(chunk, base, ahead, kInflatePiece)) {
        if (!(await write(chunk, base, p))) return;
        onRaw?.(p.end - p.begin);
      }
      base += chunk.length;
      chunk = ahead;
    }
    try {
      await writer.write(new Uint8Array(0));
      await writer.close();
    } catch {
      if (!cancelled) damage.push({ kind: 'truncated' });
    }
  };
  const fed = feed().then(
    () => next.put({ kind: 'end' }),
    (e) => {
      // The output fails with it, after what came before.
      void writer.abort(e).catch(() => {});
      next.put({ kind: 'failed', error: e });
    }
  );

  let output: ReadableStreamDefaultReader<Uint8Array> | null = null;
  let ended = false;
  const reader: InflatedReader = {
    async read() {
      for (;;) {
        if (!output) {
          const n = ended ? ({ kind: 'end' } as const) : await next.take();
          if (n.kind === 'failed') throw n.error;
          if (n.kind === 'end') {
            ended = true;
            return { done: true, value: undefined };
          }
          output = n.output;
        }
        try {
          const r = await output.read();
          if (!r.done) return r;
        } catch {
          // This member's stream stopped at damage, or with the feeding: the feeding side says what follows.
        }
        output = null;
      }
    },
    async cancel() {
      cancelled = true;
      const quietly = (p: Promise<void> | undefined) => p?.catch(() => {});
      await Promise.all([quietly(output?.cancel()), quietly(source.cancel()), quietly(writer.abort())]);
      await fed;
    },
  };
  return { reader, damage };
}
