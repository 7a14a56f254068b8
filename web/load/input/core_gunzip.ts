// gzip inflated by the core's own inflater (core/inflate, in wasm) instead of DecompressionStream:
// the same reader and the same damage as ./gunzip.ts (every member; a wrong trailer keeps the
// member's data and goes on; truncated and corrupt data keep what came before), decided by the core
// (core/inflate/README.md), which also reads multi-member files without cutting the input.
// Each chunk read is a copy of the core's output buffer (up to 1 MB), so it is the reader's own to
// transfer. Used in the feed worker (./../feed/worker.ts) unless the site is built without 'inflate'.
import type { CoreModule } from '../../core/bindings';
import type { GzipDamage } from './gzip_damage';
import { InputFailure, type Inflated, type InflatedReader } from './gunzip';

export function coreGunzip(mod: CoreModule, input: ReadableStream<Uint8Array>, onRaw?: (n: number) => void): Inflated {
  const damage: GzipDamage[] = [];
  const source = input.getReader();
  const inflater = new mod.Inflater();
  let pending: Uint8Array | null = null; // read from the input, not yet in the inflater's buffer
  let ended = false; // the input's last byte is in the inflater
  let open = true;
  const close = () => {
    if (!open) return;
    open = false;
    damage.push(...(JSON.parse(inflater.damageJson()) as GzipDamage[]));
    inflater.delete();
  };

  const reader: InflatedReader = {
    async read() {
      while (open) {
        const out = inflater.inflate();
        if (out.length > 0) return { done: false, value: out.slice() };
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
          onRaw?.(r.value.length);
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
      return { done: true, value: undefined };
    },
    async cancel() {
      close();
      await source.cancel().catch(() => {});
    },
  };
  return { reader, damage };
}
