// Raw deflate (RFC 1951) through the browser's CompressionStream / DecompressionStream: no library,
// and the decoder stops as soon as the output passes a limit, so a small "zip bomb" link cannot make
// the page allocate more than that.
import { ShareError } from './share_error';

function concat(chunks: Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let off = 0;
  for (const c of chunks) {
    out.set(c, off);
    off += c.length;
  }
  return out;
}

export async function deflateRaw(data: Uint8Array): Promise<Uint8Array> {
  if (typeof CompressionStream === 'undefined')
    throw new ShareError('unsupported', 'This browser cannot compress links (no CompressionStream).');
  const stream = new Blob([data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = stream.getReader();
  for (;;) {
    const r = await reader.read();
    if (r.done) break;
    chunks.push(r.value);
    total += r.value.length;
  }
  return concat(chunks, total);
}

export async function inflateRaw(data: Uint8Array, maxOutBytes: number): Promise<Uint8Array> {
  if (typeof DecompressionStream === 'undefined')
    throw new ShareError('unsupported', 'This browser cannot read compressed links (no DecompressionStream).');
  const ds = new DecompressionStream('deflate-raw');
  const writer = ds.writable.getWriter();
  // Errors surface on the reader; the writer's promises are awaited only to avoid unhandled rejections.
  writer.write(data as Uint8Array<ArrayBuffer>).catch(() => {});
  writer.close().catch(() => {});
  const reader = ds.readable.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const r = await reader.read();
      if (r.done) break;
      total += r.value.length;
      if (total > maxOutBytes) {
        reader.cancel().catch(() => {});
        throw new ShareError('too_large', `The link expands to more than ${maxOutBytes} bytes; tracewise refuses it.`);
      }
      chunks.push(r.value);
    }
  } catch (e) {
    if (e instanceof ShareError) throw e;
    throw new ShareError('bad_data', 'The link is damaged (its compressed data does not decompress).');
  }
  return concat(chunks, total);
}
