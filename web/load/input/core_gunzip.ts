// gzip inflated by the core's own inflater (core/inflate, in wasm) instead of DecompressionStream:
// the same reader and the same damage as ./gunzip.ts (every member; a wrong trailer keeps the
// member's data and goes on; truncated and corrupt data keep what came before), decided by the core
// (core/inflate/README.md), which also reads multi-member files without cutting the input.
// onRaw(n) counts the compressed bytes the inflater used (not those read ahead of it), so that with
// the output so far it gives the ratio (core/inflate/gzip_size.h).
// Each chunk read is the reader's own to transfer: a copy of the core's output (up to 1 MB), or with
// a `pool`, one of its buffers filled whole (the last one in part), to be given back once copied.
// Used in the feed worker (./../feed/worker.ts) unless the site is built without 'inflate'.
import type { CoreModule } from '../../core/bindings';
import type { BufferPool } from './blob_stream';
import type { GzipDamage } from './gzip_damage';
import { InputFailure, type Inflated, type InflatedReader } from './gunzip';

export function coreGunzip(
  mod: CoreModule,
  input: ReadableStream<Uint8Array>,
  onRaw?: (n: number) => void,
  pool?: BufferPool
): Inflated {
  const damage: GzipDamage[] = [];
  const source = input.getReader();
  const inflater = new mod.Inflater();
  let pending: Uint8Array | null = null; // read from the input, not yet in the inflater's buffer
  let ended = false; // the input's last byte is in the inflater
  let open = true;
  // Output not handed out yet: a view into the heap, valid until the next call into the inflater.
  let rest: Uint8Array | null = null;
  let used = 0; // compressed bytes the inflater used, as onRaw was told
  const countUsed = () => {
    const now = inflater.inputUsed();
    if (now > used) onRaw?.(now - used);
    used = Math.max(used, now);
  };
  const close = () => {
    if (!open) return;
    open = false;
    damage.push(...(JSON.parse(inflater.damageJson()) as GzipDamage[]));
    inflater.delete();
  };

  // The inflater's next output (a view into the heap), null at the end.
  const next = async (): Promise<Uint8Array | null> => {
    while (open) {
      const out = inflater.inflate();
      countUsed();
      if (out.length > 0) return out;
      if (inflater.finished() || ended) break; // after endInput() an empty view is the end
      if (!pending || pending.length === 0) {
        let r: ReadableStreamReadResult<Uint8Array>;
        try {
          r = await source.read();
        } catch (e) {
          close();
          throw new InputFailure(e);
        }
        if (!open) break; // cancelled while waiting
        if (r.done) {
          ended = true;
          inflater.endInput();
          continue;
        }
        pending = r.value;
      }
      const n = Math.min(inflater.inputRoom(), pending.length);
      const at = inflater.inputSpace();
      mod.HEAPU8.set(pending.subarray(0, n), at);
      inflater.commitInput(n);
      pending = pending.subarray(n);
    }
    close();
    if (!ended) await source.cancel().catch(() => {}); // stopped at damage: the rest is not read
    return null;
  };

  // A pool buffer filled with output; null at the end.
  const fill = async (p: BufferPool): Promise<Uint8Array | null> => {
    const buf = new Uint8Array(p.take());
    let filled = 0;
    while (filled < buf.length) {
      if (!rest || rest.length === 0) rest = await next();
      if (!rest) break;
      const n = Math.min(rest.length, buf.length - filled);
      buf.set(rest.subarray(0, n), filled);
      filled += n;
      rest = rest.subarray(n);
    }
    if (filled === 0) p.give(buf.buffer);
    return filled === 0 ? null : filled === buf.length ? buf : buf.subarray(0, filled);
  };

  const reader: InflatedReader = {
    async read() {
      const out = pool ? await fill(pool) : (await next())?.slice();
      return out ? { done: false, value: out } : { done: true, value: undefined };
    },
    async cancel() {
      close();
      await source.cancel().catch(() => {});
    },
  };
  return { reader, damage };
}
