// Turns what the page hands the worker (a File/Blob, an ArrayBuffer or a URL) into one stream of the
// importer's input bytes: the file read in slices (Blob.slice) or downloaded, and put through
// DecompressionStream('gzip') when its first two bytes are the gzip magic (1f 8b), whatever the name.

export const kSliceBytes = 4 << 20;

export interface ByteSource {
  totalBytes: number | null;             // size of the file as given, if known
  rawBytes(): number;                    // file bytes consumed so far
  gzip: boolean;
  input: ReadableStreamDefaultReader<Uint8Array>;  // decompressed bytes
  keep: () => Blob | undefined;          // the file as given, for re-reading events later
  sizeHint(): Promise<number>;           // expected decompressed bytes, 0 if unknown
}

// The importer sizes its tables once from this (instead of doubling them): File.size for plain
// files; for gzip the trailer's ISIZE (uncompressed size mod 4 GiB), trusted only when it is not
// smaller than the compressed size.
async function sizeHintOf(blob: Blob | undefined, total: number | null, gzip: boolean): Promise<number> {
  if (!gzip) return total ?? 0;
  if (!blob || blob.size < 18) return 0;
  const tail = new DataView(await blob.slice(blob.size - 4).arrayBuffer());
  const isize = tail.getUint32(0, true);
  return isize >= blob.size ? isize : 0;
}

export class SourceError extends Error {
  constructor(readonly code: 'network' | 'cors' | 'read', message: string) { super(message); }
}

function blobStream(blob: Blob): ReadableStream<Uint8Array> {
  let pos = 0;
  return new ReadableStream<Uint8Array>({
    async pull(c) {
      if (pos >= blob.size) { c.close(); return; }
      const end = Math.min(pos + kSliceBytes, blob.size);
      let buf: ArrayBuffer;
      try {
        buf = await blob.slice(pos, end).arrayBuffer();
      } catch (e) {
        throw new SourceError('read', `The browser could not read the file (${(e as Error).name}); was it moved or deleted?`);
      }
      pos = end;
      c.enqueue(new Uint8Array(buf));
    },
  }, { highWaterMark: 1 });  // read one slice ahead while the previous one is parsed
}

async function download(url: string): Promise<{ stream: ReadableStream<Uint8Array>; total: number | null }> {
  let res: Response;
  try {
    res = await fetch(url, { credentials: 'omit' });
  } catch {
    let crossOrigin = true;
    try { crossOrigin = new URL(url, self.location.href).origin !== self.location.origin; } catch { /* bad URL */ }
    if (crossOrigin) {
      throw new SourceError('cors', `Could not download ${url}: the other server did not allow this page to read it ` +
        '(CORS), or it cannot be reached. Download the file and drop it here instead, or serve it with an ' +
        '"Access-Control-Allow-Origin" header.');
    }
    throw new SourceError('network', `Could not download ${url}: the server cannot be reached.`);
  }
  if (!res.ok || !res.body) {
    throw new SourceError('network', `Could not download ${url}: the server answered ${res.status} ${res.statusText}.`);
  }
  // With Content-Encoding the length is the encoded size; it is only used for the progress bar.
  const len = Number(res.headers.get('content-length'));
  return { stream: res.body, total: Number.isFinite(len) && len > 0 ? len : null };
}

const kInflatePiece = 256 << 10;

// DecompressionStream, fed by hand. With pipeThrough, truncated gzip data makes the stream error at
// its final flush, and an errored stream throws away the output still queued in it (up to a whole
// slice's worth). Here the input goes in small pieces and, before closing, an empty write waits for
// backpressure to clear, i.e. for every byte decompressed so far to have been read.
function gunzip(input: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const ds = new DecompressionStream('gzip');
  const writer = ds.writable.getWriter();
  const feed = async () => {
    const r = input.getReader();
    for (;;) {
      const { done, value } = await r.read();
      if (done) break;
      for (let off = 0; off < value.length; off += kInflatePiece) await writer.write(value.subarray(off, off + kInflatePiece) as Uint8Array<ArrayBuffer>);
    }
    await writer.write(new Uint8Array(0));
    await writer.close();
  };
  feed().catch((e) => writer.abort(e).catch(() => {}));
  return ds.readable as ReadableStream<Uint8Array>;
}

export async function openSource(req: { blob?: Blob; buffer?: ArrayBuffer; url?: string }): Promise<ByteSource> {
  let raw: ReadableStream<Uint8Array>;
  let total: number | null;
  let blob: Blob | undefined;
  const kept: Uint8Array[] = [];
  let keepParts = false;
  if (req.blob) {
    blob = req.blob;
    raw = blobStream(blob);
    total = blob.size;
  } else if (req.buffer) {
    blob = new Blob([req.buffer]);
    raw = blobStream(blob);
    total = blob.size;
  } else if (req.url) {
    const d = await download(req.url);
    raw = d.stream;
    total = d.total;
    keepParts = true;  // downloaded bytes become a Blob so events can be re-read later
  } else {
    throw new SourceError('read', 'Nothing to open.');
  }

  const reader = raw.getReader();
  let rawBytes = 0;
  const first = await reader.read();
  const head = first.done ? new Uint8Array(0) : first.value;
  const gzip = head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
  let pendingFirst: Uint8Array | null = head;
  const counted = new ReadableStream<Uint8Array>({
    async pull(c) {
      let chunk: Uint8Array | null = pendingFirst;
      pendingFirst = null;
      if (!chunk) {
        const r = await reader.read();
        if (r.done) { c.close(); return; }
        chunk = r.value;
      }
      rawBytes += chunk.length;
      if (keepParts) kept.push(chunk);
      if (chunk.length) c.enqueue(chunk);
      if (first.done) c.close();
    },
    cancel(reason) { return reader.cancel(reason); },
  }, { highWaterMark: 0 });

  const input = gzip ? gunzip(counted) : counted;
  return {
    totalBytes: total,
    rawBytes: () => rawBytes,
    gzip,
    input: input.getReader(),
    keep: () => blob ?? (keepParts ? new Blob(kept as BlobPart[]) : undefined),
    sizeHint: () => sizeHintOf(blob, total, gzip).catch(() => 0),
  };
}
