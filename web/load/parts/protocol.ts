// The messages between a trace worker and a part worker (part.js, ./worker.ts), one per later part.

// Seconds from the part worker's start message to: its module loaded, its part imported, streamed out.
export interface PartTiming {
  loaded: number;
  imported: number;
  exported: number;
}

export interface PartStart {
  kind: 'start';
  blob: Blob;
  begin: number;
  end: number;
  objectForm: boolean;
  last: boolean;
}

export type PartRequest =
  | { kind: 'warm' } // started ahead: load the core, warm up
  | PartStart
  | { kind: 'send' } // stream the columns now
  | { kind: 'more'; buffer: ArrayBuffer } // a chunk's buffer back, to fill again
  | { kind: 'cancel' };

export type PartReply =
  | { kind: 'progress'; raw: number; events: number }
  // heapBytes: the part worker's wasm heap once its part is imported (its peak: streaming the
  // columns out grows it no further).
  | { kind: 'imported'; header: Uint8Array; sizes: number[]; raw: number; events: number; heapBytes: number }
  | { kind: 'chunk'; buffer: ArrayBuffer; length: number }
  | { kind: 'done'; timing: PartTiming }
  | { kind: 'failed'; message: string };
