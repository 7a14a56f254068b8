// The trace worker's import loop: pushes the bytes of an input (ByteSource) into the session until
// the input ends, the session fails (not a trace: reading stops at once) or the open is cancelled,
// and keeps the counts and timings the open reply reports (OpenResult).
import { type ByteSource, openSource, SourceError } from '../input/byte_source';
import { HeapPusher } from '../input/heap_pusher';
import { gzipWarning } from '../input/gzip_damage';
import type { OpenRequest } from '../../worker/protocol';
import { cancelledFailure, WorkerFailure } from '../failure';
import type { CoreModule, CoreSession } from '../../core/bindings';

// openSource(), its failures as the worker's.
// `gzip`: what the blob's first bytes say, when the caller has read them (one read less).
export function openInput(
  req: Pick<OpenRequest, 'blob' | 'buffer' | 'url' | 'workers'> & { gzip?: boolean }
): Promise<ByteSource> {
  return openSource(req).catch((e) => {
    if (e instanceof SourceError) throw new WorkerFailure(e.code, e.message);
    throw e;
  });
}

export class ImportPump {
  input = 0; // bytes pushed from the inputs pumped
  waitSeconds = 0; // spent awaiting input (the reader was behind)
  firstInputSeconds = 0; // from the open's start to the first bytes
  readonly warnings: string[] = [];
  private readonly pusher: HeapPusher;
  private lastProgress = 0;

  // t0: the open's start (performance.now()); progress: called at most every ~100 ms of reading.
  constructor(
    mod: CoreModule,
    private readonly session: CoreSession,
    private readonly t0: number,
    private readonly cancelled: () => boolean,
    private readonly progress: () => void
  ) {
    this.pusher = new HeapPusher(mod, session);
  }

  // Pushes `from` to its end, the last partial batch too; counted(n) after each n bytes. A gzip
  // input that turns out damaged keeps what inflated, with a warning.
  async pump(from: ByteSource, counted: (n: number) => void = () => {}): Promise<void> {
    await this.read(from, counted);
    this.pusher.flush();
    for (const d of from.gzipDamage()) this.warnings.push(gzipWarning(d));
  }

  private async read(from: ByteSource, counted: (n: number) => void): Promise<void> {
    for (;;) {
      let batch: Uint8Array[] | null;
      const tw = performance.now();
      try {
        batch = await from.input.read();
        this.waitSeconds += (performance.now() - tw) / 1000;
      } catch (e) {
        if (e instanceof SourceError) throw new WorkerFailure(e.code, e.message);
        if (from.gzip && !this.cancelled()) {
          // A gzip reader that throws at damage (../input/gunzip.ts does not): keep what came before.
          this.warnings.push(
            'The gzip data ends early or is corrupt; what was decompressed before that point is loaded.'
          );
          return;
        }
        throw e;
      }
      if (this.cancelled()) throw cancelledFailure();
      if (batch === null) return;
      if (this.input === 0 && batch.length > 0) this.firstInputSeconds = (performance.now() - this.t0) / 1000;
      for (let k = 0; k < batch.length; k++) {
        const chunk = batch[k];
        const pushed = this.pusher.write(chunk);
        this.input += chunk.length;
        counted(chunk.length);
        from.release(chunk); // copied: its memory can go back to the reader (../feed/client.ts)
        // Not a trace: stop reading at once. Only a push can fail the session (the splitter finds
        // it), so it is asked only after a push: asked after every 64 KB chunk, the call showed up
        // in a profile of a gzip load.
        if (pushed && this.session.failed()) {
          for (k++; k < batch.length; k++) from.release(batch[k]);
          return;
        }
      }
      const now = performance.now();
      if (now - this.lastProgress > kProgressEveryMs) {
        this.lastProgress = now;
        this.progress();
      }
    }
  }
}

const kProgressEveryMs = 100;
