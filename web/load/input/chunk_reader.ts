// The importer's input as batches of chunks: each read gives the chunks that one wait produced
// (possibly none) and null at the end. The feed worker sends its chunks
// in batches of ~2 MB; a gzip batch holds ~32 of DecompressionStream's 64 KB chunks. Handing them
// out one by one through a ReadableStream costs a read, a pull and two promise turns each, thousands
// of times per file: a batch is one wait.
export interface ChunkReader {
  read(): Promise<Uint8Array[] | null>;
  cancel(): Promise<void>;
}

// A stream's chunks, one per read (its reader gives no way to see what else is queued).
export function streamChunks(stream: ReadableStream<Uint8Array>): ChunkReader {
  return readerChunks(stream.getReader());
}

// The same from a reader (or anything read like one: ./gunzip.ts).
export function readerChunks(reader: Pick<ReadableStreamDefaultReader<Uint8Array>, 'read' | 'cancel'>): ChunkReader {
  return {
    read: async () => {
      const r = await reader.read();
      return r.done ? null : [r.value];
    },
    cancel: () => reader.cancel(),
  };
}
