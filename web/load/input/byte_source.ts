import { blobStream, BufferPool, kBatchBytes } from './blob_stream';
import { type ChunkReader, readerChunks, streamChunks } from './chunk_reader';
import { gunzip } from './gunzip';
import type { GzipDamage } from './gzip_damage';
import { feedFromWorker } from '../feed/client';
import type { ReaderTiming } from '../feed/protocol';
import type { CoreModule } from '../../core/bindings';
import { without } from '../switches';

// Turns what the page hands the worker (a File/Blob, an ArrayBuffer or a URL) into one stream of the
// importer's input bytes: the file read as one stream (Blob.stream) or downloaded, and put through
// DecompressionStream('gzip') when its first two bytes are the gzip magic (1f 8b), whatever the name.
// A local file is read (and inflated) in a nested worker (../feed/client.ts) where the browser allows it.

export interface ByteSource {
  totalBytes: number | null; // size of the file as given, if known
  rawBytes(): number; // file bytes consumed so far
  gzip: boolean;
  input: ChunkReader; // decompressed bytes
  keep: () => Blob | undefined; // the file as given, for re-reading events later
  sizeHint(guess: GzipSizeGuess): Promise<number>; // expected decompressed bytes, 0 if unknown
  // After sizeHint(): a better guess for a gzip once `inflated` bytes came out of rawBytes() (0: none).
  refineSizeHint(guess: GzipSizeGuess, inflated: number): number;
  reader: 'feed worker' | 'trace worker'; // the thread that reads (and inflates)
  readerStartedAhead: boolean; // the feed worker was started before the file came
  release(chunk: Uint8Array): void; // the reader is done with a chunk of `input` (frees it if it may)
  readBuffers(): number | null; // batch buffers the reader made (null: it reads into the browser's)
  readerTiming(): ReaderTiming | null; // the feed worker's read, once it ended (null: none, or not yet)
  gzipDamage(): GzipDamage[]; // what was wrong with gzip data that still inflated, once the input ended
}

// The core's guess of a gzip's inflated size (core/inflate/gzip_size.h), passed in: a source is
// opened while the module may still be loading.
export type GzipSizeGuess = CoreModule['gzipSizeGuess'];

// The importer sizes its tables once from this (instead of doubling them): File.size for plain
// files; for gzip what the trailer's ISIZE (uncompressed size mod 4 GiB) allows.
async function gzipIsize(blob: Blob | undefined): Promise<number | null> {
  if (!blob || blob.size < 18) return null;
  const tail = new DataView(await blob.slice(blob.size - 4).arrayBuffer());
  return tail.getUint32(0, true);
}

export class SourceError extends Error {
  constructor(
    readonly code: 'network' | 'cors' | 'read',
    message: string
  ) {
    super(message);
  }
}

const readFailure = (name: string) =>
  new SourceError('read', `The browser could not read the file (${name}); was it moved or deleted?`);

async function download(url: string): Promise<{ stream: ReadableStream<Uint8Array>; total: number | null }> {
  let res: Response;
  try {
    res = await fetch(url, { credentials: 'omit' });
  } catch {
    let crossOrigin = true;
    try {
      crossOrigin = new URL(url, self.location.href).origin !== self.location.origin;
    } catch {
      /* bad URL */
    }
    if (crossOrigin) {
      throw new SourceError(
        'cors',
        `Could not download ${url}: the other server did not allow this page to read it ` +
          '(CORS), or it cannot be reached. Download the file and drop it here instead, or serve it with an ' +
          '"Access-Control-Allow-Origin" header.'
      );
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

export const isGzipMagic = (head: Uint8Array) => head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;

// Whether the blob starts with the gzip magic bytes (1f 8b); a read failure throws a SourceError.
export async function magicIsGzip(blob: Blob): Promise<boolean> {
  try {
    return isGzipMagic(new Uint8Array(await blob.slice(0, 2).arrayBuffer()));
  } catch (e) {
    throw readFailure((e as Error).name);
  }
}

// A download's bytes, each chunk seen by `onChunk` (counted and kept), the first one (already read
// to look at its magic bytes) handed out first.
function downloadStream(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  first: ReadableStreamReadResult<Uint8Array>,
  onChunk: (c: Uint8Array) => void
): ReadableStream<Uint8Array> {
  let pending: ReadableStreamReadResult<Uint8Array> | null = first;
  return new ReadableStream<Uint8Array>(
    {
      async pull(c) {
        const r = pending ?? (await reader.read());
        pending = null;
        if (r.done) {
          c.close();
          return;
        }
        onChunk(r.value);
        if (r.value.length) c.enqueue(r.value);
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 }
  );
}

// A gzip input inflated in this thread: the source of its output, which tells the damage.
function inflatedSource(
  bytes: ReadableStream<Uint8Array>,
  make: (input: ChunkReader, how: Pick<ByteSource, 'gzipDamage'>) => ByteSource
): ByteSource {
  const inflated = gunzip(bytes);
  return make(readerChunks(inflated.reader), { gzipDamage: () => inflated.damage });
}

// `gzip`: whether the blob starts with the gzip magic, when the caller knows already.
export async function openSource(req: {
  blob?: Blob;
  buffer?: ArrayBuffer;
  url?: string;
  workers?: string;
  gzip?: boolean;
}): Promise<ByteSource> {
  const blob = req.blob ?? (req.buffer ? new Blob([req.buffer]) : undefined);
  let rawBytes = 0;
  // How the bytes are read, where it differs from the trace worker reading them itself.
  type Reading = Partial<
    Pick<
      ByteSource,
      'rawBytes' | 'reader' | 'readerStartedAhead' | 'release' | 'readBuffers' | 'readerTiming' | 'gzipDamage'
    >
  >;
  const source = (
    input: ReadableStream<Uint8Array> | ChunkReader,
    gzip: boolean,
    total: number | null,
    keep: () => Blob | undefined,
    how: Reading = {}
  ): ByteSource => {
    let isize: number | null = null;
    const raw = how.rawBytes ?? (() => rawBytes);
    return {
      totalBytes: total,
      gzip,
      input: input instanceof ReadableStream ? streamChunks(input) : input,
      keep,
      rawBytes: raw,
      reader: 'trace worker',
      readerStartedAhead: false,
      release: () => {},
      readBuffers: () => null,
      readerTiming: () => null,
      gzipDamage: () => [],
      ...how,
      sizeHint: async (guess: GzipSizeGuess) => {
        if (!gzip) return total ?? 0;
        isize = await gzipIsize(blob).catch(() => null);
        return isize === null || total === null ? 0 : guess(isize, total, 0, 0);
      },
      refineSizeHint(guess: GzipSizeGuess, inflated: number) {
        return isize === null || total === null ? 0 : guess(isize, total, inflated, raw());
      },
    };
  };
  if (blob) {
    const gzip = req.gzip ?? (await magicIsGzip(blob));
    const fed = req.workers === 'single' || without('feed') ? null : await feedFromWorker(blob, gzip, readFailure);
    if (fed) {
      return source(fed.input, gzip, blob.size, () => blob, {
        rawBytes: fed.rawBytes,
        reader: 'feed worker',
        readerStartedAhead: fed.startedAhead,
        release: fed.release,
        readBuffers: fed.readBuffers,
        readerTiming: fed.timing,
        gzipDamage: fed.damage,
      });
    }
    // Read here (no nested workers): a plain file's batches are read into again once copied.
    const pool = gzip ? undefined : new BufferPool(kBatchBytes, 2);
    const bytes = blobStream(
      blob,
      (e) => readFailure((e as Error)?.name),
      (n) => {
        rawBytes += n;
      },
      pool
    );
    if (!pool) return inflatedSource(bytes, (input, how) => source(input, gzip, blob.size, () => blob, how));
    return source(bytes, gzip, blob.size, () => blob, {
      release: (chunk) => pool.give(chunk.buffer as ArrayBuffer),
      readBuffers: () => pool.allocated,
    });
  }
  if (!req.url) throw new SourceError('read', 'Nothing to open.');
  const d = await download(req.url);
  const kept: Uint8Array[] = []; // downloaded bytes become a Blob so events can be re-read later
  const reader = d.stream.getReader();
  const first = await reader.read();
  const gzip = !first.done && isGzipMagic(first.value);
  const bytes = downloadStream(reader, first, (c) => {
    rawBytes += c.length;
    kept.push(c);
  });
  const keep = () => new Blob(kept as BlobPart[]);
  if (!gzip) return source(bytes, gzip, d.total, keep);
  return inflatedSource(bytes, (input, how) => source(input, gzip, d.total, keep, how));
}
