// DecompressionStream, fed by hand. With pipeThrough, truncated gzip data makes the stream error at
// its final flush, and an errored stream throws away the output still queued in it (up to a whole
// slice's worth). Here the input goes in small pieces and, before closing, an empty write waits for
// backpressure to clear, i.e. for every byte decompressed so far to have been read.
// Used in the trace worker (downloads) and in the inflate worker (files).

const kInflatePiece = 256 << 10;

// Marks a failure to read the compressed input (as opposed to corrupt gzip data) on its way
// through the decompressor, which errors its output with whatever the writer was aborted with.
export class InputFailure extends Error {
  constructor(readonly reason: unknown) {
    super(String((reason as Error)?.message ?? reason));
  }
}

export function gunzip(input: ReadableStream<Uint8Array>, onRaw?: (n: number) => void): ReadableStream<Uint8Array> {
  const ds = new DecompressionStream('gzip');
  const writer = ds.writable.getWriter();
  const feed = async () => {
    const r = input.getReader();
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await r.read();
      } catch (e) {
        throw new InputFailure(e);
      }
      const { done, value } = chunk;
      if (done) break;
      for (let off = 0; off < value.length; off += kInflatePiece) {
        const piece = value.subarray(off, off + kInflatePiece);
        await writer.write(piece as Uint8Array<ArrayBuffer>);
        onRaw?.(piece.length);
      }
    }
    await writer.write(new Uint8Array(0));
    await writer.close();
  };
  feed().catch((e) => writer.abort(e).catch(() => {}));
  return ds.readable as ReadableStream<Uint8Array>;
}
